// web/src — the public JS API of the npm package, the same in browsers and Node:
//
//   import { openTrace } from 'nettrace-analyzer';
//   const trace = await openTrace(fileOrBlobOrBytesOrUrlOrPath, { onProgress, signal });
//   trace.summary().eventCount;
//   const page = await trace.events({ provider: 'Microsoft-Windows-DotNETRuntime', limit: 50 });
//   const timeline = await trace.histogram({ buckets: 200, groupBy: 'provider' });
//   trace.close();
//
// On a page's main thread the engine runs in a module worker (engine/engine_worker.js), so
// reading never blocks the page; in Node, in workers, and with { worker: false } it runs in
// the calling thread.
import type { OpenTraceOptions, TraceHandle } from './api/handle.js';
import { openTraceInThread } from './api/trace.js';
import type { TraceSource } from './reader/chunk_source.js';
import { DEFAULT_CHUNK_SIZE, PUSH_SIZE } from './reader/read_trace.js';
import { DEFAULT_READ_AHEAD } from './reader/read_ahead.js';
import type { WasmOptions } from './reader/wasm_loader.js';
import { PREWARM_HEAP_BYTES, compareRunsInWorker, diffTracesInWorker, openTraceInWorker, prewarmEngine } from './engine/worker_client.js';
import type { WorkerOptions } from './engine/worker_client.js';

export type { ExportFormat, ExportOptions, OpenTraceOptions, StackQuery, TraceHandle } from './api/handle.js';
export type { ExportDestination, ExportToOptions, NodeWritableLike } from './api/export_sink.js';
// Every JSON result type, generated from the engine's result tables (core/api/result_table*.cc).
export type * from './api/generated/results.js';
export type {
  ActivitiesView,
  AllocationsView,
  ContentionView,
  CounterSample,
  CountersView,
  EventViewName,
  ExceptionsView,
  MethodCount,
  ThreadPoolPoint,
  ThreadPoolView,
  WaitAggregate,
  WaitSummary,
} from './api/event_views.js';
export type {
  EventPage,
  EventQuery,
  EventsOptions,
  FlameGraphData,
  Histogram,
  HistogramQuery,
  GcGeneration,
  NamedCount,
  EventPayload,
  PayloadField,
  Progress,
  RuntimeSignals,
  Sandwich,
  SearchProgress,
  Summary,
  SummaryEventType,
  SummaryError,
  StackDiffFunction,
  StackDiffResult,
  StackDiffSide,
  TopFunctions,
  TraceEvent,
} from './api/types.js';
export type { BlobLike, ByteStream, TraceSource } from './reader/chunk_source.js';
export type { WasmOptions } from './reader/wasm_loader.js';
export type { RawHeapStats as HeapStats } from './nettrace_wasm.mjs';
export { engineHeapStats } from './reader/wasm_loader.js';
export type { PrewarmOptions, WorkerOptions } from './engine/worker_client.js';
export { NetTraceError } from './api/types.js';
export type { QueryName, QueryOptions, RuntimeStatsKind } from './api/handle.js';
export type { DatasetTables } from './api/dataset_tables.js';
export type {
  GcGenerationSizes,
  GcProcessStats,
  GcRecord,
  GcStats,
  GcTotals,
  JitMethod,
  JitProcessStats,
  JitStats,
  JitTotals,
} from './api/types.js';
export { convertTrace } from './api/convert.js';
export { diffStacks, diffStacksFolded, diffStacksJson } from './api/diff.js';
export type { DiffOptions } from './api/diff.js';
export { checkBudgets, checkBudgetsText, compareRuns, compareRunsText } from './api/verdict.js';
export type { CheckFormat, CheckOptions, CheckOutcome, RunDiffOptions } from './api/verdict.js';
export type { ConvertOptions, ConvertResult } from './api/convert.js';
export { openHeap } from './api/heap.js';
export type { HeapFormat, HeapHandle, HeapMemory, HeapProgress, OpenHeapOptions } from './api/heap.js';
export { DEFAULT_CHUNK_SIZE, DEFAULT_READ_AHEAD, PREWARM_HEAP_BYTES, PUSH_SIZE, compareRunsInWorker, diffTracesInWorker, openTraceInThread, openTraceInWorker, prewarmEngine };

export interface OpenOptions extends OpenTraceOptions, WasmOptions, WorkerOptions {
  /**
   * Run the engine in a module worker. Default: true on a page's main thread (when `Worker`
   * and `document` exist) for File/Blob, bytes and URL sources; false elsewhere.
   */
  worker?: boolean;
}

/**
 * Reads a whole trace.
 * @param source a File/Blob (read with Blob.stream(), or Blob.slice() chunks: OpenTraceOptions.fileRead), an ArrayBuffer or typed array, a URL
 *   (streamed with fetch()), a ReadableStream or async iterable of bytes, or, in Node, a file path
 * @returns a handle on the read trace; call close() when done
 * @throws NetTraceError with `code`, `offset` and the `partial` summary read before a fatal
 *   error; code "cancelled" when `signal` aborted; code "source" when the source failed
 */
export async function openTrace(source: TraceSource, options: OpenOptions = {}): Promise<TraceHandle> {
  const g = globalThis as { Worker?: unknown; document?: unknown; Blob?: typeof Blob };
  const workerable =
    source instanceof ArrayBuffer ||
    ArrayBuffer.isView(source) ||
    source instanceof URL ||
    typeof source === 'string' ||
    (g.Blob !== undefined && source instanceof g.Blob);
  const inWorker = options.worker ?? (typeof g.Worker === 'function' && g.document !== undefined && workerable);
  if (inWorker && workerable) return openTraceInWorker(source as Blob | ArrayBuffer | ArrayBufferView | URL | string, options);
  return openTraceInThread(source, options);
}
