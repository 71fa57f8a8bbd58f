// web/src/engine — the file reader worker: reads a File's stream() and posts its pieces to the
// engine worker that started it (off_thread_blob.ts), their buffers transferred, at most a
// window of bytes ahead of what the engine took. A browser moves a stream's bytes from the
// File into a thread only while that thread runs tasks; the engine's thread runs one between
// two 1 MiB pushes, and in Chromium it still waited for the File 30 % of a 1.1 GB open. This
// thread has nothing else to do, so the File is read while the engine parses.
// Typed against a minimal worker scope so that it compiles under the DOM lib as well.
import type { FromReader, ToReader } from './file_reader_protocol.js';

interface ReaderScope {
  postMessage(message: FromReader, transfer: Transferable[]): void;
  addEventListener(type: 'message', listener: (event: MessageEvent<ToReader>) => void): void;
}
const ctx = self as unknown as ReaderScope;

/** Bytes the reader may still hand over before the engine acknowledges more. */
let credit = 0;
let wake: (() => void) | null = null;

async function pump(blob: Blob): Promise<void> {
  try {
    const reader = blob.stream().getReader();
    for (;;) {
      while (credit <= 0) await new Promise<void>((resolve) => (wake = resolve));
      const { done, value } = await reader.read();
      if (done) {
        ctx.postMessage({ kind: 'done' }, []);
        return;
      }
      // A piece that views part of a larger buffer is copied: only whole buffers move.
      const bytes = value.byteOffset === 0 && value.byteLength === value.buffer.byteLength ? value : value.slice();
      credit -= bytes.length;
      ctx.postMessage({ kind: 'piece', bytes }, [bytes.buffer]);
    }
  } catch (e) {
    ctx.postMessage({ kind: 'error', message: e instanceof Error ? e.message : String(e) }, []);
  }
}

// Stopping is the engine's terminate(): this worker keeps no state worth a goodbye.
ctx.addEventListener('message', (event) => {
  const m = event.data;
  if (m.kind === 'start') {
    credit = m.window;
    void pump(m.blob);
  } else {
    credit += m.bytes;
    wake?.();
    wake = null;
  }
});
