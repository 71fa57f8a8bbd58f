// web/src/reader — the pieces of a ReadableStream, and a File/Blob's first pass read from its
// stream(), the default for a Blob that has one (chunk_source.ts blobInput).
//
// Why a Blob's stream and not slices: measured in Chromium (tests/bench/read_bench.mjs,
// docs/performance.md), Blob.slice().arrayBuffer() in 4 MiB pieces reads a 1.1 GB File at 120-131
// MiB/s even 2 ahead, file.stream() at 200-226 MiB/s, and the whole open fed from the stream took
// 0.65-0.77× the time of the open by slices. The browser fills the stream's data pipe on its own
// threads while the engine decodes, as far as the pipe holds (the pipe's bytes move to this
// thread only when it runs tasks: the engine still waited for them 30 % of a 1.1 GB open), so
// the stream reads ahead without a ring of ours: the pieces waiting are what the pipe holds.
// Chromium hands over pieces of 64 KiB to 2 MiB (measured; the file reader worker saw up to
// 2 MiB); a piece larger than PUSH_SIZE is pushed in slices by read_trace.ts. Re-reads for
// details stay Blob.slice() ranges.
import { NetTraceError } from './errors.js';

/** A Blob that can be streamed (browsers' File/Blob, Node's fs.openAsBlob). */
export interface StreamableBlob {
  readonly size: number;
  stream(): ReadableStream<Uint8Array>;
}

/** The pieces of `stream` in order; stopping early (return, throw) cancels the stream. */
export async function* readableStreamChunks(stream: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    reader.releaseLock();
    void stream.cancel().catch(() => undefined);
  }
}

/**
 * The bytes of `blob` from blob.stream(), as its pieces come. A read that fails (the File was
 * changed or removed) is a "source" error at the offset the stream had reached; a stream that
 * ends before `blob.size` bytes, or goes past them, is one too: the first pass must see exactly
 * the bytes that re-reads by slice() will see.
 */
export async function* streamedBlobChunks(blob: StreamableBlob): AsyncGenerator<Uint8Array> {
  const size = blob.size;
  let at = 0;
  let pieces: AsyncGenerator<Uint8Array>;
  try {
    pieces = readableStreamChunks(blob.stream());
  } catch (e) {
    throw readError(0, e);
  }
  try {
    for (;;) {
      let next: IteratorResult<Uint8Array>;
      try {
        next = await pieces.next();
      } catch (e) {
        throw readError(at, e);
      }
      if (next.done === true) break;
      if (at + next.value.length > size) throw new NetTraceError('source', size, `the File streamed more than its ${size} bytes`);
      at += next.value.length;
      yield next.value;
    }
  } finally {
    // Stopped early (the consumer's cancel or fatal input error, or a fault here): cancel the stream.
    await pieces.return(undefined);
  }
  if (at !== size) throw new NetTraceError('source', at, `short read: the File's stream ended at byte ${at} of ${size}`);
}

function readError(at: number, e: unknown): NetTraceError {
  return new NetTraceError('source', at, `cannot read bytes from ${at}: ${e instanceof Error ? e.message : String(e)}`);
}
