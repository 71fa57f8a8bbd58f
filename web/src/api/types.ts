// web/src/api — the types of the public JS API (browser, worker and Node alike).
// What a read gives — the summary document (docs/summary-json.md), Progress and NetTraceError —
// is named by the reading layer (web/src/reader, which imports nothing from here but the
// generated result types, a file that imports nothing) and re-exported here.
export type * from '../reader/summary.js';
export type { Progress } from '../reader/errors.js';
export { NetTraceError } from '../reader/errors.js';
import type { EventsRequest, HistogramRequest } from './generated/requests.js';

/**
 * Which events: provider, name, thread, time range, free text (ASCII case-insensitive, in the
 * provider, name, thread, labels or any decoded payload field; payloads are re-read in bounded
 * steps, so pass `signal` / `onProgress` (EventsOptions) for a multi-GB trace; the match list of
 * the last distinct query is kept, so paging through it is fast), and the page (offset, limit).
 * Generated from the engine's query table (api/generated/requests.ts), the same options as the
 * CLI's `events` flags.
 */
export type EventQuery = EventsRequest;

// The JSON documents the engine returns are typed by the engine's result tables
// (core/api/result_table*.cc → api/generated/results.ts, checked against every committed
// trace's output by tests/node/result_schema.test.mjs); the types here that hold typed arrays
// are those documents with their arrays as the API hands them out.
export type {
  AsyncStitching,
  EventLabels,
  EventPayload,
  GcGenerationSizes,
  GcGenerationTotals,
  GcProcessStats,
  GcProcessTotals,
  GcRecord,
  GcStats,
  JitMethod,
  JitProcessStats,
  JitStats,
  JitTotals,
  PayloadField,
  QueryResults,
  StackDiffFunction,
  StackDiffResult,
  StackDiffSide,
  StackDiffTree,
  TopFunction,
  TopFunctions,
  TraceEvent,
} from './generated/results.js';
import type {
  FlameGraphJson,
  GcGenerationTotals,
  HistogramJson,
  SandwichJson,
  TraceEvent,
} from './generated/results.js';

/** A page of events: the total number of matches and the page's events, in time order. */
export interface EventPage {
  total: number;
  /** Store row of each event of the page (the `index` that eventDetail() takes). */
  rows: Uint32Array;
  events: TraceEvent[];
  /** Each event's JSON text exactly as the engine wrote it (as `nettrace events` prints it). */
  json: string[];
}

/** Progress of a text search (EventQuery.text): rows of the query's time range examined so far. */
export interface SearchProgress {
  /** Rows examined so far, of `total` (the rows in the query's time range). */
  scanned: number;
  total: number;
  /** Matches found so far. */
  matches: number;
}

/** Options of events(): only a text search (EventQuery.text) takes long enough to need them. */
export interface EventsOptions {
  /** Aborting stops a text search between two steps; events() then rejects with code "cancelled". */
  signal?: AbortSignal;
  /** Called after each step of a text search (every ≤ 32768 rows or 32 re-read blocks). */
  onProgress?: (progress: SearchProgress) => void;
}

/** A histogram request: the event filter, bucket count (1–100000) and grouping (api/generated/requests.ts). */
export type HistogramQuery = HistogramRequest;

/**
 * A flame graph laid out by the engine (core/analysis/stacks/flame_graph.h): the `flame` document
 * (FlameGraphJson: unit, total, asyncStitching) with its per-node arrays as typed arrays, one
 * entry per node in depth-first order; x runs in weight units from 0 to `total`. Entry 0 is
 * the root. Weights are exact below 2^53.
 */
export interface FlameGraphData extends Omit<FlameGraphJson, 'frames' | 'frame' | 'parent' | 'depth' | 'start' | 'end' | 'self' | 'count'> {
  /** Frame names; `frame[i]` indexes this list (the document's `frames`). */
  frameNames: string[];
  frame: Uint32Array;
  /** Parent node (the root is its own parent, 0). */
  parent: Uint32Array;
  depth: Uint32Array;
  /** x range [start, end) of the node, weight units. */
  start: Float64Array;
  end: Float64Array;
  /** Exclusive weight. */
  self: Float64Array;
  /** Events through the node. */
  count: Float64Array;
}

/**
 * The sandwich of one function (core/analysis/stacks/top_functions.h; the `sandwich` document,
 * SandwichJson): two flame graphs whose root is the function. `callers` grows outward (children
 * of a node are its callers), `callees` inward (children are what it calls). Both roots span the
 * function's inclusive weight; a function not in the selection gives two graphs of one root node
 * and total 0.
 */
export interface Sandwich extends Omit<SandwichJson, 'callers' | 'callees'> {
  callers: FlameGraphData;
  callees: FlameGraphData;
}

/** Event counts over time buckets, for timelines: the `histogram` document (HistogramJson) with its counts as a typed array. */
export interface Histogram extends Omit<HistogramJson, 'counts'> {
  /** Series-major: `counts[s * buckets + b]` is series s in bucket b. */
  counts: Float64Array;
}

/** GCStats over the complete GCs (all, or one generation's): the fields GcProcessTotals and GcGenerationTotals share. */
export type GcTotals = Omit<GcGenerationTotals, 'generation'>;
