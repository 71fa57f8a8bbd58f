// web/src/engine — a File whose stream() is read by a file reader worker (file_reader_worker.ts)
// instead of the engine's thread: the engine worker opens big Files through it
// (engine_worker.ts), so that reading the File overlaps parsing it. The reading side stays
// the one of any streamed Blob (reader/stream_chunks.ts: sizes checked, errors at offsets,
// cancel); re-reads for details are the File's own slice().
//
//   reader worker ──piece (transferred)──▶ queue here ──pull──▶ engine
//                 ◀──────────ack (bytes)────────────────┘
//
// Memory is bounded by the window: the reader hands over at most READ_WINDOW bytes the engine
// has not taken, plus the piece it is reading. Where a worker cannot start (no nested workers,
// a bundler that did not emit the script, a Content-Security-Policy), the stream falls back to
// reading the File on this thread as before, provided no byte had come from the worker yet.
import type { BlobLike } from '../reader/chunk_source.js';
import type { StreamableBlob } from '../reader/stream_chunks.js';
import type { FromReader, ToReader } from './file_reader_protocol.js';

/**
 * Files at least this big are read by a reader worker. Measured in Chromium on 2 cores
 * (tests/bench/read_bench.mjs, open-reader against open-stream): the open took 0.76× the time
 * of the stream read on the engine's thread at 1.1 GB, 0.80× at 203 MiB, 0.97× at 43 MiB and
 * 1.02-1.07× at 28 MiB: on a small File the worker's start and a third busy thread cost what
 * the overlap saves.
 */
export const OFF_THREAD_MIN_BYTES = 32 * 1024 * 1024;
/** Bytes the reader may hand over ahead of the engine (the pieces queued here). */
export const READ_WINDOW = 16 * 1024 * 1024;

/** What happened to the streams of one offThreadBlob (tests and benchmarks look). */
export interface OffThreadStats {
  /** Reader workers started. */
  workers: number;
  /** Streams read on this thread because no worker could start or it failed before its first piece. */
  fallbacks: number;
  /** The most bytes queued here, handed over by the reader and not yet taken by the engine. */
  maxQueuedBytes: number;
  /** The largest piece the reader handed over. */
  largestPiece: number;
  /** Reader workers terminated (at the end, on an error or a cancel). */
  terminated: number;
}

export interface OffThreadOptions {
  /** Starts the reader worker; default: file_reader_worker.js beside this module. */
  startWorker?: () => Worker;
  /** Default READ_WINDOW. */
  window?: number;
}

function defaultWorker(): Worker {
  // The literal `new URL(..., import.meta.url)` form is what bundlers recognise as a worker.
  return new Worker(new URL('./file_reader_worker.js', import.meta.url), { type: 'module' });
}

/** `blob` with a stream() read by a reader worker; `stats` counts what its streams did. */
export function offThreadBlob(blob: Blob, options: OffThreadOptions = {}): StreamableBlob & BlobLike & { stats: OffThreadStats } {
  const stats: OffThreadStats = { workers: 0, fallbacks: 0, maxQueuedBytes: 0, largestPiece: 0, terminated: 0 };
  return {
    size: blob.size,
    slice: (start, end) => blob.slice(start, end),
    stream: () => readerStream(blob, options.startWorker ?? defaultWorker, options.window ?? READ_WINDOW, stats),
    stats,
  };
}

function readerStream(blob: Blob, startWorker: () => Worker, window: number, stats: OffThreadStats): ReadableStream<Uint8Array> {
  const queue: Uint8Array[] = [];
  let queued = 0;
  let ended = false;
  let failure: Error | null = null;
  let received = false;
  let worker: Worker | null = null;
  let local: ReadableStreamDefaultReader<Uint8Array> | null = null; // the fallback
  let wake: (() => void) | null = null;
  const notify = (): void => {
    wake?.();
    wake = null;
  };
  const stop = (): void => {
    if (worker === null) return;
    worker.terminate();
    worker = null;
    stats.terminated++;
  };
  const readHere = (): void => {
    stop();
    stats.fallbacks++;
    local = blob.stream().getReader();
    notify();
  };
  const send = (message: ToReader): void => worker?.postMessage(message);

  return new ReadableStream<Uint8Array>(
    {
      start() {
        try {
          worker = startWorker();
        } catch {
          readHere();
          return;
        }
        stats.workers++;
        worker.addEventListener('message', (event: MessageEvent<FromReader>) => {
          const m = event.data;
          received = true;
          if (m.kind === 'piece') {
            queue.push(m.bytes);
            queued += m.bytes.length;
            stats.maxQueuedBytes = Math.max(stats.maxQueuedBytes, queued);
            stats.largestPiece = Math.max(stats.largestPiece, m.bytes.length);
          } else if (m.kind === 'done') ended = true;
          else failure = new Error(m.message);
          notify();
        });
        worker.addEventListener('error', (event) => {
          event.preventDefault();
          if (!received) readHere();
          else {
            failure = new Error(`the file reader worker failed: ${event.message || 'no reason given'}`);
            notify();
          }
        });
        send({ kind: 'start', blob, window });
      },
      async pull(controller) {
        for (;;) {
          if (local !== null) {
            const { done, value } = await local.read();
            if (done) controller.close();
            else controller.enqueue(value);
            return;
          }
          const piece = queue.shift();
          if (piece !== undefined) {
            queued -= piece.length;
            send({ kind: 'ack', bytes: piece.length });
            controller.enqueue(piece);
            return;
          }
          // The pieces before an end or a failure are handed over first.
          if (failure !== null || ended) {
            stop();
            if (failure !== null) controller.error(failure);
            else controller.close();
            return;
          }
          await new Promise<void>((resolve) => (wake = resolve));
        }
      },
      cancel(reason) {
        stop();
        queue.length = 0;
        return local?.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
}
