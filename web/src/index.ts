// web/src — the public JS API of the npm package. It runs the engine in the calling thread
// (Node, a worker of your own, or a page that accepts the work on its main thread); the
// demo page uses the worker in engine/engine_worker.ts instead.
//
//   import { openTrace } from 'nettrace-analyzer';
//   const trace = await openTrace(await fs.openAsBlob('app.nettrace'), { onProgress });
//   console.log(trace.summary().eventCount);
//   trace.close();
import type { Progress, Summary } from './api/types.js';
import { NetTraceError } from './api/types.js';
import { toChunkSource } from './engine/chunk_source.js';
import type { TraceSource } from './engine/chunk_source.js';
import { readIntoSession, ReadCancelled, DEFAULT_CHUNK_SIZE } from './engine/read_trace.js';
import { loadNetTraceModule } from './engine/wasm_loader.js';
import type { WasmOptions } from './engine/wasm_loader.js';

export type { Progress, Summary, SummaryError } from './api/types.js';
export type { BlobLike, TraceSource } from './engine/chunk_source.js';
export type { WasmOptions } from './engine/wasm_loader.js';
export { NetTraceError, DEFAULT_CHUNK_SIZE };

export interface OpenTraceOptions extends WasmOptions {
  /** Called after every chunk with bytes read, total bytes and events decoded. */
  onProgress?: (progress: Progress) => void;
  /** Aborting stops reading between two chunks; openTrace then rejects with code "cancelled". */
  signal?: AbortSignal;
  /** Bytes per read; default 4 MiB. */
  chunkSize?: number;
}

/** A trace read to the end. Holds wasm memory until close(). */
export interface TraceHandle {
  /** The summary document (README "Summary JSON"), parsed. */
  summary(): Summary;
  /** The summary document exactly as the engine wrote it. */
  summaryJson(): string;
  /** Per-type counts in TraceEvent's baseline form ("Provider/Name, count" lines). */
  traceEventCounts(): string;
  /** Bytes read and events decoded. */
  readonly bytes: number;
  readonly events: number;
  /** Frees the engine's memory; the handle is unusable afterwards. */
  close(): void;
}

/**
 * Reads a whole trace.
 * @param source a File/Blob (read with Blob.slice() chunks; in Node, `fs.openAsBlob(path)`),
 *   an ArrayBuffer or a typed array
 * @returns a handle on the read trace
 * @throws NetTraceError with `code`, `offset` and the `partial` summary read before a fatal
 *   error; code "cancelled" when `signal` aborted
 */
export async function openTrace(source: TraceSource, options: OpenTraceOptions = {}): Promise<TraceHandle> {
  const M = await loadNetTraceModule(options);
  const session = new M.TraceSession();
  let status;
  try {
    status = await readIntoSession(M, session, toChunkSource(source), options);
  } catch (e) {
    const partial = JSON.parse(session.summaryJson()) as Summary;
    session.delete();
    if (e instanceof ReadCancelled) throw new NetTraceError('cancelled', null, e.message, partial);
    throw e;
  }
  if (!status.ok) {
    const partial = JSON.parse(session.summaryJson()) as Summary;
    session.delete();
    throw new NetTraceError(status.code, status.offset, status.message, partial);
  }
  const summaryJson = session.summaryJson();
  const bytes = session.bytesConsumed();
  const events = session.eventCount();
  let closed = false;
  const live = (): typeof session => {
    if (closed) throw new NetTraceError('closed', null, 'the trace handle was closed');
    return session;
  };
  return {
    summary: () => JSON.parse(summaryJson) as Summary,
    summaryJson: () => summaryJson,
    traceEventCounts: () => live().traceEventCounts(),
    bytes,
    events,
    close: () => {
      if (!closed) session.delete();
      closed = true;
    },
  };
}
