// Browser check of the engine worker's warm-up (web/src/engine/engine_warm_up.ts): once
// prewarmEngine() has settled, an open of a trace shaped like the warm-up's own profile runs
// only code the browser has already compiled — the bindings and the JS reading path of an
// open included, not only the C++ reader. V8 compiles a wasm function on its first call (its
// trace event wasm.CompileLazy); the check counts those events in the browser's own trace (the
// DevTools protocol's Tracing) while the package's openTrace reads the profile and writes its
// summary, in a Chromium of its own (a browser process shares compiled code between its pages:
// a fresh one starts with none). Counts, never times: what the warm-up saves is measured by
// tests/bench/small_open_bench.mjs.
import { launchChromium, wasmCompiles } from './harness.mjs';

export async function warmUpChecks({ repoServer, check, assert }) {
  await check('engine warm-up: after prewarmEngine, an open of the warm-up profile compiles no wasm function', async () => {
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      await page.goto(`${repoServer.url}tests/browser/package_page.html`);
      // The profile's bytes, written by an engine instance of the page's own thread.
      const events = await page.evaluate(async () => {
        const { loadNetTraceModule } = await import('/dist/reader/wasm_loader.js');
        const written = (await loadNetTraceModule()).warmUpTrace();
        if (!written.status.ok) throw new Error(written.status.message);
        window.profile = new Blob([written.bytes]);
        window.pkg = await import('/dist/index.js');
        await window.pkg.prewarmEngine();
        return written.bytes.length;
      });
      assert(events > 0, 'the warm-up profile is empty');
      const { result, lazy } = await wasmCompiles(page, () =>
        page.evaluate(async () => {
          const t = await window.pkg.openTrace(window.profile);
          const summary = t.summary();
          t.close();
          return { eventCount: summary.eventCount, complete: summary.complete };
        }),
      );
      assert(result.complete && result.eventCount > 1000, `the profile read as ${JSON.stringify(result)}`);
      assert(lazy.length === 0, `${lazy.length} wasm functions compiled during the open (indexes ${lazy.join(', ')})`);
    } finally {
      await browser.close();
    }
  });
}
