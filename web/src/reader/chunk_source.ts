// web/src/engine — the one way the JS side reads a trace. Every source becomes a TraceInput:
// the bytes in order, in chunks (for the first pass), and a way to read a byte range again
// (for event details, which the engine does not keep: see core/trace_session.h).
//
//   File / Blob (and Node's fs.openAsBlob)   Blob.stream() (stream_chunks.ts), or with
//                                            fileRead: 'slices' Blob.slice() chunks, reads issued
//                                            ahead into a bounded ring (read_ahead.ts); re-read: slice()
//   ArrayBuffer / typed array                views, no copy; re-read: subarray()
//   URL                                      fetch() body reader, streamed; re-read: an HTTP Range
//                                            request when the server answered "Accept-Ranges: bytes",
//                                            else from the bytes kept while streaming (see below)
//   ReadableStream / async iterable          (Node's fs.createReadStream, a fetch body) streamed;
//                                            re-read: from the bytes kept while streaming
//   string                                   in Node a file path (or a file:/http(s): URL: FileHandle
//                                            reads, node_file.ts); in a
//                                            browser a URL relative to the page
//
// Streams cannot be read twice, so by default their bytes are kept (in JS memory, outside the
// wasm heap) for event details. `keepStreamedBytes: false` drops them: the trace then opens in
// constant memory and events come without details (`detail: false`).
import type { BlobLike } from './blob_like.js';
import { NetTraceError } from './errors.js';
import { openNodeFile } from './node_file.js';
import { readableStreamChunks, streamedBlobChunks, type StreamableBlob } from './stream_chunks.js';
import { readAheadChunks, readAheadDepth } from './read_ahead.js';

export type { BlobLike } from './blob_like.js';

export interface TraceInput {
  /** Total bytes when known, else null. */
  readonly size: number | null;
  /** The bytes in order, in pieces of about `chunkSize` (streams, a Blob's included, give the
   *  pieces they have). A Blob read by slices keeps `readAhead` reads in flight while a piece is
   *  used (read_ahead.ts). A piece is valid until the next one is asked for: a path's reads
   *  reuse their buffers. */
  chunks(chunkSize: number, reading?: BlobReading): AsyncIterable<Uint8Array>;
  /** The bytes in [start, end) again. Rejects with a NetTraceError (code "source") when it cannot. */
  reread(start: number, end: number): Promise<Uint8Array>;
  /** Whether reread reads just those bytes where they are (a File or Blob, a path, bytes in
   *  memory), not from a copy kept while streaming: the engine then leaves method names in the
   *  file while reading and reads back only those frames can name (api/trace.ts). */
  readonly randomAccess?: boolean;
  /** Drops what the input keeps (streamed bytes). */
  close(): void;
}

/** How a File/Blob's first pass is read (api/handle.ts OpenTraceOptions.fileRead, readAhead). */
export interface BlobReading {
  /** 'stream' (the default when the Blob has stream()) or 'slices'. */
  fileRead?: 'stream' | 'slices' | undefined;
  /** Slices only: reads in flight while a chunk is pushed (read_ahead.ts readAheadDepth). */
  readAhead?: number | undefined;
}

/** Anything that yields byte chunks: a web ReadableStream, a Node Readable, a generator. */
export type ByteStream = ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>;

export type TraceSource = BlobLike | ArrayBuffer | ArrayBufferView | URL | string | ByteStream;

export interface SourceOptions {
  /** Keep streamed bytes for event details (default true). See the file comment. */
  keepStreamedBytes?: boolean;
  /** Size of a stream source when known (for progress). */
  size?: number;
  /** Passed to fetch() for URL sources (headers, credentials…). */
  fetchInit?: RequestInit;
}

export async function toTraceInput(source: TraceSource, options: SourceOptions = {}): Promise<TraceInput> {
  if (source instanceof ArrayBuffer) return bytesInput(new Uint8Array(source));
  if (ArrayBuffer.isView(source)) return bytesInput(new Uint8Array(source.buffer, source.byteOffset, source.byteLength));
  if (typeof source === 'string' || source instanceof URL) return locationInput(source, options);
  if (isBlobLike(source)) return blobInput(source);
  if (isReadableStream(source)) return streamInput(readableStreamChunks(source), options);
  if (isAsyncIterable(source)) return streamInput(source, options);
  throw new NetTraceError('invalid-argument', null, 'unsupported trace source');
}

function isBlobLike(x: object): x is BlobLike {
  return typeof (x as BlobLike).slice === 'function' && typeof (x as BlobLike).size === 'number';
}
function isReadableStream(x: object): x is ReadableStream<Uint8Array> {
  return typeof (x as ReadableStream).getReader === 'function';
}
function isAsyncIterable(x: object): x is AsyncIterable<Uint8Array> {
  return typeof (x as AsyncIterable<Uint8Array>)[Symbol.asyncIterator] === 'function';
}

function sourceError(message: string, offset: number | null = null): NetTraceError {
  return new NetTraceError('source', offset, message);
}

export function bytesInput(bytes: Uint8Array): TraceInput {
  return {
    size: bytes.length,
    async *chunks(chunkSize) {
      for (let start = 0; start < bytes.length; start += chunkSize) yield bytes.subarray(start, start + chunkSize);
    },
    reread: async (start, end) => bytes.subarray(start, end),
    randomAccess: true,
    close: () => undefined,
  };
}

