// web/src/engine — the read loop shared by the worker and the in-thread API: chunks from a
// TraceInput go into the wasm heap and through TraceSession.pushChunk. One heap buffer is
// allocated and reused (grown when a stream hands over a bigger piece).
import type { NetTraceModule, RawStatus, RawTraceSession } from '../nettrace_wasm.mjs';
import type { Progress } from './errors.js';
import type { TraceInput } from './chunk_source.js';
import { nextTask, readsInOrder } from './read_ahead.js';

/**
 * 4 MiB. Measured in Chromium 156 on a 28 MiB disk-backed File: 1 MiB chunks read at ~330-390 MB/s,
 * 4 MiB at ~600-675 MB/s, and 8-32 MiB were no faster (Blob reads, not decoding, set the pace).
 *  */
export const DEFAULT_CHUNK_SIZE = 4 * 1024 * 1024;
/**
 * Bytes per pushChunk call: a read chunk is decoded in slices of at most 1 MiB, with a progress
 * report (and a cancel check) after each. In Chromium a 4 MiB push took up to ~110 ms; 1 MiB
 * keeps reports ~25 ms apart. Reading stays at DEFAULT_CHUNK_SIZE, which sets Blob throughput.
 */
export const PUSH_SIZE = 1024 * 1024;

export interface ReadOptions {
  chunkSize?: number;
  /** How a File/Blob is read: its stream() (default when it has one) or 'slices' (chunk_source.ts). */
  fileRead?: 'stream' | 'slices' | undefined;
  /** Slices only: chunk reads of a File/Blob in flight while a chunk is pushed (read_ahead.ts); default 2, 0 = none. */
  readAhead?: number | undefined;
  signal?: AbortSignal | undefined;
  onProgress?: ((progress: Progress) => void) | undefined;
}

/** Thrown when the signal aborts the read; the session keeps what it read so far. */
export class ReadCancelled extends Error {
  constructor(message = 'reading was cancelled') {
    super(message);
    this.name = 'ReadCancelled';
  }
}

/** Copies `bytes` into the heap at a buffer of at least their size; @returns the buffer. */
export class HeapBuffer {
  private pointer = 0;
  private capacity = 0;
  constructor(private readonly M: NetTraceModule) {}
  put(bytes: Uint8Array): number {
    if (bytes.length > this.capacity || this.pointer === 0) {
      this.free();
      this.capacity = Math.max(1, bytes.length);
      this.pointer = this.M._malloc(this.capacity);
      if (this.pointer === 0) throw new Error(`cannot allocate ${this.capacity} bytes in the wasm heap`);
    }
    // HEAPU8 is replaced when memory grows: read it again for every copy.
    this.M.HEAPU8.set(bytes, this.pointer);
    return this.pointer;
  }
  free(): void {
    if (this.pointer !== 0) this.M._free(this.pointer);
    this.pointer = 0;
    this.capacity = 0;
  }
}

/**
 * Pushes the whole input into `session`, then finishes it. The last progress report, "done",
 * is the caller's: method names are read back after this (provideNames).
 * @returns the session's status (ok, or the first fatal input error: reading stops there) and
 *   the bytes pushed.
 */
export async function readIntoSession(
  M: NetTraceModule,
  session: RawTraceSession,
  input: TraceInput,
  options: ReadOptions = {},
): Promise<{ status: RawStatus; bytes: number }> {
  const chunkSize = Math.max(1, Math.floor(options.chunkSize ?? DEFAULT_CHUNK_SIZE));
  const heap = new HeapBuffer(M);
  try {
    if (options.signal?.aborted) throw new ReadCancelled();
    let offset = 0;
    for await (const chunk of input.chunks(chunkSize, { fileRead: options.fileRead, readAhead: options.readAhead })) {
      for (let at = 0; at < chunk.length; at += PUSH_SIZE) {
        if (options.signal?.aborted) throw new ReadCancelled();
        const bytes = chunk.subarray(at, at + PUSH_SIZE);
        let status: RawStatus;
        try {
          status = session.pushChunk(heap.put(bytes), bytes.length);
        } catch (e) {
          if (!isOutOfMemory(e)) throw e;
          return { status: outOfMemoryStatus(offset), bytes: offset };
        }
        offset += bytes.length;
        options.onProgress?.({ bytes: offset, total: input.size ?? 0, events: session.eventCount(), phase: 'reading' });
        if (!status.ok) return { status, bytes: offset };
        const tail = await provideTail(session, input, heap, () =>
          options.onProgress?.({ bytes: offset, total: input.size ?? 0, events: session.eventCount(), phase: 'reading-end' }));
        if (tail && !tail.ok) return { status: tail, bytes: offset };
        await nextTask(); // the reads ahead progress (read_ahead.ts nextTask)
      }
      // Before asking for the next chunk, which would start one more read ahead.
      if (options.signal?.aborted) throw new ReadCancelled();
    }
    if (options.signal?.aborted) throw new ReadCancelled();
    try {
      return { status: session.finish(), bytes: offset };
    } catch (e) {
      if (!isOutOfMemory(e)) throw e;
      return { status: outOfMemoryStatus(offset), bytes: offset };
    }
  } finally {
    heap.free();
  }
}

