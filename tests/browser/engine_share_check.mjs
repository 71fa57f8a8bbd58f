// Browser check of the compiled engine handed from worker to worker (web/src/engine/
// worker_client.ts, engine_worker.ts, web/src/reader/wasm_loader.ts), in Chromium through the
// package's openTrace: the first engine worker gets no module, compiles the engine and hands
// the WebAssembly.Module to the page in its 'ready'; the next worker (a new trace, the first
// one closed, its worker ended) gets that module in its first message and instantiates it
// without compiling (its 'ready' hands nothing back). Both summaries equal the native CLI's.
// Each prewarmed worker readies PREWARM_HEAP_BYTES of its heap before its 'ready'; a worker an
// open starts (none prewarmed) readies none.
// Never timed: what the sharing saves is measured by scripts/bench.mjs.
export async function engineShareChecks({ browser, repoServer, check, assert, byName, runNative }) {
  const page = await browser.newPage();
  const native = (path) => runNative('summary', path).stdout.toString('utf8').replace(/\n$/, '');
  const url = (t) => '/' + t.path.slice(t.path.indexOf('build/native/testdata/'));
  try {
    await check('engine workers: the second worker instantiates the module the first compiled; summaries = native', async () => {
      const first = byName('pyroscope-net5-single-thread');
      const second = byName('HeartRateMonitor');
      await page.goto(`${repoServer.url}tests/browser/package_page.html`);
      const r = await page.evaluate(async ([a, b]) => {
        const workers = [];
        const Base = window.Worker;
        // Records each engine worker's first message (EngineInit) and its 'ready'.
        window.Worker = class extends Base {
          constructor(...args) {
            super(...args);
            const seen = { init: null, ready: null, heapBytes: null };
            workers.push(seen);
            this.addEventListener('message', (e) => {
              if (e.data?.kind !== 'ready') return;
              seen.ready = e.data.module instanceof WebAssembly.Module ? 'module' : String(e.data.module);
              seen.heapBytes = e.data.heapBytes;
            });
          }
          postMessage(message, transfer) {
            const seen = workers[workers.length - 1];
            if (seen.init === null)
              seen.init = {
                kind: message.kind,
                module: message.module instanceof WebAssembly.Module ? 'module' : String(message.module),
                readyHeapBytes: message.readyHeapBytes,
              };
            return super.postMessage(message, transfer);
          }
        };
        const { openTrace, prewarmEngine, PREWARM_HEAP_BYTES } = await import('/dist/index.js');
        const summaries = [];
        for (const path of [a, b]) {
          const blob = await (await fetch(path)).blob();
          await prewarmEngine(); // the app's path: a worker ready before the open
          const trace = await openTrace(blob);
          summaries.push(trace.summaryJson());
          trace.close();
        }
        // An open with no prewarmed worker waiting starts one that readies no heap: it would
        // only make that open wait.
        const unprepared = await openTrace(await (await fetch(a)).blob());
        unprepared.close();
        return { workers: workers.map((w) => ({ ...w })), summaries, readyBytes: PREWARM_HEAP_BYTES };
      }, [url(first), url(second)]);
      assert(r.summaries[0] === native(first.path), `${first.name}: summary differs from native`);
      assert(r.summaries[1] === native(second.path), `${second.name}: summary differs from native`);
      assert(r.workers.length === 3, `expected 3 engine workers, saw ${r.workers.length}`);
      const [w1, w2, w3] = r.workers;
      // Prewarmed workers write PREWARM_HEAP_BYTES of heap before 'ready' (reader/heap_ready.ts).
      for (const [name, w] of [['first', w1], ['second', w2]]) {
        assert(w.init?.readyHeapBytes === r.readyBytes, `${name} worker asked for ${w.init?.readyHeapBytes} bytes of ready heap`);
        assert(w.heapBytes >= r.readyBytes, `${name} worker's heap at ready: ${w.heapBytes} bytes`);
      }
      assert(w3.init?.readyHeapBytes === 0, `a worker an open started asked for ${w3.init?.readyHeapBytes} bytes of ready heap`);
      assert(w1.init?.kind === 'engine' && w1.init.module === 'null', `first worker's first message: ${JSON.stringify(w1.init)}`);
      assert(w1.ready === 'module', `first worker's ready should hand over the compiled module: ${w1.ready}`);
      assert(w2.init?.kind === 'engine' && w2.init.module === 'module', `second worker's first message: ${JSON.stringify(w2.init)}`);
      assert(w2.ready === 'null', `second worker compiled the engine again: ready carried ${w2.ready}`);
    });
  } finally {
    await page.close();
  }
}
