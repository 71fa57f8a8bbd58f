// web/src/api — where an export's parts go. The engine produces an export a part at a time
// (core/export/export_stream.h; api/trace.ts asks for the next part only once the last one
// is written), so a document of any size — a CSV with every event's stack text runs to
// gigabytes — is written with the memory of one part: to a file (Node), a Node Writable, a
// WHATWG WritableStream, read as a ReadableStream, or, when it is small enough, returned as
// one string. docs/exports.md.
import { NetTraceError } from '../reader/errors.js';

/** Bytes the engine is asked for at a time (a part passes it by at most one line or item). */
export const PART_BYTES = 1 << 20;

/**
 * The longest string V8 (Chromium, Node) makes: 2^29 − 24 UTF-16 units. Firefox's and
 * Safari's are longer; a text export past it fails at once, before it fills the memory.
 */
const MAX_STRING_LENGTH = 0x1fffffe8;

/** A Node Writable, as much of it as an export uses (process.stdout, fs.createWriteStream(), a socket…). */
export interface NodeWritableLike {
  write(chunk: Uint8Array, callback?: (error?: Error | null) => void): boolean;
  end(callback?: () => void): unknown;
  on(event: 'error', listener: (error?: Error) => void): unknown;
  once(event: 'drain' | 'error' | 'close' | 'finish', listener: (error?: Error) => void): unknown;
  removeListener(event: 'drain' | 'error' | 'close' | 'finish', listener: (error?: Error) => void): unknown;
  readonly writableEnded?: boolean;
  readonly destroyed?: boolean;
}

/** Where exportTo writes: a file path (Node), a Node Writable, or a WHATWG WritableStream. */
export type ExportDestination = string | NodeWritableLike | WritableStream<Uint8Array>;

export interface ExportToOptions {
  /** Stops the export between two parts: it then rejects with code "cancelled". */
  signal?: AbortSignal;
  /**
   * Leave a stream destination open at the end (process.stdout, a stream more will be
   * written to). By default a stream is ended (Node) or closed (WHATWG) once the export is
   * complete, as pipeTo() and stream.pipeline() do; a file path is always closed.
   */
  keepOpen?: boolean;
}

const outputError = (what: string, e: unknown): NetTraceError =>
  e instanceof NetTraceError ? e : new NetTraceError('output', null, `${what}: ${e instanceof Error ? e.message : String(e)}`);

function cancelled(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new NetTraceError('cancelled', null, 'the export was cancelled');
}

/** A stream of the parts, each asked for only when the reader wants one (nothing is produced ahead). */
export function partsAsStream(parts: () => AsyncGenerator<Uint8Array>): ReadableStream<Uint8Array> {
  let it: AsyncGenerator<Uint8Array> | null = null;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        it ??= parts();
        const next = await it.next();
        if (next.done) controller.close();
        else controller.enqueue(next.value);
      },
      async cancel() {
        await it?.return(undefined);
      },
    },
    { highWaterMark: 0 },
  );
}

/** The parts of a ReadableStream, releasing it when the loop stops early. */
export async function* streamParts(stream: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = stream.getReader();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}

/**
 * The whole export as a string; code "too-large" when it is longer than a string can be.
 * @param maxLength the longest string allowed (tests make it small)
 */
export async function partsAsText(parts: AsyncGenerator<Uint8Array>, maxLength = MAX_STRING_LENGTH): Promise<string> {
  const decoder = new TextDecoder();
  const texts: string[] = [];
  let length = 0;
  try {
    for await (const part of parts) {
      const text = decoder.decode(part, { stream: true });
      length += text.length;
      if (length > maxLength) {
        throw new NetTraceError('too-large', null, `the export is longer than a JavaScript string can be (${maxLength} characters): write it with exportTo() or read it with exportStream()`);
      }
      texts.push(text);
    }
  } finally {
    await parts.return(undefined);
  }
  texts.push(decoder.decode());
  return texts.join('');
}

interface NodeFileHandle {
  write(bytes: Uint8Array, offset: number, length: number): Promise<{ bytesWritten: number }>;
  close(): Promise<void>;
}
interface NodeFsPromises {
  open(path: string, flags: string): Promise<NodeFileHandle>;
  unlink(path: string): Promise<void>;
}

