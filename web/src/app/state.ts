// web/src/app — the view state that a link reproduces, kept in the URL hash:
//   #tab=events&provider=…&event=…&thread=…&text=…&from=…&to=…&type=…&process=…&inverted=1
//   &timeline=type&side=sandwich&fn=…&weight=thread-time&stitch=0
//   &group=module|jmc&leaves=1&fold=…&exclude=…&include=…&groupPats=…
// Values are URL-encoded by URLSearchParams; absent keys mean "any".

export type Tab = 'summary' | 'events' | 'flame' | 'diagnostics';
export const TABS: readonly Tab[] = ['summary', 'events', 'flame', 'diagnostics'];

export interface ViewState {
  tab: Tab;
  /** Event table filters. */
  provider: string;
  event: string;
  thread: string;
  /** Free text searched in names and decoded fields. */
  text: string;
  fromMs: string;
  toMs: string;
  /** Flame graph: the event type whose stacks are drawn, thread filter, inverted. */
  stackEvent: string;
  stackThread: string;
  /** Flame graph: only this process's stacks (multi-process traces). */
  process: string;
  inverted: boolean;
  /**
   * Flame graph weight (StackQuery.weight); empty: the default for the event type
   * (weights.ts: dotnet-trace's thread time for CPU samples).
   */
  weight: string;
  /** Flame graph, dotnet-trace thread time: async stitching turned off (`stitch=0`). */
  noStitch: boolean;
  /** Beside the flame graph: the top functions, or the sandwich of `fn`. */
  side: 'top' | 'sandwich' | 'diff';
  fn: string;
  /** Timeline series: one per provider, or one per event type of the event filter. */
  timelineBy: 'provider' | 'type';
  /** Flame graph grouping and folding (views/stack_transform_controls.ts). */
  group: string;
  dropLeaves: string;
  foldPats: string;
  excludePats: string;
  includePats: string;
  groupPats: string;
}

export function defaultState(): ViewState {
  return {
    tab: 'summary',
    provider: '',
    event: '',
    thread: '',
    text: '',
    fromMs: '',
    toMs: '',
    stackEvent: '',
    stackThread: '',
    process: '',
    inverted: false,
    weight: '',
    noStitch: false,
    side: 'top',
    fn: '',
    timelineBy: 'provider',
    group: '',
    dropLeaves: '',
    foldPats: '',
    excludePats: '',
    includePats: '',
    groupPats: '',
  };
}

const KEYS: Record<Exclude<keyof ViewState, 'tab' | 'inverted' | 'noStitch' | 'timelineBy' | 'side'>, string> = {
  provider: 'provider',
  event: 'event',
  thread: 'thread',
  text: 'text',
  fromMs: 'from',
  toMs: 'to',
  stackEvent: 'type',
  stackThread: 'stackThread',
  process: 'process',
  weight: 'weight',
  fn: 'fn',
  group: 'group',
  dropLeaves: 'leaves',
  foldPats: 'fold',
  excludePats: 'exclude',
  includePats: 'include',
  groupPats: 'groupPats',
};

export function readHash(hash: string): ViewState {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const state = defaultState();
  const tab = params.get('tab');
  if (tab !== null && (TABS as readonly string[]).includes(tab)) state.tab = tab as Tab;
  for (const [field, key] of Object.entries(KEYS) as [keyof typeof KEYS, string][]) state[field] = params.get(key) ?? '';
  state.inverted = params.get('inverted') === '1';
  state.noStitch = params.get('stitch') === '0';
  state.timelineBy = params.get('timeline') === 'type' ? 'type' : 'provider';
  const side = params.get('side');
  state.side = side === 'sandwich' || side === 'diff' ? side : 'top';
  return state;
}

export function writeHash(state: ViewState): string {
  const params = new URLSearchParams();
  params.set('tab', state.tab);
  for (const [field, key] of Object.entries(KEYS) as [keyof typeof KEYS, string][]) {
    if (state[field] !== '') params.set(key, state[field]);
  }
  if (state.inverted) params.set('inverted', '1');
  if (state.noStitch) params.set('stitch', '0');
  if (state.timelineBy === 'type') params.set('timeline', 'type');
  if (state.side !== 'top') params.set('side', state.side);
  return `#${params.toString()}`;
}

/**
 * The time range in order: From after To (typed by hand, or in a link) selects nothing, so the
 * two are swapped. @returns the state to use, and whether it was swapped (to tell the user).
 */
export function orderedRange(state: ViewState): { state: ViewState; swapped: boolean } {
  const from = state.fromMs.trim() === '' ? NaN : Number(state.fromMs);
  const to = state.toMs.trim() === '' ? NaN : Number(state.toMs);
  if (!(from > to)) return { state, swapped: false };
  return { state: { ...state, fromMs: state.toMs, toMs: state.fromMs }, swapped: true };
}
