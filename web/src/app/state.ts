// web/src/app — the view state that a link reproduces, kept in the URL hash:
//   #tab=events&provider=…&event=…&thread=…&text=…&from=…&to=…&type=…&process=…&inverted=1
//   &timeline=type&side=sandwich&fn=…&weight=thread-time&stitch=0
//   &group=module|jmc&leaves=1&fold=…&exclude=…&include=…&groupPats=…&sql=…
//   &runs=1&runsType=…&runsWeight=…   (Compare runs: shown, its stacks and weight; not its files)
// Values are URL-encoded by URLSearchParams; absent keys mean "any". This module is the one
// place that parses and serialises it: the analyzer's controllers see numbers as numbers
// (null = any), and a value that is not valid (a thread that is not an integer, a tab that does
// not exist) falls back to its default and is named in `rejected`.

export type Tab = 'summary' | 'events' | 'flame' | 'diagnostics' | 'sql' | 'heap';
export const TABS: readonly Tab[] = ['summary', 'events', 'flame', 'diagnostics', 'sql', 'heap'];

export type Side = 'top' | 'sandwich' | 'diff';
export const SIDES: readonly Side[] = ['top', 'sandwich', 'diff'];

export type TimelineBy = 'provider' | 'type';

/** Flame graph grouping (views/stack_transform_controls.ts): none, by module, just my code. */
export type StackGroup = '' | 'module' | 'jmc';
export const STACK_GROUPS: readonly StackGroup[] = ['', 'module', 'jmc'];

export interface ViewState {
  tab: Tab;
  /** Event table filters. */
  provider: string;
  event: string;
  thread: number | null;
  /** Free text searched in names and decoded fields. */
  text: string;
  /** The time range (ms from the trace's start) every view is narrowed to. */
  fromMs: number | null;
  toMs: number | null;
  /** Flame graph: the event type whose stacks are drawn, thread filter, inverted. */
  stackEvent: string;
  stackThread: number | null;
  /** Flame graph: only this process's stacks (multi-process traces). */
  process: number | null;
  inverted: boolean;
  /**
   * Flame graph weight (StackQuery.weight); empty: the default for the event type
   * (views/weights.ts: dotnet-trace's thread time for CPU samples).
   */
  weight: string;
  /** Flame graph, dotnet-trace thread time: async stitching turned off (`stitch=0`). */
  noStitch: boolean;
  /** Beside the flame graph: the top functions, the sandwich of `fn`, or the A/B diff. */
  side: Side;
  fn: string;
  /** Timeline series: one per provider, or one per event type of the event filter. */
  timelineBy: TimelineBy;
  /** Flame graph grouping and folding (views/stack_transform_controls.ts): grouping, time
   *  leaves folded into their caller, and PerfView's ';'-separated pattern lists. */
  group: StackGroup;
  dropLeaves: boolean;
  foldPats: string;
  excludePats: string;
  includePats: string;
  groupPats: string;
  /** The SQL tab's query last run (empty: the first example). */
  sql: string;
  /** Compare runs (views/runs_view.ts) shown in place of the landing area, its stack event
   *  type (empty: Thread/Sample) and weight (empty: auto, as `nettrace diff`). */
  runs: boolean;
  runsEvent: string;
  runsWeight: string;
}

export function defaultState(): ViewState {
  return {
    tab: 'summary',
    provider: '',
    event: '',
    thread: null,
    text: '',
    fromMs: null,
    toMs: null,
    stackEvent: '',
    stackThread: null,
    process: null,
    inverted: false,
    weight: '',
    noStitch: false,
    side: 'top',
    fn: '',
    timelineBy: 'provider',
    group: '',
    dropLeaves: false,
    foldPats: '',
    excludePats: '',
    includePats: '',
    groupPats: '',
    sql: '',
    runs: false,
    runsEvent: '',
    runsWeight: '',
  };
}

type Field = Exclude<keyof ViewState, 'tab'>;

/** How one field is kept in the hash: its key, and how its value is read and written. */
interface Codec<V> {
  key: string;
  /** The value of the hash's text, or undefined when the text is not valid for the field. */
  parse: (text: string) => V | undefined;
  /** The text written, or null to leave the key out (the default). */
  write: (value: V) => string | null;
}

const text = (key: string): Codec<string> => ({ key, parse: (t) => t, write: (v) => (v === '' ? null : v) });

/** An id (thread, process): a non-negative integer. */
const id = (key: string): Codec<number | null> => ({
  key,
  parse: (t) => (/^\d+$/.test(t) && Number.isSafeInteger(Number(t)) ? Number(t) : undefined),
  write: (v) => (v === null ? null : String(v)),
});

