// web/src/api — the A/B stack diff of two opened traces, or of two time ranges of
// one: the engine's merged call tree and function table (core/analysis/stacks/stack_diff.h).
//
// Both handles must run their engine in this thread (Node, `{ worker: false }`, or inside a
// worker of your own), and in the same engine instance (the shared one unless `wasmBinary` /
// `wasmUrl` gave one its own): the diff reads both sessions at once. Handles opened through
// the engine worker (a page's default) live in another thread and are refused with code
// "invalid-argument": there, diffTracesInWorker (engine/worker_client.ts) reads both sources
// in a worker of their own and diffs them.
import type { NetTraceModule, RawTraceSession } from '../nettrace_wasm.mjs';
import type { StackQuery, TraceHandle } from './handle.js';
import { inThreadEngine } from './trace.js';
import type { StackDiffResult } from './types.js';
import { NetTraceError } from './types.js';

export interface DiffOptions {
  /** Selection of both sides (event, weight, thread, range, grouping; `inverted` is ignored: paths are root first). */
  query?: StackQuery;
  /** Overrides of `query` for the baseline (A), e.g. `{ fromMs, toMs }` for a range of it. */
  baseline?: StackQuery;
  /** Overrides of `query` for the comparison (B). */
  comparison?: StackQuery;
  /** How many functions the table keeps, biggest change first; default all. */
  maxFunctions?: number;
}

function engines(baseline: TraceHandle, comparison: TraceHandle): { M: NetTraceModule; a: RawTraceSession; b: RawTraceSession } {
  const a = inThreadEngine(baseline);
  const b = inThreadEngine(comparison);
  if (a === null || b === null) {
    throw new NetTraceError('invalid-argument', null, 'diffStacks needs traces opened in this thread ({ worker: false })');
  }
  if (a.M !== b.M) throw new NetTraceError('invalid-argument', null, 'diffStacks needs both traces in the same engine instance');
  return { M: a.M, a: a.session, b: b.session };
}

function sideQueries(options: DiffOptions): [StackQuery, StackQuery] {
  return [
    { ...options.query, ...options.baseline },
    { ...options.query, ...options.comparison },
  ];
}

/** The diff document exactly as the engine (and `nettrace diff`) writes it. */
export async function diffStacksJson(baseline: TraceHandle, comparison: TraceHandle, options: DiffOptions = {}): Promise<string> {
  const { M, a, b } = engines(baseline, comparison);
  const [qa, qb] = sideQueries(options);
  return M.stackDiffJson(a, qa, b, qb, options.maxFunctions ?? -1);
}

/** The A/B stack diff, parsed: totals of both sides, the function table, the merged tree. */
export async function diffStacks(baseline: TraceHandle, comparison: TraceHandle, options: DiffOptions = {}): Promise<StackDiffResult> {
  return JSON.parse(await diffStacksJson(baseline, comparison, options)) as StackDiffResult;
}

/** The diff as "a;b;c weightA weightB" lines (Brendan Gregg's difffolded.pl format), sorted. */
export async function diffStacksFolded(baseline: TraceHandle, comparison: TraceHandle, options: DiffOptions = {}): Promise<string> {
  const { M, a, b } = engines(baseline, comparison);
  const [qa, qb] = sideQueries(options);
  return M.stackDiffFolded(a, qa, b, qb);
}
