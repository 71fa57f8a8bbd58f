// web/src/api — the types of the public JS API (browser, worker and Node alike).
// What a read gives — the summary document (README "Summary JSON"), Progress and NetTraceError —
// is defined by the reading layer (web/src/reader, which imports nothing from here) and
// re-exported here.
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

/**
 * One decoded payload field (core/format/payload_decoder.h). `value` is the number, string or
 * structure as decoded; `display` is present only for fields TraceEvent shows by name (CLR
 * enums and flags: Reason 0 → "AllocSmall", ModuleFlags 10 → "Native, Manifest"), rendered as
 * .NET's Enum.ToString() does, "0" or the number when no member matches.
 */
export interface PayloadField {
  name: string;
  value: unknown;
  display?: string;
}

/** An event's decoded payload (`event.payload` when `detail` is true). */
export interface EventPayload {
  /** "metadata" (the trace's own field descriptions), "clr" (the CLR manifest table) or "none". */
  schema: string;
  /** The CLR template used, e.g. "GCStart_V2". */
  template?: string;
  fields: PayloadField[];
  [key: string]: unknown;
}

/**
 * One event as the engine describes it (the native `nettrace events` line). `detail` is true
 * when its block could be re-read: processor, sequence number and payload fields are then set.
 */
export interface TraceEvent {
  index: number;
  timestamp: number;
  timeMs: number;
  provider: string;
  name: string;
  threadId: number;
  detail: boolean;
  [field: string]: unknown;
}

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
 * A flame graph laid out by the engine (core/analysis/flame_graph.h), struct of arrays: one
 * entry per node in depth-first order; x runs in weight units from 0 to `total`. Entry 0 is
 * the root. Weights are exact below 2^53.
 */
export interface FlameGraphData {
  /** "samples", "bytes" or "nanoseconds". */
  unit: string;
  total: number;
  /** Frame names; `frame[i]` indexes this list. */
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
  /**
   * "traceevent-thread-time" only: whether async stitching was applied ("on"), turned off
   * ("off"), or cannot be ("unavailable", with the reason).
   */
  asyncStitching?: { state: 'on' | 'off' | 'unavailable'; reason?: string };
}

/**
 * The sandwich of one function (core/analysis/top_functions.h): two flame graphs whose root is
 * the function. `callers` grows outward (children of a node are its callers), `callees` inward
 * (children are what it calls). Both roots span the function's inclusive weight; a function
 * not in the selection gives two graphs of one root node and total 0.
 */
export interface Sandwich {
  function: string;
  callers: FlameGraphData;
  callees: FlameGraphData;
}

/** The heaviest functions by exclusive weight. */
export interface TopFunctions {
  unit: string;
  total: number;
  functions: { name: string; inclusive: number; exclusive: number; inclusiveCount: number; exclusiveCount: number }[];
  [field: string]: unknown;
}

/** One side of a stack diff: its weight unit and total weight. */
export interface StackDiffSide {
  unit: string;
  total: number;
}

/** A function (frame name) in a stack diff, with its weights on both sides (A = baseline, B = comparison). */
export interface StackDiffFunction {
  name: string;
  inclusiveA: number;
  inclusiveB: number;
  exclusiveA: number;
  exclusiveB: number;
  /** Share of B's total minus share of A's total (fractions, 9 decimals). */
  inclusiveDelta: number;
  exclusiveDelta: number;
}

/**
 * The A/B diff of two stack views (core/analysis/stack_diff.h): per-function changes, by
 * |exclusiveDelta| then |inclusiveDelta|, and the merged call tree (depth-first, children by
 * name) laid out on B's weights. A node only in the baseline has start === end (zero width).
 */
export interface StackDiffResult {
  baseline: StackDiffSide;
  comparison: StackDiffSide;
  functions: StackDiffFunction[];
  tree: {
    layout: string;
    frames: string[];
    frame: number[];
    parent: number[];
    depth: number[];
    inclusiveA: number[];
    exclusiveA: number[];
    inclusiveB: number[];
    exclusiveB: number[];
    start: number[];
    end: number[];
    /** Per node: inclusive share in B minus inclusive share in A (a view colours by it). */
    delta: number[];
  };
}