/** A time in ms: any finite number (a range is put in order by orderedRange). Written to the
 *  microsecond (`6100.180`, as the brush and the GC rows set it, and as `nettrace --from` takes
 *  it); a finer time typed by hand is written whole, so that parsing gives it back. */
const ms = (key: string): Codec<number | null> => ({
  key,
  parse: (t) => (t.trim() !== '' && Number.isFinite(Number(t)) ? Number(t) : undefined),
  write: (v) => (v === null ? null : Number(v.toFixed(3)) === v ? v.toFixed(3) : String(v)),
});

/** A flag kept only when it is not the default: `on` is the text of the non-default value. */
const flag = (key: string, on: string): Codec<boolean> => ({
  key,
  parse: (t) => (t === on ? true : t === (on === '1' ? '0' : '1') ? false : undefined),
  write: (v) => (v ? on : null),
});

function choice<V extends string>(key: string, values: readonly V[]): Codec<V> {
  return {
    key,
    parse: (t) => values.find((v) => v === t),
    write: (v) => (v === values[0] ? null : v),
  };
}

const CODECS: { [K in Field]: Codec<ViewState[K]> } = {
  provider: text('provider'),
  event: text('event'),
  thread: id('thread'),
  text: text('text'),
  fromMs: ms('from'),
  toMs: ms('to'),
  stackEvent: text('type'),
  stackThread: id('stackThread'),
  process: id('process'),
  inverted: flag('inverted', '1'),
  weight: text('weight'),
  noStitch: flag('stitch', '0'),
  side: choice('side', SIDES),
  fn: text('fn'),
  timelineBy: choice<TimelineBy>('timeline', ['provider', 'type']),
  group: choice('group', STACK_GROUPS),
  dropLeaves: flag('leaves', '1'),
  foldPats: text('fold'),
  excludePats: text('exclude'),
  includePats: text('include'),
  groupPats: text('groupPats'),
  sql: text('sql'),
  runs: flag('runs', '1'),
  runsEvent: text('runsType'),
  runsWeight: text('runsWeight'),
};

const FIELDS = Object.keys(CODECS) as Field[];

export interface ParsedHash {
  state: ViewState;
  /** `key=value` of each value that was not valid and fell back to the default. */
  rejected: string[];
}

/** The state of a URL hash (with or without its `#`); invalid values fall back to defaults. */
export function parseHash(hash: string): ParsedHash {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const state = defaultState();
  const rejected: string[] = [];
  const tab = params.get('tab');
  if (tab !== null) {
    const known = TABS.find((t) => t === tab);
    if (known === undefined) rejected.push(`tab=${tab}`);
    else state.tab = known;
  }
  for (const field of FIELDS) setField(state, field, params, rejected);
  return { state, rejected };
}

function setField<K extends Field>(state: ViewState, field: K, params: URLSearchParams, rejected: string[]): void {
  const codec = CODECS[field] as Codec<ViewState[K]>;
  const raw = params.get(codec.key);
  if (raw === null) return;
  const value = codec.parse(raw);
  if (value === undefined) rejected.push(`${codec.key}=${raw}`);
  else state[field] = value;
}

function writeField<K extends Field>(state: ViewState, field: K): string | null {
  return (CODECS[field] as Codec<ViewState[K]>).write(state[field]);
}

/** The hash of a state, `#tab=…` first; defaults are left out. */
export function serialiseHash(state: ViewState): string {
  const params = new URLSearchParams();
  params.set('tab', state.tab);
  for (const field of FIELDS) {
    const written = writeField(state, field);
    const codec = CODECS[field];
    if (written !== null) params.set(codec.key, written);
  }
  return `#${params.toString()}`;
}

/** The state of a hash, its range in order (what a followed link shows). */
export function readHash(hash: string): ViewState {
  return orderedRange(parseHash(hash).state).state;
}

export const writeHash = serialiseHash;

/**
 * The time range in order: From after To (typed by hand, or in a link) selects nothing, so the
 * two are swapped. @returns the state to use, and whether it was swapped (to tell the user).
 */
export function orderedRange(state: ViewState): { state: ViewState; swapped: boolean } {
  const { fromMs: from, toMs: to } = state;
  if (from === null || to === null || !(from > to)) return { state, swapped: false };
  return { state: { ...state, fromMs: to, toMs: from }, swapped: true };
}

/** A number input's or select's text as a number (null: empty or not a number). */
export function numberOf(text: string): number | null {
  return text.trim() !== '' && Number.isFinite(Number(text)) ? Number(text) : null;
}

/** The text a number input or select shows for a number (empty: any). */
export const textOf = (value: number | null): string => (value === null ? '' : String(value));
