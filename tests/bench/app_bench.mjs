// `npm run bench` part: the web app itself on a big trace, in headless Chromium at 1280×720,
// the way a user opens it (the file input). Times: read to the summary, the events tab's first
// page, End (the last event and its detail pane), a timeline brush (the event count of a
// range), the flame graph; and the page's main-thread longest task while reading. A benchmark,
// not a test: it prints numbers (and checks the event count against the native CLI).
//   node tests/bench/app_bench.mjs TRACE
import { statSync } from 'node:fs';
import { basename } from 'node:path';
import { startServer } from '../../scripts/serve.mjs';
import { root, runNative } from '../node/helpers.mjs';
import { launchChromium } from '../browser/harness.mjs';

const trace = process.argv[2];
if (!trace) {
  console.error('usage: node tests/bench/app_bench.mjs TRACE');
  process.exit(2);
}
const size = statSync(trace).size;
const nativeCount = JSON.parse(runNative('summary', trace).stdout.toString('utf8')).eventCount;
const server = await startServer({ root: `${root}build/site`, port: 0 });
const browser = await launchChromium();
const ms = (t0) => (performance.now() - t0).toFixed(0).padStart(7);
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
  await page.addInitScript(() => {
    globalThis.appRoot = () => document.querySelector('nettrace-analyzer')?.shadowRoot ?? document;
    globalThis.__longest = 0;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) globalThis.__longest = Math.max(globalThis.__longest, e.duration);
    }).observe({ type: 'longtask', buffered: true });
  });
  await page.goto(server.url);
  console.log(`app bench: ${basename(trace)} (${(size / 2 ** 20).toFixed(0)} MiB, ${nativeCount.toLocaleString('en-US')} events), Chromium, 1280×720`);
  // The page starts its engine worker at load; a user's drop comes after that.
  await page.waitForSelector('#drop[data-engine="ready"]', { state: 'attached', timeout: 60_000 });
  let t0 = performance.now();
  await page.setInputFiles('#file', trace);
  await page.waitForSelector('#result[data-state="done"]', { timeout: 600_000 });
  const readMs = performance.now() - t0;
  const longest = await page.evaluate(() => globalThis.__longest);
  const status = await page.textContent('#status');
  const shown = Number(status.match(/([\d,]+) events/)[1].replace(/,/g, ''));
  // The page's own figure: from the drop event to the summary on screen.
  console.log(`  drop to summary (page) ${(Number(status.match(/in ([\d.]+) s/)[1]) * 1000).toFixed(0).padStart(6)} ms`);
  console.log(`  read to summary       ${ms(t0)} ms  (${(size / 2 ** 20 / (readMs / 1000)).toFixed(0)} MiB/s; longest main-thread task ${longest.toFixed(0)} ms; ${shown === nativeCount ? 'count = native' : `COUNT ${shown} ≠ native ${nativeCount}`})`);
  t0 = performance.now();
  await page.click('#tab-events');
  await page.waitForFunction(() => appRoot().getElementById('event-scroller').dataset.total !== undefined, null, { timeout: 600_000 });
  console.log(`  events: first page    ${ms(t0)} ms`);
  t0 = performance.now();
  await page.focus('#event-scroller');
  await page.keyboard.press('End');
  await page.waitForSelector(`#event-detail[data-index="${nativeCount - 1}"]`, { timeout: 600_000 });
  console.log(`  events: End + detail  ${ms(t0)} ms`);
  const box = await page.locator('#timeline-canvas').boundingBox();
  t0 = performance.now();
  await page.mouse.move(box.x + box.width * 0.4, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.6, box.y + box.height / 2, { steps: 3 });
  await page.mouse.up();
  await page.waitForFunction((n) => Number(appRoot().getElementById('event-scroller').dataset.total) < n, nativeCount, { timeout: 600_000 });
  console.log(`  brush → range count   ${ms(t0)} ms`);
  await page.click('#range-clear');
  t0 = performance.now();
  await page.click('#tab-flame');
  await page.waitForFunction(() => appRoot().getElementById('g-canvas-box').dataset.nodes !== undefined, null, { timeout: 600_000 });
  const nodes = await page.getAttribute('#g-canvas-box', 'data-nodes');
  console.log(`  flame graph           ${ms(t0)} ms  (${Number(nodes).toLocaleString('en-US')} nodes)`);
} finally {
  await browser.close();
  await server.close();
}
