// web/src/analyzer — what every view controller shares: the one typed state of an analyzer
// instance (the view state a link reproduces, and the trace shown), its layout, and the
// coordinator's entry points a controller may call (tab, time range, events, failures).
import type { TraceHandle } from '../api/handle.js';
import type { Summary } from '../api/types.js';
import { defaultState, orderedRange, parseHash, serialiseHash } from '../app/state.js';
import type { Tab, ViewState } from '../app/state.js';
import type { Layout } from './layout.js';

// ---- what the analyzer tells its host (CustomEvent details; re-exported by analyzer.ts) ----

/** `detail` of the `selection` event. */
export type AnalyzerSelection =
  | { kind: 'range'; fromMs: number | null; toMs: number | null }
  | { kind: 'event'; index: number; provider: string; name: string; timeMs: number }
  | { kind: 'frame'; name: string };

/** `detail` of the `load` event. */
export interface AnalyzerLoad {
  name: string;
  summary: Summary;
}

/** `detail` of the `error` event: the reason reading stopped, with what was read before (a
 *  damaged or cancelled read that read events also leaves `trace` open over them). */
export interface AnalyzerError {
  name: string;
  code: string;
  offset: number | null;
  message: string;
  partial: Summary | null;
}

/** The state of one analyzer: its view (in the URL hash when synced) and the trace shown. */
export class AnalyzerState {
  view: ViewState;
  /** The trace shown; closed (its worker ended) when another one is opened. */
  trace: TraceHandle | null = null;
  /** Its summary (the partial one of a damaged read), set once a read gave one. */
  summary: Summary | null = null;
  name = '';

  constructor(private readonly syncHash: boolean) {
    this.view = defaultState();
  }

  /** Takes the view state of the page's URL hash (its range in order).
   *  @returns the `key=value` of each value that was not valid and fell back to its default */
  readHash(): string[] {
    const { state, rejected } = parseHash(location.hash);
    this.view = orderedRange(state).state;
    return rejected;
  }

  /** Changes some fields of the view state (a new object: controllers compare by value). */
  set(patch: Partial<ViewState>): void {
    this.view = { ...this.view, ...patch };
  }

  /** Writes the view state into the page's URL hash (when the analyzer keeps it there). */
  save(): void {
    if (this.syncHash) history.replaceState(null, '', serialiseHash(this.view));
  }
}

/** The event table's filters a view may set (the time range aside). */
export type EventFilters = Partial<Pick<ViewState, 'provider' | 'event' | 'thread' | 'text'>>;

/** The coordinator's entry points (analyzer.ts), for the controllers. */
export interface Coordinator {
  showTab(tab: Tab, focus?: boolean): void;
  /** The time range changed (brush, chip, GC row, the event filter's inputs): every view follows. */
  rangeChanged(): void;
  /** A time range picked in a view (a GC's row, a pause or an activity in the lanes): every
   *  view is narrowed to it, and the event table shows it. `filters`: the event table's
   *  filters become these (the others cleared), for a range that means its own events (a GC's
   *  row: all of that GC's events, not those an earlier filter left); without, they stay. */
  selectRange(fromMs: number, toMs: number, filters?: EventFilters): void;
  /** The event table with these filters (the others cleared). */
  showEventsWith(filters: EventFilters): void;
  /** A function picked (flame graph frame, top functions row): its sandwich. */
  pickFunction(name: string, openSandwich: boolean): void;
  /** The filters of the event table changed: the timeline by event type follows. */
  filtersChanged(): void;
  emit<T>(type: string, detail: T): void;
  /** Shows a failure in the status line (a request of a trace closed since is none). */
  reportUnexpected(e: unknown): void;
}

export interface ControllerContext {
  state: AnalyzerState;
  layout: Layout;
  app: Coordinator;
}

/** Whether two plain values (queries, filters) are equal: what a view last computed is redone
 *  only when its query changes. */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && sameValue((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

/** The last value a view was computed for; `changed` says whether `value` differs and keeps it. */
export class LastQuery<T> {
  private last: T | undefined = undefined;
  changed(value: T): boolean {
    if (this.last !== undefined && sameValue(this.last, value)) return false;
    this.last = value;
    return true;
  }
  is(value: T): boolean {
    return this.last !== undefined && sameValue(this.last, value);
  }
  forget(): void {
    this.last = undefined;
  }
}