export function blobInput(blob: BlobLike): TraceInput {
  const read = async (start: number, end: number): Promise<Uint8Array> =>
    new Uint8Array(await blob.slice(start, end).arrayBuffer());
  return {
    size: blob.size,
    chunks: (chunkSize, reading = {}) =>
      reading.fileRead !== 'slices' && typeof blob.stream === 'function'
        ? streamedBlobChunks(blob as StreamableBlob)
        : readAheadChunks(blob, chunkSize, readAheadDepth(reading.readAhead)),
    reread: read,
    randomAccess: true,
    close: () => undefined,
  };
}

/** Keeps streamed chunks, with their offsets, to serve re-reads. */
class KeptBytes {
  private readonly pieces: { start: number; bytes: Uint8Array }[] = [];
  private end = 0;
  add(bytes: Uint8Array): void {
    this.pieces.push({ start: this.end, bytes });
    this.end += bytes.length;
  }
  read(start: number, end: number): Uint8Array {
    if (end > this.end) throw sourceError(`bytes ${start}-${end} were not kept`, start);
    const out = new Uint8Array(end - start);
    // Binary search for the first piece that ends after `start`.
    let lo = 0;
    let hi = this.pieces.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const p = this.pieces[mid]!;
      if (p.start + p.bytes.length <= start) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo; i < this.pieces.length; i++) {
      const p = this.pieces[i]!;
      if (p.start >= end) break;
      const from = Math.max(start, p.start);
      const to = Math.min(end, p.start + p.bytes.length);
      out.set(p.bytes.subarray(from - p.start, to - p.start), from - start);
    }
    return out;
  }
  clear(): void {
    this.pieces.length = 0;
  }
}

function streamInput(stream: AsyncIterable<Uint8Array>, options: SourceOptions, kept: KeptBytes | null = null): TraceInput {
  const keep = kept ?? (options.keepStreamedBytes === false ? null : new KeptBytes());
  let used = false;
  return {
    size: options.size ?? null,
    async *chunks() {
      if (used) throw sourceError('a stream can be read only once');
      used = true;
      for await (const piece of stream) {
        // Node streams give Buffers (pooled: copy before keeping a view of a shared pool).
        const bytes = piece instanceof Uint8Array ? piece : new Uint8Array(piece as ArrayBuffer);
        keep?.add(bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : bytes.slice());
        yield bytes;
      }
    },
    reread: async (start, end) => {
      if (keep === null) throw sourceError('the streamed bytes were not kept (keepStreamedBytes: false)', start);
      return keep.read(start, end);
    },
    close: () => keep?.clear(),
  };
}

function isNode(): boolean {
  const process = (globalThis as { process?: { versions?: { node?: string } } }).process;
  return typeof process?.versions?.node === 'string';
}

async function locationInput(location: string | URL, options: SourceOptions): Promise<TraceInput> {
  const text = String(location);
  const hasScheme = /^[a-z][a-z0-9+.-]*:/i.test(text) && !/^[a-z]:[\\/]/i.test(text); // not C:\
  if (isNode() && (!hasScheme || text.startsWith('file:'))) {
    const path = text.startsWith('file:') ? new URL(text) : text;
    try {
      // FileHandle reads, not fs.openAsBlob: they progress while the engine parses (node_file.ts).
      const file = await openNodeFile(path);
      return { ...blobInput(file.blob), close: () => file.close() };
    } catch (e) {
      throw sourceError(`cannot open ${text}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  const base = (globalThis as { location?: { href: string } }).location?.href;
  return urlInput(new URL(text, base), options);
}

/**
 * A URL read with fetch(): the body is streamed into the engine as it arrives. Details are
 * re-read with Range requests when the server said "Accept-Ranges: bytes" (and the body was
 * not content-encoded); otherwise the streamed bytes are kept, as for any stream.
 */
function urlInput(url: URL, options: SourceOptions): TraceInput {
  const init = options.fetchInit ?? {};
  let inner: TraceInput | null = null;
  let ranges = false;
  const input: TraceInput & { size: number | null } = {
    size: null,
    async *chunks(chunkSize) {
      let response: Response;
      try {
        response = await fetch(url, init);
      } catch (e) {
        throw sourceError(`cannot fetch ${url.href}: ${e instanceof Error ? e.message : String(e)}`);
      }
      if (!response.ok || response.body === null) throw sourceError(`cannot fetch ${url.href}: HTTP ${response.status}`);
      const encoded = (response.headers.get('content-encoding') ?? 'identity') !== 'identity';
      const length = Number(response.headers.get('content-length') ?? NaN);
      if (!encoded && Number.isFinite(length)) input.size = length;
      ranges = !encoded && response.headers.get('accept-ranges') === 'bytes';
      const keep: SourceOptions = ranges ? { ...options, keepStreamedBytes: false } : options;
      inner = streamInput(readableStreamChunks(response.body), keep);
      yield* inner.chunks(chunkSize);
    },
    reread: async (start, end) => {
      if (!ranges) {
        if (inner === null) throw sourceError('the URL has not been read yet', start);
        return inner.reread(start, end);
      }
      const headers = new Headers(init.headers);
      headers.set('range', `bytes=${start}-${end - 1}`);
      const response = await fetch(url, { ...init, headers });
      if (response.status !== 206) throw sourceError(`range request to ${url.href}: HTTP ${response.status}`, start);
      const bytes = new Uint8Array(await response.arrayBuffer());
      if (bytes.length !== end - start) throw sourceError(`range request to ${url.href}: short read`, start);
      return bytes;
    },
    close: () => inner?.close(),
  };
  return input;
}
