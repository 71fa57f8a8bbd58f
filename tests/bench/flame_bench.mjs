// Flame-graph drawing in headless Chromium (`npm run bench`; a benchmark, never a test):
// the FlameGraph view (web/src/views/flame_view.ts) on a 1280 × 720 css px canvas
// (tests/bench/flame_page.html), fed by the package API (engine in its worker), at
// devicePixelRatio 1 and 2. Timed, each with a 1-pixel readback so that rasterizing counts:
//   first draw   setData() of the whole graph on a fresh page, which draws it (cold code; the
//                engine's time to lay the graph out and hand it over, trace.flameGraph, is
//                shown apart); then 4 more setData() of the same graph (warm)
//   zoom in      zoomTo() 40 nodes of depth 1-6 at least 1% wide (from the root view)
//   zoom out     zoomTo(0) after each of those
//   hover        a mousemove + the view's frame work, 200 positions over the canvas
//   search       search() with 12 queries, then clear; 3 passes
//   toggle       setRootAtBottom() flipping, 40 times
// The first draw is of a fresh page (cold code); the interactions follow one untimed pass of
// each.
// Five rounds (fresh pages) per ratio; per interaction the round with the lowest p95 is
// shown (first draw: all rounds), since other processes' bursts land in single rounds
// on a shared machine (the load average is printed first). Prints median and p95 per
// interaction and a PASS/FAIL line per ratio against the target: every interaction p95 <
// 16 ms (one frame at 60 Hz), first draw (cold) median < 100 ms.
//
//   node tests/bench/flame_bench.mjs TRACE [--event NAME] [--view URL-PATH]
//   (--view /build/bench/before/views/flame_view.js measures another build of the view)
import { cpus, loadavg } from 'node:os';
import { basename, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer } from '../../scripts/serve.mjs';
import { launchChromium } from '../browser/harness.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const file = args.find((a, i) => !a.startsWith('--') && !args[i - 1]?.startsWith('--'));
const event = option('--event', 'cpu');
const view = option('--view', '/build/site/views/flame_view.js');
const FRAME_MS = 16;
const ROUNDS = 5;
const FIRST_DRAW_MS = 100;

const quantile = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
};

const server = await startServer({ root, port: 0 });
const browser = await launchChromium();
console.log(`flame-chrome: ${basename(file)}, load average ${loadavg().map((x) => x.toFixed(2)).join(' ')} on ${cpus().length} cores`);
let allPass = true;
try {
  for (const ratio of [1, 2]) {
    const rounds = [];
    for (let round = 0; round < ROUNDS; round++) rounds.push(await measure(ratio));
    const r = rounds[0];
    console.log(`flame-chrome devicePixelRatio ${r.ratio}: ${r.nodes.toLocaleString('en-US')} nodes, canvas 1280 × 720 css px, best of ${ROUNDS} rounds`);
    const failures = [];
    for (const r of rounds) [r.cold, r.again] = [[r.first[0]], r.first.slice(1)];
    for (const [key, label] of [['cold', 'first draw'], ['again', 'setData again'], ['zoomIn', 'zoom in'], ['zoomOut', 'zoom out'], ['hover', 'hover'], ['search', 'search'], ['toggle', 'flame/icicle']]) {
      // The round with the lowest p95 (first draw: median): other processes' bursts land in
      // single rounds.
      // The first draw is one sample per round: all rounds count.
      const pick = key === 'again' ? 0.5 : 0.95;
      const times = key === 'cold' ? rounds.map((x) => x.cold[0]) : rounds.map((x) => x[key]).sort((a, b) => quantile(a, pick) - quantile(b, pick))[0];
      const med = quantile(times, 0.5);
      const p95 = quantile(times, 0.95);
      const note = { cold: ', one per round: a fresh page, cold code', again: ', warm' }[key] ?? '';
      console.log(`  ${label.padEnd(13)} median ${med.toFixed(2).padStart(7)} ms   p95 ${p95.toFixed(2).padStart(7)} ms   (${times.length} runs${note})`);
      if (key === 'cold' ? med >= FIRST_DRAW_MS : key !== 'again' && p95 >= FRAME_MS) failures.push(label);
    }
    const engine = quantile(rounds.flatMap((x) => x.engine), 0.5);
    console.log(`  (before the first draw: the engine's layout in its worker + transfer, median ${engine.toFixed(1)} ms)`);
    const pass = failures.length === 0;
    allPass &&= pass;
    console.log(`  ${pass ? 'PASS' : 'FAIL'}: target every interaction p95 < ${FRAME_MS} ms, first draw median < ${FIRST_DRAW_MS} ms${pass ? '' : ` (over: ${failures.join(', ')})`}`);
  }
} finally {
  await browser.close();
  await server.close();
}
console.log(`flame-chrome: ${allPass ? 'PASS' : 'FAIL'} at devicePixelRatio 1 and 2`);