/**
 * What the engine throws when its heap cannot grow (wasm/out_of_memory.cc): the call it came
 * out of did not finish, so nothing of its instance may be used again (loadNetTraceModule
 * then makes a new one: discardEngine).
 */
export function isOutOfMemory(e: unknown): boolean {
  return e instanceof Error && e.message.startsWith('nettrace: out of memory');
}

/** The status of a read that ran out of memory at `offset`: code "out-of-memory". */
export function outOfMemoryStatus(offset: number): RawStatus {
  return {
    ok: false,
    code: 'out-of-memory',
    offset,
    message: `out of memory after reading ${offset} bytes (the engine's heap cannot grow further)`,
  };
}

/**
 * Re-reads of name ranges in flight while one range's names are handed over. Each re-read of
 * a File is a round trip to the browser's file reading (~1.2-4.5 ms in Chromium 156 for
 * ranges of 0.5 KB to 0.5 MB): HeartRateMonitor's 35 ranges (2.5 MB) took ~70 ms read one
 * after another, a third of its open. At most NAME_READS_AHEAD + 1 ranges are held at once,
 * each at most 4 MiB (the engine's bound).
 */
export const NAME_READS_AHEAD = 4;

/**
 * Method names the session left in the file (keepNamesInSource) read back and handed over:
 * those of the methods some stack's frames can name, in a few coalesced ranges, once reading
 * has ended and before anything names a frame, with NAME_READS_AHEAD re-reads ahead. A round
 * after names that turned out not terminated can ask for more (a range then borrows
 * another's names); a few rounds are all any file needs, and the bound keeps a misbehaving
 * source from looping.
 * @throws ReadCancelled when `signal` aborts: checked before each range's names are handed
 *   over, so a cancel leaves the names not handed over yet out (their frames show a method
 *   id); the re-reads in flight then settle before it throws.
 */
export async function provideNames(
  M: NetTraceModule,
  session: RawTraceSession,
  input: TraceInput,
  onProgress?: (progress: Progress) => void,
  signal?: AbortSignal,
): Promise<void> {
  const heap = new HeapBuffer(M);
  let read = 0;
  let asked = 0;
  try {
    for (let round = 0; round < 8; round++) {
      const ranges = session.nameRangesNeeded();
      if (ranges.length === 0) return;
      for (let i = 1; i < ranges.length; i += 2) asked += ranges[i]!;
      // Said before the first read of a round (the first: 0 bytes of `asked`), then after each.
      onProgress?.({ bytes: read, total: asked, events: session.eventCount(), phase: 'names' });
      const cancelled = (): ReadCancelled => new ReadCancelled('reading back the method names was cancelled');
      if (signal?.aborted) throw cancelled();
      const reread = (k: number): Promise<Uint8Array> => input.reread(ranges[2 * k]!, ranges[2 * k]! + ranges[2 * k + 1]!);
      let k = 0;
      try {
        for await (const bytes of readsInOrder(ranges.length / 2, NAME_READS_AHEAD, reread)) {
          if (signal?.aborted) throw cancelled();
          session.provideNames(ranges[2 * k++]!, heap.put(bytes), bytes.length);
          read += bytes.length;
          onProgress?.({ bytes: read, total: asked, events: session.eventCount(), phase: 'names' });
          // A re-read of bytes in memory settles without a task turn: one here lets a cancel
          // message (the engine worker's) or timer in between two ranges, as between pushes.
          await nextTask();
        }
      } catch (e) {
        // A cancel wins over a re-read issued ahead whose failure surfaces after it: read one
        // at a time, that range would not have been read once the cancel came.
        if (signal?.aborted && !(e instanceof ReadCancelled)) throw cancelled();
        throw e;
      }
    }
  } finally {
    heap.free();
  }
}

/**
 * NetPerf versions 1 and 2 say where their events end only in the file's last bytes: when the
 * session asks for them, they are read with one range read (Blob.slice, a byte view) and
 * handed over. A source without a known size or re-reads (a stream) leaves the session
 * waiting, and its next push says the source cannot be read from its end.
 * @returns the session's status after the hand-over, or null when nothing was wanted.
 */
export async function provideTail(
  session: Pick<RawTraceSession, 'tailWanted' | 'provideTail'>,
  input: TraceInput,
  heap: HeapBuffer,
  onReadingEnd?: () => void,
): Promise<RawStatus | null> {
  const wanted = session.tailWanted();
  if (wanted === 0 || input.size === null) return null;
  onReadingEnd?.();
  const start = Math.max(0, input.size - wanted);
  let bytes: Uint8Array;
  try {
    bytes = await input.reread(start, input.size);
  } catch {
    return null;  // the next push reports that the end could not be read first
  }
  return session.provideTail(heap.put(bytes), bytes.length, input.size);
}
