// web/src/reader — a file path in Node, read with FileHandle.read(). Each read is one job on
// libuv's thread pool and completes while the engine decodes on this thread, so reads issued
// ahead (read_ahead.ts) overlap parsing. A Blob from fs.openAsBlob does not: its bytes move
// only while this thread runs tasks (measured on Node 20: a 16 MiB slice read during a 300 ms
// synchronous loop still needed 80-100 ms after it; a FileHandle read of 16 MiB, 0.1 ms).
import type { BlobLike } from './chunk_source.js';

interface FileHandleLike {
  read(buffer: Uint8Array, offset: number, length: number, position: number): Promise<{ bytesRead: number }>;
  stat(): Promise<{ size: number }>;
  close(): Promise<void>;
}

/** An open file as a BlobLike (ranges read with FileHandle.read), and how to close it. */
export interface NodeFile {
  readonly blob: BlobLike;
  close(): void;
}

async function readRange(handle: FileHandleLike, start: number, end: number): Promise<ArrayBuffer> {
  const bytes = new Uint8Array(end - start);
  let at = 0;
  while (at < bytes.length) {
    const { bytesRead } = await handle.read(bytes, at, bytes.length - at, start + at);
    if (bytesRead === 0) break; // the file got shorter: the reader reports a short read
    at += bytesRead;
  }
  return at === bytes.length ? bytes.buffer : bytes.buffer.slice(0, at);
}

/** Opens `path` for reading; rejects as fs.open does (ENOENT, EACCES…). */
export async function openNodeFile(path: string | URL): Promise<NodeFile> {
  // A computed specifier keeps browser bundlers from trying to resolve a Node built-in.
  const specifier: string = 'node:fs/promises';
  const fs = (await import(/* @vite-ignore */ specifier)) as { open(path: string | URL, flags: string): Promise<FileHandleLike> };
  const handle = await fs.open(path, 'r');
  let size: number;
  try {
    size = (await handle.stat()).size;
  } catch (e) {
    await handle.close();
    throw e;
  }
  const clamp = (x: number | undefined, fallback: number): number => Math.min(size, Math.max(0, x ?? fallback));
  let closed = false;
  return {
    blob: {
      size,
      slice: (start, end) => {
        const from = clamp(start, 0);
        const to = Math.max(from, clamp(end, size));
        return { arrayBuffer: () => readRange(handle, from, to) };
      },
    },
    close: () => {
      if (closed) return;
      closed = true;
      void handle.close().catch(() => undefined);
    },
  };
}
