// web/src/engine — the messages between a page and the engine worker. Every request carries
// an id; the worker answers each request with exactly one 'result' or 'error', and may send
// 'progress' messages with the same id before that. Bulk results (event rows, histogram
// counts) travel in transfer lists, never copied by structured clone.
import type { DiffOptions } from '../api/diff.js';
import type { RunDiffOptions } from '../api/verdict.js';
import type { ExportFormat, ExportOptions, QueryName, QueryOptions, TextExportFormat, StackQuery } from '../api/handle.js';
import type { EventQuery, HistogramQuery } from '../api/types.js';
import type { Progress } from '../reader/errors.js';

export type RequestId = number;

/** Read a trace in the worker: a File/Blob (Blob.stream() or Blob.slice() chunks), bytes (transferred) or a URL. */
export interface OpenRequest {
  id: RequestId;
  kind: 'open';
  source: Blob | ArrayBuffer | string;
  /** Bytes per read; default 4 MiB. */
  chunkSize?: number;
  /** How a File/Blob is read (api/handle.ts OpenTraceOptions.fileRead). */
  fileRead?: 'stream' | 'slices';
  /** Chunk reads of a File/Blob issued ahead (api/handle.ts OpenTraceOptions.readAhead). */
  readAhead?: number;
  keepStreamedBytes?: boolean;
  /** Answer a damaged or cancelled read with what was read before (api/handle.ts keepPartial). */
  keepPartial?: boolean;
  /**
   * A live source (a session still recording, e.g. `nettrace-analyzer live`'s HTTP stream):
   * every `live` ms while reading, the worker snapshots what was read so far and answers a
   * 'live' message; queries naming this open's id then answer over that snapshot at once,
   * before the read ends (they do not wait behind it).
   */
  live?: number;
}
/**
 * Stop the 'open' request `target` between two chunks, or the text search of the 'events'
 * request `target` between two steps. It then fails with code "cancelled".
 */
export interface CancelRequest {
  id: RequestId;
  kind: 'cancel';
  target: RequestId;
}
/** A question about the trace opened by the 'open' request `trace`. */
export type QueryRequest = { id: RequestId; trace: RequestId } & (
  /** Any query the engine answers by name (api/model_query.ts): its text. */
  | { kind: 'query'; name: QueryName; request: QueryOptions<QueryName>; args: string[] }
  | { kind: 'events'; query: EventQuery }
  | { kind: 'eventDetail'; index: number }
  | { kind: 'eventStack'; index: number }
  | { kind: 'histogram'; query: HistogramQuery }
  | { kind: 'flameGraph'; query: StackQuery }
  | { kind: 'topFunctions'; query: StackQuery; count: number }
  | { kind: 'sandwich'; query: StackQuery; functionName: string }
  | { kind: 'export'; format: ExportFormat; options: ExportOptions }
  /** An export a part at a time: this request's id names it in 'exportNext' / 'exportCancel'. */
  | { kind: 'exportOpen'; format: TextExportFormat; options: ExportOptions }
  /** The next part of export `stream`: {bytes} (transferred), bytes null at the end. */
  | { kind: 'exportNext'; stream: RequestId }
  | { kind: 'exportCancel'; stream: RequestId }
  /** The dataset tables as Parquet bytes (api/dataset_tables.ts), transferred. */
  | { kind: 'datasetTables'; fileName: string }
);
/** Drop the trace opened by 'open' request `trace`, and its memory. */
export interface CloseRequest {
  id: RequestId;
  kind: 'close';
  trace: RequestId;
}

/**
 * The A/B stack diff of two sources (api/diff.ts), both read in the worker, diffed, and freed:
 * answers the engine's JSON document.
 */
export interface DiffRequest {
  id: RequestId;
  kind: 'diff';
  baseline: Blob | string;
  comparison: Blob | string;
  options: DiffOptions;
}

/**
 * Many runs a side compared (api/verdict.ts compareRunsText): each source read in the worker in
 * turn, measured and freed; answers the engine's JSON document (`nettrace diff --baseline …
 * --compare … --format json`).
 */
export interface RunDiffRequest {
  id: RequestId;
  kind: 'runDiff';
  baseline: (Blob | string)[];
  comparison: (Blob | string)[];
  options: Omit<RunDiffOptions, 'signal'>;
}

export type EngineRequest = OpenRequest | CancelRequest | QueryRequest | CloseRequest | DiffRequest | RunDiffRequest;

export interface ProgressResponse {
  id: RequestId;
  kind: 'progress';
  bytes: number;
  total: number;
  events: number;
  phase: Progress['phase'];
}
/** Progress of the text search of an 'events' request (api/types.ts SearchProgress). */
export interface SearchProgressResponse {
  id: RequestId;
  kind: 'searchProgress';
  scanned: number;
  total: number;
  matches: number;
}
/** What 'open' answers. */
export interface OpenResult {
  summaryJson: string;
  bytes: number;
  eventCount: number;
  /** Why reading stopped early (keepPartial), else null; the summary is what was read before. */
  error: { code: string; offset: number | null; message: string } | null;
}
/** Success; `value` is the result of the request (OpenResult for 'open'). */
export interface ResultResponse {
  id: RequestId;
  kind: 'result';
  value: unknown;
}
/**
 * Failure. `code` is an engine error code ("truncated", "corrupt", …), "cancelled", "source",
 * or "engine" (the worker itself failed). `summaryJson` holds what was read before the fault.
 */
export interface ErrorResponse {
  id: RequestId;
  kind: 'error';
  code: string;
  offset: number | null;
  message: string;
  summaryJson: string | null;
}

/** A live open's snapshot (OpenRequest.live): what was read so far, queryable under the open's id. */
export interface LiveResponse {
  id: RequestId;
  kind: 'live';
  summaryJson: string;
  bytes: number;
  eventCount: number;
  /** Events released by the sorter so far: the rows the event table and timeline see. */
  rows: number;
}

/**
 * Sent once, unasked (id 0), when the worker has loaded the wasm engine. `module`: the engine
 * this worker compiled (null when the page gave it one, or in Node), for the page to hand on.
 */
export interface ReadyResponse {
  id: 0;
  kind: 'ready';
  module?: WebAssembly.Module | null;
  /** The engine's wasm memory in bytes once ready (after EngineInit.readyHeapBytes). */
  heapBytes?: number;
}

/**
 * The page's first message to a new worker (worker_client.ts startWorker): the engine an
 * earlier worker compiled, or null. A WebAssembly.Module posted to a worker shares its compiled
 * code, so the worker neither fetches nor compiles the engine, and runs the code the browser
 * already optimized for earlier traces instead of starting again from its baseline compiler.
 */
export interface EngineInit {
  id: 0;
  kind: 'engine';
  module: WebAssembly.Module | null;
  /** Bytes of the engine's heap to write once before 'ready' (reader/heap_ready.ts): a
   *  prewarmed worker's (prewarmEngine), 0 for a worker an open starts, which would only wait
   *  for them. */
  readyHeapBytes?: number;
}

export type EngineResponse = ProgressResponse | SearchProgressResponse | ResultResponse | ErrorResponse | ReadyResponse | LiveResponse;
