// web/src/reader — a file path in Node, read with FileHandle.read(). Each read is one job on
// libuv's thread pool and completes while the engine decodes on this thread, so reads issued
// ahead (read_ahead.ts) overlap parsing. A Blob from fs.openAsBlob does not: its bytes move
// only while this thread runs tasks (measured on Node 20: a 16 MiB slice read during a 300 ms
// synchronous loop still needed 80-100 ms after it; a FileHandle read of 16 MiB, 0.1 ms).
// The first pass reads into the same few buffers over and over (BlobLike.readInto): a fresh
// buffer per 4 MiB chunk cost a page fault per 4 KiB of the file (written 200 MB trace, 4 opens
// in one process: 106k faults and 1.46 s of system time, against 57k and 0.60 s reusing them).
import type { BlobLike } from './blob_like.js';

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

/** Reads at `position` into `target` until it is full or the file ends; @returns the bytes read. */
async function readInto(handle: FileHandleLike, target: Uint8Array, position: number): Promise<number> {
  let at = 0;
  while (at < target.length) {
    const { bytesRead } = await handle.read(target, at, target.length - at, position + at);
    if (bytesRead === 0) break; // the file got shorter: the reader reports a short read
    at += bytesRead;
  }
  return at;
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
        return {
          arrayBuffer: async () => {
            const bytes = new Uint8Array(to - from);
            const n = await readInto(handle, bytes, from);
            return n === bytes.length ? bytes.buffer : bytes.buffer.slice(0, n);
          },
        };
      },
      readInto: (target, position) => readInto(handle, target, position),
    },
    close: () => {
      if (closed) return;
      closed = true;
      void handle.close().catch(() => undefined);
    },
  };
}