/** One round at one ratio: a fresh page, the trace opened, every interaction timed. */
async function measure(ratio) {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 }, deviceScaleFactor: ratio });
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(`${server.url}tests/bench/flame_page.html?view=${encodeURIComponent(view)}`);
  await page.waitForSelector('body[data-ready="true"]');
  const r = await page.evaluate(
    async ({ url, event }) => {
      const { flame, open, hover, settle, trace } = window.flamePage;
      const { data } = await open(url, { event });
      const engine = [];
      for (let i = 0; i < 3; i++) {
        const t0 = performance.now();
        await trace().flameGraph({ event });
        engine.push(performance.now() - t0);
      }
      const time = (fn) => {
        const t0 = performance.now();
        fn();
        settle();
        return performance.now() - t0;
      };
      const out = { nodes: data.frame.length, ratio: devicePixelRatio, engine, first: [], zoomIn: [], zoomOut: [], hover: [], search: [], toggle: [] };
      for (let i = 0; i < 5; i++) out.first.push(time(() => flame.setData(data)));
      // One untimed pass over every interaction first: the timings are of warm (JIT-compiled) code.
      for (const q of ['Render', 'zzz', '']) flame.search(q);
      flame.setRootAtBottom(true);
      flame.setRootAtBottom(false);
      flame.zoomTo(1);
      hover(100, 30);
      flame.zoomTo(0);
      // Zoom targets: 40 nodes of depth 1-6 at least 1% of the total wide, spread over the graph.
      const wide = [];
      for (let i = 1; i < data.frame.length; i++) {
        if (data.depth[i] <= 6 && data.end[i] - data.start[i] >= data.total / 100) wide.push(i);
      }
      const targets = Array.from({ length: Math.min(40, wide.length) }, (_, k) => wide[Math.floor((k * wide.length) / Math.min(40, wide.length))]);
      for (const node of targets) {
        out.zoomIn.push(time(() => flame.zoomTo(node)));
        out.zoomOut.push(time(() => flame.zoomTo(0)));
      }
      const rows = data.depth.reduce((a, b) => Math.max(a, b), 0) + 1;
      for (let k = 0; k < 200; k++) {
        const x = ((k * 37) % 200) * 6.4 + 3;
        const y = (k % rows) * 18 + 9;
        out.hover.push(time(() => hover(x, y)));
      }
      const queries = ['Layer1.', 'Render', 'Component3', 'Item2', 'Parse', 'Layer20', 'zzz', 'Bench', 'Store', 'Layer7.Component1', 'Dispatch', 'Load', ''];
      for (let pass = 0; pass < 3; pass++) for (const q of queries) out.search.push(time(() => flame.search(q)));
      for (let k = 0; k < 40; k++) out.toggle.push(time(() => flame.setRootAtBottom(k % 2 === 0)));
      return out;
    },
    { url: `/${relative(root, file)}`, event },
  );
  if (errors.length > 0) throw new Error(`page errors: ${errors.join('; ')}`);
  await page.close();
  return r;
}
