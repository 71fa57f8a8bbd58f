// web/src/reader — a File/Blob read in slices (fileRead: 'slices'; a path in Node, whose
// FileHandle reads have no stream: node_file.ts) with reads issued ahead: while the engine decodes
// one chunk (a synchronous pushChunk on this thread), the browser (or Node's fs) is already
// reading the next ones, so the slower of the two sets the pace instead of their sum.
//
//   ring of reads:  [ chunk k: being pushed ][ k+1: in flight ][ k+2: in flight ] ...
//
// With `ahead` = A, when chunk k is handed over the reads of chunks k+1 … k+A have been
// issued (Blob.slice(...).arrayBuffer(), started before the push of k begins and so before it
// returns); the read of k+A+1 is issued when the consumer asks for k+1. Memory is bounded: at
// most A + 1 chunks are referenced at once, (A + 1) × chunkSize bytes (12 MiB with the
// defaults), besides the engine's own heap buffer. A = 0 reads and pushes in turn (no overlap).
// A source that reads into given buffers (BlobLike.readInto: a path's FileHandle) gets those
// A + 1 buffers over and over: a chunk's buffer is read into again once the consumer has asked
// for the next chunk (TraceInput.chunks: a piece is valid until then).
//
// A Blob read cannot be aborted once issued: when reading stops early (a cancel, an error, a
// new drop), the reads still in flight are awaited and dropped before the generator returns,
// so no read of a stopped open outlives it (at most A chunk reads: ~15 ms for 2 × 4 MiB).
//
// The ring itself (readsInOrder) also re-reads the ranges of method names after the first pass
// (read_trace.ts provideNames), where each File re-read is mostly a round trip.
import type { BlobLike } from './blob_like.js';
import { NetTraceError } from './errors.js';

/**
 * Chunk reads in flight while a chunk is pushed. Measured with tests/bench/read_bench.mjs
 * (docs/performance.md): in Chromium 4 MiB slices read at ~220 MiB/s one after another and
 * ~400-560 MiB/s 2 ahead; on HeartRateMonitor the engine's thread waited for bytes 34 % of
 * the open with 0 ahead, 7 % with 2, 4 % with 4 (not worth 8 MiB more).
 */
export const DEFAULT_READ_AHEAD = 2;
/** More than this many reads ahead only costs memory (the read rate is the limit by then). */
export const MAX_READ_AHEAD = 8;

interface ChunkRead {
  readonly bytes: Uint8Array;
  /** The buffer read into (readInto sources), handed back once the chunk is used; else null. */
  readonly buffer: Uint8Array | null;
}

type Resolve = () => void;
let channel: { port: MessagePort; waiting: Resolve[] } | null = null;

/**
 * Resolves on a later task (a macrotask), not a microtask. A browser moves a Blob read's bytes
 * into its ArrayBuffer only when the reading thread runs tasks: measured in Chromium 156 (a
 * 64 MiB slice read during a 1 s synchronous loop was as far from done after it as before;
 * a 4 MiB one got ~60 % done, what its data pipe holds). So the read loop yields one task
 * turn after each push (≤ 1 MiB, ~25 ms of decoding) for the reads ahead to progress: ~0.05 ms
 * a turn. In Node (setImmediate) reads progress on libuv's thread pool anyway; the turn also
 * lets a cancel message in between two pushes.
 */
export function nextTask(): Promise<void> {
  const g = globalThis as { setImmediate?: (f: () => void) => void };
  if (typeof g.setImmediate === 'function') return new Promise((resolve) => g.setImmediate!(resolve));
  if (channel === null) {
    const c = new MessageChannel();
    const waiting: Resolve[] = [];
    c.port1.onmessage = () => waiting.shift()?.();
    channel = { port: c.port2, waiting };
  }
  const { port, waiting } = channel;
  return new Promise((resolve) => {
    waiting.push(resolve);
    port.postMessage(null);
  });
}

/** `ahead` as given (an option), clamped to 0 … MAX_READ_AHEAD; default DEFAULT_READ_AHEAD. */
export function readAheadDepth(ahead: number | undefined): number {
  if (ahead === undefined || !Number.isFinite(ahead)) return DEFAULT_READ_AHEAD;
  return Math.min(MAX_READ_AHEAD, Math.max(0, Math.floor(ahead)));
}

/**
 * One range of `blob`, into `target` (its length: end - start) when given, else into a fresh
 * buffer; a failed or short read is a "source" error at its offset.
 */
async function readRange(blob: BlobLike, start: number, end: number, target: Uint8Array | null): Promise<Uint8Array> {
  let bytes: Uint8Array;
  try {
    bytes = target !== null && blob.readInto
      ? target.subarray(0, await blob.readInto(target, start))
      : new Uint8Array(await blob.slice(start, end).arrayBuffer());
  } catch (e) {
    throw new NetTraceError('source', start, `cannot read bytes ${start}-${end}: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (bytes.length !== end - start) throw new NetTraceError('source', start, 'short read');
  return bytes;
}

/**
 * The answers of `count` reads, `read(0)` … `read(count - 1)`, in that order, each issued up to
 * `ahead` reads before its answer is handed over: when answer k is handed over, reads k+1 …
 * k+ahead have been issued, and read k+ahead+1 is issued when the consumer asks for answer
 * k+1 (so the consumer is done with answer k by then). A read that fails throws when its
 * turn comes. When the consumer stops early (a cancel, an error), the reads still in flight
 * are awaited and dropped before the generator returns: none outlives the loop that started it.
 */
export async function* readsInOrder<T>(count: number, ahead: number, read: (index: number) => Promise<T>): AsyncGenerator<T> {
  const ring: Promise<T>[] = [];
  let next = 0; // the next read to issue
  try {
    while (next < count || ring.length > 0) {
      while (next < count && ring.length < ahead + 1) {
        const answer = read(next++);
        answer.catch(() => undefined); // observed when its turn comes, or dropped after a stop
        ring.push(answer);
      }
      yield await ring.shift()!;
    }
  } finally {
    await Promise.allSettled(ring);
    ring.length = 0;
  }
}

/** The bytes of `blob` in order, in chunks of `chunkSize` (the last one shorter), `ahead` reads ahead. */
export async function* readAheadChunks(blob: BlobLike, chunkSize: number, ahead: number): AsyncGenerator<Uint8Array> {
  const size = blob.size;
  const spare: Uint8Array[] = []; // readInto sources: buffers of chunks already used
  const readChunk = async (index: number): Promise<ChunkRead> => {
    const start = index * chunkSize;
    const end = Math.min(size, start + chunkSize);
    // Every range is at most min(chunkSize, size) long: one buffer size serves them all.
    const buffer = blob.readInto ? (spare.pop() ?? new Uint8Array(Math.min(chunkSize, size))) : null;
    return { bytes: await readRange(blob, start, end, buffer === null ? null : buffer.subarray(0, end - start)), buffer };
  };
  for await (const chunk of readsInOrder(Math.ceil(size / chunkSize), ahead, readChunk)) {
    yield chunk.bytes;
    // The consumer asked for the next chunk: it is done with this one (its buffer is read
    // into again by the read issued next).
    if (chunk.buffer !== null) spare.push(chunk.buffer);
  }
}