async function toFile(parts: AsyncGenerator<Uint8Array>, path: string, signal?: AbortSignal): Promise<number> {
  const fs = (await import(/* @vite-ignore */ 'node:fs/promises' as string)) as NodeFsPromises;
  let file: NodeFileHandle;
  try {
    file = await fs.open(path, 'w');
  } catch (e) {
    throw outputError(`cannot create ${path}`, e);
  }
  let bytes = 0;
  let ok = false;
  try {
    for await (const part of parts) {
      cancelled(signal);
      for (let at = 0; at < part.length; ) {
        try {
          at += (await file.write(part, at, part.length - at)).bytesWritten;
        } catch (e) {
          throw outputError(`cannot write ${path}`, e);
        }
      }
      bytes += part.length;
    }
    ok = true;
  } finally {
    await parts.return(undefined);
    await file.close().catch((e: unknown) => {
      if (ok) throw outputError(`cannot write ${path}`, e);
    });
    // A file cut short is not left where the whole export was asked for.
    if (!ok) await fs.unlink(path).catch(() => undefined);
  }
  return bytes;
}

/** Resolves once `stream` emits `event`, rejects on 'error' (or 'close' first, when waiting for another). */
function onceNode(stream: NodeWritableLike, event: 'drain' | 'finish'): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = (error?: Error) => {
      stream.removeListener(event, ok);
      stream.removeListener('error', failed);
      stream.removeListener('close', closed);
      if (error) reject(error);
      else resolve();
    };
    const ok = () => done();
    const failed = (e?: Error) => done(e ?? new Error('the stream failed'));
    const closed = () => done(new Error('the stream was closed'));
    stream.once(event, ok);
    stream.once('error', failed);
    stream.once('close', closed);
  });
}

async function toNodeStream(parts: AsyncGenerator<Uint8Array>, stream: NodeWritableLike, options: ExportToOptions): Promise<number> {
  let bytes = 0;
  let failure = null as Error | null;
  const onError = (e?: Error) => void (failure ??= e ?? new Error('the stream failed'));
  // A function, not a condition TypeScript narrows: each call reads the stream's state anew.
  const gone = (): boolean => failure !== null || stream.writableEnded === true || stream.destroyed === true;
  stream.on('error', onError);
  try {
    for await (const part of parts) {
      cancelled(options.signal);
      if (gone()) {
        throw outputError('cannot write the export to the stream', failure ?? new Error('the stream is closed'));
      }
      // A write after the stream failed reports through its callback (and 'error'); a full
      // buffer waits for 'drain', so the stream holds at most one part more than its own.
      const written = stream.write(part, (e) => void (e && onError(e)));
      bytes += part.length;
      if (!written && !gone()) {
        await onceNode(stream, 'drain').catch((e: unknown) => Promise.reject(outputError('cannot write the export to the stream', e)));
      }
    }
    if (!options.keepOpen) {
      const finished = onceNode(stream, 'finish');
      stream.end();
      await finished.catch((e: unknown) => Promise.reject(outputError('cannot finish the stream', e)));
    }
    if (failure !== null) throw outputError('cannot write the export to the stream', failure);
  } finally {
    stream.removeListener('error', onError);
    await parts.return(undefined);
  }
  return bytes;
}

async function toWebStream(parts: AsyncGenerator<Uint8Array>, stream: WritableStream<Uint8Array>, options: ExportToOptions): Promise<number> {
  let writer: WritableStreamDefaultWriter<Uint8Array>;
  try {
    writer = stream.getWriter();
  } catch (e) {
    throw outputError('cannot write the export to the stream', e);
  }
  let bytes = 0;
  try {
    for await (const part of parts) {
      cancelled(options.signal);
      await writer.ready;
      await writer.write(part);
      bytes += part.length;
    }
    if (!options.keepOpen) await writer.close();
  } catch (e) {
    const error = outputError('cannot write the export to the stream', e);
    if (!options.keepOpen) await writer.abort(error).catch(() => undefined);
    throw error;
  } finally {
    writer.releaseLock();
    await parts.return(undefined);
  }
  return bytes;
}

const isWebStream = (d: unknown): d is WritableStream<Uint8Array> =>
  typeof WritableStream !== 'undefined' && d instanceof WritableStream;

/**
 * Writes the parts to `destination`, each once the previous one is written.
 * @returns the bytes written
 * @throws NetTraceError code "output" when the destination fails (cannot be created, is
 *   closed, reports an error), "cancelled" when `options.signal` aborted; engine codes as they come
 */
export async function writeParts(parts: AsyncGenerator<Uint8Array>, destination: ExportDestination, options: ExportToOptions = {}): Promise<number> {
  try {
    cancelled(options.signal);
    if (typeof destination === 'string') return await toFile(parts, destination, options.signal);
    if (isWebStream(destination)) return await toWebStream(parts, destination, options);
    const node = destination as Partial<NodeWritableLike> | null;
    if (node !== null && typeof node === 'object' && typeof node.write === 'function' && typeof node.once === 'function' && typeof node.on === 'function') {
      return await toNodeStream(parts, destination as NodeWritableLike, options);
    }
    throw new NetTraceError('invalid-argument', null, 'exportTo writes to a file path, a Node Writable or a WritableStream');
  } finally {
    await parts.return(undefined);
  }
}
