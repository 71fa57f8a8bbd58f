// Worker side of tests/bench/read_bench.mjs: the parts of opening a File, each timed alone in a
// module worker, where the app's engine reads (web/src/engine/engine_worker.ts). Runs in
// Chromium (a dedicated worker of read_page.html) and in Node (imported by read_bench.mjs,
// with a Blob from fs.openAsBlob and the file's path: slices and opens read the path, as the
// npm package does, with FileHandle reads). One message in, one message out: { mode, file } → { ms, ... }.
//   stream        file.stream() read to its end, bytes counted (the browser's read rate)
//   slices-N      Blob.slice() chunks of 4 MiB read through the product's ring, N ahead, no engine
//   parse         the engine fed from memory: the file read into one buffer first (not timed)
//   parse-warm    the same after one untimed parse of the file in this worker, which grew and
//                 wrote the engine's heap and ran its code until the browser optimized it
//   open-N        the whole open (api openTraceInThread on the File) by slices, N reads ahead;
//                 also how long the engine's thread waited for File bytes (waitMs, below)
//   open-stream   the open from file.stream() read on the engine's thread (in Node: a
//                 fs.openAsBlob Blob's stream), and how long the engine's thread waited for its pieces
//   open-reader   (browser only) the app's open of a big File: its stream read by a file reader
//                 worker that posts the pieces (web/src/engine/off_thread_blob.ts)
import { openTraceInThread } from '../../dist/api/trace.js';
import { readAheadChunks } from '../../dist/reader/read_ahead.js';
import { DEFAULT_CHUNK_SIZE } from '../../dist/reader/read_trace.js';
import { loadNetTraceModule } from '../../dist/reader/wasm_loader.js';
import { openNodeFile } from '../../dist/reader/node_file.js';

async function streamed(file) {
  let bytes = 0;
  const reader = file.stream().getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return bytes;
    bytes += value.length;
  }
}

async function sliced(file, ahead) {
  let bytes = 0;
  for await (const chunk of readAheadChunks(file, DEFAULT_CHUNK_SIZE, ahead)) bytes += chunk.length;
  return bytes;
}

/**
 * The open of `file` with `ahead` reads ahead, and the time its thread waited for bytes: for
 * each chunk, from the moment the read loop asked for it (the end of the previous chunk's last
 * push: its progress report) to the moment its read answered, when later. Reads that answered
 * while the engine was busy cost no wait: that is the overlap, measured apart from the total
 * (which, on a machine without an idle core, also pays the reading's CPU time).
 */
async function openedWithWait(file, ahead) {
  const answered = new Map(); // chunk start → when its read answered
  const timed = {
    size: file.size,
    slice(start, end) {
      const part = file.slice(start, end);
      return {
        async arrayBuffer() {
          const bytes = await part.arrayBuffer();
          answered.set(start, performance.now());
          return bytes;
        },
      };
    },
  };
  let asked = performance.now(); // the first chunk is asked for at once
  let waitMs = 0;
  let nextChunk = 0;
  const onProgress = (p) => {
    if (p.phase !== 'reading' || p.bytes < Math.min(file.size, nextChunk + DEFAULT_CHUNK_SIZE)) return;
    waitMs += Math.max(0, answered.get(nextChunk) - asked);
    nextChunk += DEFAULT_CHUNK_SIZE;
    asked = performance.now();
  };
  const events = await opened(timed, { fileRead: 'slices', readAhead: ahead, onProgress });
  return { events, waitMs };
}

/**
 * The open of `blob` from its stream() (a File's own, or a reader worker's: offThreadBlob), and
 * the time the engine's thread waited for bytes: the stream handed to the engine pulls one
 * piece of blob.stream() per read the engine asks for (highWaterMark 0), so the time each pull
 * took is time the engine waited. Pieces already waiting answer at once.
 */
async function streamOpenedWithWait(blob) {
  let waitMs = 0;
  const timed = {
    size: blob.size,
    slice: (start, end) => blob.slice(start, end),
    stream() {
      const reader = blob.stream().getReader();
      return new ReadableStream({
        async pull(controller) {
          const t0 = performance.now();
          const { done, value } = await reader.read();
          waitMs += performance.now() - t0;
          if (done) controller.close();
          else controller.enqueue(value);
        },
        cancel: (reason) => reader.cancel(reason),
      }, { highWaterMark: 0 });
    },
  };
  const events = await opened(timed, {});
  return { events, waitMs };
}

/** The engine worker's open of a big File: its stream read by a file reader worker (dist/engine/off_thread_blob.js). */
async function readerOpened(file) {
  const { offThreadBlob } = await import('../../dist/engine/off_thread_blob.js');
  const blob = offThreadBlob(file);
  const result = await streamOpenedWithWait(blob);
  if (blob.stats.workers !== 1 || blob.stats.fallbacks !== 0) throw new Error(`reader worker not used: ${JSON.stringify(blob.stats)}`);
  return result;
}

async function opened(source, options) {
  const trace = await openTraceInThread(source, options);
  const events = trace.eventCount;
  trace.close();
  return events;
}

/**
 * @returns { ms, bytes } or { ms, events } of one timed part; `path` (Node): read slices and
 * opens from it; `beforeTimed`: awaited just before the timed part starts (the caller's CPU
 * count starts there, after the untimed preparation).
 */
export async function timePart(mode, file, path = null, beforeTimed = async () => {}) {
  const [kind, n] = mode.split('-');
  // Not timed: the engine's compile, and for 'parse' the read into memory (and for
  // 'parse-warm' a first parse, which leaves the engine's heap grown and written).
  await loadNetTraceModule();
  const memory = kind === 'parse' ? new Uint8Array(await file.arrayBuffer()) : null;
  if (mode === 'parse-warm') await opened(memory, {});
  const nodeFile = path === null ? null : await openNodeFile(path);
  const source = nodeFile?.blob ?? file;
  await beforeTimed();
  const t0 = performance.now();
  let result;
  if (kind === 'stream') result = { bytes: await streamed(file) };
  else if (kind === 'slices') result = { bytes: await sliced(source, Number(n)) };
  else if (kind === 'parse') result = { events: await opened(memory, {}) };
  else if (kind === 'open' && n === 'reader') result = await readerOpened(file);
  else if (kind === 'open' && n === 'stream') result = await streamOpenedWithWait(file);
  else if (kind === 'open') result = await openedWithWait(source, Number(n));
  else throw new Error(`unknown mode ${mode}`);
  const ms = performance.now() - t0;
  nodeFile?.close();
  return { ms, ...result };
}

// As a browser worker: answer the page's message. Before the timed part it posts
// { timing: true } and waits for the page's 'go', so that the page can first have the CPU count
// of the browser's processes taken.
if (typeof WorkerGlobalScope !== 'undefined' && self instanceof WorkerGlobalScope) {
  let go = null;
  self.addEventListener('message', async (event) => {
    if (event.data === 'go') {
      go();
      return;
    }
    const beforeTimed = () => new Promise((resolve) => {
      go = resolve;
      self.postMessage({ timing: true });
    });
    try {
      self.postMessage(await timePart(event.data.mode, event.data.file, null, beforeTimed));
    } catch (e) {
      self.postMessage({ error: String(e?.stack ?? e) });
    }
  });
}
