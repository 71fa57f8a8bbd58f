// web/src/engine — the messages between the page and the engine worker. Every request
// carries an id; the worker answers each request with exactly one 'result' or 'error',
// and may send 'progress' messages with the same id before that. Chunk bytes travel in
// transfer lists, never copied by structured clone.

export type RequestId = number;

/** Read a whole File/Blob in the worker, with Blob.slice() chunks (the usual path). */
export interface OpenRequest {
  id: RequestId;
  kind: 'open';
  file: Blob;
  /** Bytes per Blob.slice() read; default 4 MiB. */
  chunkSize?: number;
}
/** Start a session fed by 'chunk' requests (for sources the page streams itself). */
export interface BeginRequest {
  id: RequestId;
  kind: 'begin';
  /** Total size when known, for progress. */
  total?: number;
}
/** Next bytes of the session started by 'begin'. Transfer `data`. */
export interface ChunkRequest {
  id: RequestId;
  kind: 'chunk';
  data: ArrayBuffer;
}
/** End of input for the session started by 'begin'. */
export interface FinishRequest {
  id: RequestId;
  kind: 'finish';
}
/** Stop the 'open' request `target` between two chunks. It then fails with code "cancelled". */
export interface CancelRequest {
  id: RequestId;
  kind: 'cancel';
  target: RequestId;
}
/** Drop the current session and its memory. */
export interface CloseRequest {
  id: RequestId;
  kind: 'close';
}

export type EngineRequest =
  | OpenRequest
  | BeginRequest
  | ChunkRequest
  | FinishRequest
  | CancelRequest
  | CloseRequest;

export interface ProgressResponse {
  id: RequestId;
  kind: 'progress';
  bytes: number;
  total: number;
  events: number;
}
/** Success. `summaryJson` is set for 'open' and 'finish'. */
export interface ResultResponse {
  id: RequestId;
  kind: 'result';
  bytes: number;
  events: number;
  summaryJson?: string;
}
/**
 * Failure. `code` is an engine error code ("truncated", "corrupt", …), "cancelled", or
 * "engine" (the worker itself failed). `summaryJson` holds what was read before the fault.
 */
export interface ErrorResponse {
  id: RequestId;
  kind: 'error';
  code: string;
  offset: number | null;
  message: string;
  summaryJson: string | null;
}

export type EngineResponse = ProgressResponse | ResultResponse | ErrorResponse;
