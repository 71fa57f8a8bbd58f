// Worker side of tests/bench/read_bench.mjs: the parts of opening a File, each timed alone in a
// module worker, where the app's engine reads (web/src/engine/engine_worker.ts). Runs in
// Chromium (a dedicated worker of read_page.html) and in Node (imported by read_bench.mjs,
// with a Blob from fs.openAsBlob). One message in, one message out: { mode, file } → { ms, ... }.
//   stream        file.stream() read to its end, bytes counted (the browser's read rate)
//   slices-N      Blob.slice() chunks of 4 MiB read through the product's ring, N ahead, no engine
//   parse         the engine fed from memory: the file read into one buffer first (not timed)
//   open-N        the whole open (api openTraceInThread on the File), N reads ahead
import { openTraceInThread } from '../../dist/api/trace.js';
import { readAheadChunks } from '../../dist/reader/read_ahead.js';
import { DEFAULT_CHUNK_SIZE } from '../../dist/reader/read_trace.js';
import { loadNetTraceModule } from '../../dist/reader/wasm_loader.js';

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

async function opened(source, options) {
  const trace = await openTraceInThread(source, options);
  const events = trace.eventCount;
  trace.close();
  return events;
}

/** @returns { ms, bytes } or { ms, events } of one timed part. */
export async function timePart(mode, file) {
  const [kind, n] = mode.split('-');
  // Not timed: the engine's compile, and for 'parse' the read into memory.
  await loadNetTraceModule();
  const memory = kind === 'parse' ? new Uint8Array(await file.arrayBuffer()) : null;
  const t0 = performance.now();
  let result;
  if (kind === 'stream') result = { bytes: await streamed(file) };
  else if (kind === 'slices') result = { bytes: await sliced(file, Number(n)) };
  else if (kind === 'parse') result = { events: await opened(memory, {}) };
  else if (kind === 'open') result = { events: await opened(file, { readAhead: Number(n) }) };
  else throw new Error(`unknown mode ${mode}`);
  return { ms: performance.now() - t0, ...result };
}

// As a browser worker: answer the page's message.
if (typeof WorkerGlobalScope !== 'undefined' && self instanceof WorkerGlobalScope) {
  self.addEventListener('message', async (event) => {
    try {
      self.postMessage(await timePart(event.data.mode, event.data.file));
    } catch (e) {
      self.postMessage({ error: String(e?.stack ?? e) });
    }
  });
}
