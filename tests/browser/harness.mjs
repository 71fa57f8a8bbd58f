// What every browser check and benchmark script shares: Debian's Chromium launched headless
// the way this machine needs it (as root: no sandbox; no network chatter), and a tiny check
// runner that prints "ok"/"FAIL" lines and a last "N passed, N failed" line.
import { chromium } from 'playwright-core';

/** Flags for headless Chromium as root on a machine without GPU or outside network. */
export const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

/** Launches /usr/bin/chromium (playwright gives it a fresh temporary profile). */
export function launchChromium() {
  return chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS });
}

/**
 * A check runner. `check(name, fn)` runs fn and records ok/FAIL (ONLY=text in the environment
 * runs just the checks whose name contains it); `finish()` prints the count line and exits
 * non-zero when one failed.
 */
export function checkRunner() {
  const results = [];
  async function check(name, fn) {
    if (process.env.ONLY && !name.includes(process.env.ONLY)) return;
    const started = Date.now();
    try {
      await fn();
      results.push(true);
      console.log(`ok   ${name} (${Date.now() - started} ms)`);
    } catch (e) {
      results.push(false);
      console.log(`FAIL ${name}\n     ${String(e?.stack ?? e).split('\n').join('\n     ')}`);
    }
  }
  function finish() {
    const passed = results.filter(Boolean).length;
    console.log(`${passed} passed, ${results.length - passed} failed`);
    process.exit(passed === results.length ? 0 : 1);
  }
  return { check, finish };
}

export function assert(condition, message) {
  if (!condition) throw new Error(message);
}

/** Clicks the analyzer's export `format` (`button[data-export]`), in the header's Export menu. */
export async function clickExport(page, format, menu = '#export-menu') {
  if (!(await page.$eval(menu, (d) => d.open))) await page.click(`${menu} > summary`);
  await page.click(`${menu} button[data-export="${format}"]`);
}

/**
 * The wasm compile work V8 did while `run` ran, from the browser's own trace (a DevTools
 * protocol session on `page`): the functions compiled on their first call (wasm.CompileLazy,
 * by function index) and the optimizing tier's jobs (wasm.TopTierCompilation, with their
 * summed duration in ms). Counts to check or report, never a time to assert on.
 */
export async function wasmCompiles(page, run) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Tracing.start', { traceConfig: { includedCategories: ['v8.wasm'] }, transferMode: 'ReturnAsStream' });
  const result = await run();
  const complete = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
  await cdp.send('Tracing.end');
  const { stream } = await complete;
  let text = '';
  for (;;) {
    const part = await cdp.send('IO.read', { handle: stream });
    text += part.base64Encoded ? Buffer.from(part.data, 'base64').toString('utf8') : part.data;
    if (part.eof) break;
  }
  await cdp.send('IO.close', { handle: stream });
  await cdp.detach();
  const events = JSON.parse(text).traceEvents ?? [];
  const topTier = events.filter((e) => e.name === 'wasm.TopTierCompilation');
  return {
    result,
    lazy: events.filter((e) => e.name === 'wasm.CompileLazy').map((e) => e.args?.func_index),
    topTierJobs: topTier.length,
    topTierMs: topTier.reduce((sum, e) => sum + (e.dur ?? 0), 0) / 1000,
  };
}