/** Event counts over time buckets, for timelines. */
export interface Histogram {
  /** The bucketed range in ms from the sync time: the query's, or first to last event. */
  fromMs: number;
  toMs: number;
  bucketMs: number;
  buckets: number;
  /** Events counted. */
  total: number;
  /** Series names, sorted ("all" when not grouped). */
  series: string[];
  /** Series-major: `counts[s * buckets + b]` is series s in bucket b. */
  counts: Float64Array;
}

// GC and JIT statistics (issue 14; README "gc" and "jit"): TraceEvent's TraceGC / GCStats and
// TraceJittedMethod / JITStats as the engine computes them. Times are ms from the trace's
// sync time, as TraceEvent's TimeStampRelativeMSec.

/** Sizes after a GC by generation (HeapStats GenerationSize0..4), bytes. */
export interface GcGenerationSizes {
  gen0: number;
  gen1: number;
  gen2: number;
  loh: number;
  poh: number;
}

/** One GC as TraceEvent's TraceGC. Size fields are null without a GC/HeapStats event. */
export interface GcRecord {
  number: number;
  generation: number;
  /** GCType: "NonConcurrentGC", "BackgroundGC", "ForegroundGC". */
  type: string;
  /** GCReason by name ("AllocSmall", "Induced", …). */
  reason: string;
  isInduced: boolean;
  isComplete: boolean;
  startMs: number;
  durationMs: number;
  /** The pause runs from the GC's SuspendEEStart to the suspending thread's RestartEEStop. */
  pauseStartMs: number;
  pauseMs: number;
  suspendMs: number;
  heapSizeBeforeMB: number | null;
  /** Allocated since the previous GC (per-heap histories, else allocation ticks), MB; null when TraceEvent's is NaN/Infinity. */
  allocedSinceLastGCMB: number | null;
  allocRateMBSec: number | null;
  /** This GC's pause over the time since the previous GC ended, %. */
  pauseTimePercentageSinceLastGC: number | null;
  heapSizeAfterBytes: number | null;
  promotedBytes: number | null;
  genSizeAfterBytes: GcGenerationSizes | null;
  pinnedObjectCount: number | null;
}

/** GCStats over the complete GCs (all, or one generation's). */
export interface GcTotals {
  count: number;
  induced: number;
  totalPauseMs: number;
  maxPauseMs: number;
  meanPauseMs: number;
  maxSuspendMs: number;
  totalAllocatedMB: number | null;
  maxAllocRateMBSec: number | null;
}

export interface GcProcessStats {
  processId: number;
  /** `processDurationMs`: the first complete GC's pause start to the last GC/HeapStats; `pausedPercent`: total pause over it. */
  totals: GcTotals & { processDurationMs: number; pausedPercent: number };
  generations: Array<GcTotals & { generation: number }>;
  gcs: GcRecord[];
}

export interface GcStats {
  processes: GcProcessStats[];
  /** GC events beyond the engine's bound, not replayed (absent when none). */
  eventsNotMeasured?: number;
}

/** One jitted method as TraceEvent's TraceJittedMethod. */
export interface JitMethod {
  /** "Namespace.Name(parameters)", as TraceEvent names it ("" for a Method/Load without a start). */
  name: string;
  /** The module's IL path (ModuleILPath). */
  module: string;
  threadId: number;
  startMs: number;
  jitTimeMs: number;
  ilSize: number;
  nativeSize: number;
  /** OptimizationTier by name ("QuickJitted", "OptimizedTier1", …, "Unknown"). */
  tier: string;
  r2r: boolean;
  /** CompilationThreadKind: "Foreground" or "TieredCompilationBackground". */
  thread: string;
  versionId: number;
  /** A Method/Load(Verbose) ended it (else it started and never finished in the trace). */
  completed: boolean;
}

/** JITStats over the completed methods. */
export interface JitTotals {
  count: number;
  totalJitTimeMs: number;
  countForeground: number;
  foregroundJitTimeMs: number;
  countBackgroundTieredCompilation: number;
  backgroundTieredCompilationJitTimeMs: number;
  /** Methods compiled on the multicore-JIT (ProfileOptimization) background thread. */
  countBackgroundMultiCoreJit: number;
  backgroundMultiCoreJitTimeMs: number;
  totalILSize: number;
  totalNativeSize: number;
}

export interface JitProcessStats {
  processId: number;
  totals: JitTotals;
  methods: JitMethod[];
}

export interface JitStats {
  processes: JitProcessStats[];
}
