// Worker side of tests/bench/small_open_bench.mjs: the parts of a first open in a fresh engine
// worker, each timed alone, in the order the app's engine worker runs them (web/src/engine/
// engine_worker.ts, web/src/reader/wasm_loader.ts): the engine fetched and compiled as it
// streams in (compileStreaming), instantiated, warmed up on its small written profile
// (engine_warm_up.ts), its heap readied, then the File read and its summary written. Last,
// not done by the app: the same bytes fetched and compiled once more from memory
// (WebAssembly.compile), what a worker would pay that is not handed the page's module.
import { openTraceInThread } from '../../dist/api/trace.js';
import { warmUp } from '../../dist/engine/engine_warm_up.js';
import { readyHeap } from '../../dist/reader/heap_ready.js';
import { loadNetTraceModule, useCompiledEngine } from '../../dist/reader/wasm_loader.js';
import { PREWARM_HEAP_BYTES } from '../../dist/engine/worker_client.js';

self.addEventListener('message', async ({ data: { file } }) => {
  try {
    const url = new URL('../../dist/nettrace_wasm.wasm', import.meta.url);
    const ms = {};
    let t = performance.now();
    const lap = (name) => {
      const now = performance.now();
      ms[name] = now - t;
      t = now;
    };
    const module = await WebAssembly.compileStreaming(fetch(url));
    lap('fetchCompile');
    useCompiledEngine(module);
    const engine = await loadNetTraceModule();
    lap('instantiate');
    await warmUp(engine);
    lap('warmUp');
    readyHeap(engine, PREWARM_HEAP_BYTES);
    lap('readyHeap');
    const trace = await openTraceInThread(file);
    lap('read');
    const summary = trace.summaryJson();
    lap('summary');
    trace.close();
    const bytes = await (await fetch(url)).arrayBuffer();
    lap('fetch');
    await WebAssembly.compile(bytes);
    lap('compile');
    self.postMessage({ ms, eventCount: JSON.parse(summary).eventCount });
  } catch (e) {
    self.postMessage({ error: String(e?.stack ?? e) });
  }
});
