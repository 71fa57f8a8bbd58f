// `npm run bench` part: what thread time with async stitching costs, native and in the app.
// Native: `nettrace summary` and `nettrace flame` with each weight (best of 3 wall times, the
// process start and the read included, so the difference to the summary is the weight's own
// cost). In headless Chromium: the app opened through its file input with the weight in the
// link (#weight=…&stitch=0), then the time from clicking the Flame graph tab to the graph on
// screen — the read is not in that figure. A benchmark, not a test: it prints numbers, and
// fails only if the app's flame graph has a node count other than the native one's.
//   node tests/bench/thread_time_bench.mjs TRACE [TRACE …]
import { spawnSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { basename } from 'node:path';
import { startServer } from '../../scripts/serve.mjs';
import { nativeTool, root } from '../node/helpers.mjs';
import { launchChromium } from '../browser/harness.mjs';

const traces = process.argv.slice(2);
if (traces.length === 0) {
  console.error('usage: node tests/bench/thread_time_bench.mjs TRACE [TRACE …]');
  process.exit(2);
}

// The weights a CPU-sample trace offers in the app, with the native flags and the link's hash.
const VARIANTS = [
  { name: 'sample count', args: ['--weight', 'count'], hash: 'weight=count' },
  { name: 'thread time, no stitching', args: ['--weight', 'traceevent-thread-time', '--no-stitch-async'], hash: 'weight=traceevent-thread-time&stitch=0' },
  { name: 'thread time + stitching', args: ['--weight', 'traceevent-thread-time', '--stitch-async'], hash: 'weight=traceevent-thread-time' },
];

function bestOf3(args) {
  let best = Infinity;
  let out = '';
  for (let i = 0; i < 3; ++i) {
    const t0 = performance.now();
    const r = spawnSync(nativeTool, args, { env: { ...process.env, LC_ALL: 'C', TZ: 'UTC' }, maxBuffer: 1 << 30 });
    const t = performance.now() - t0;
    if (r.status !== 0) throw new Error(`nettrace ${args.join(' ')}: ${r.stderr}`);
    best = Math.min(best, t);
    out = r.stdout;
  }
  return { ms: best, stdout: out };
}

const nodesOf = (flameJson) => JSON.parse(flameJson.toString("utf8")).frame.length;
const signed = (ms) => `${ms >= 0 ? '+' : '−'}${Math.abs(ms).toFixed(0)} ms`;
const fmt = (ms) => `${ms.toFixed(0).padStart(6)} ms`;

const server = await startServer({ root: `${root}build/site`, port: 0 });
const browser = await launchChromium();
let failed = false;
try {
  for (const trace of traces) {
    const mib = (statSync(trace).size / 2 ** 20).toFixed(1);
    console.log(`thread time bench: ${basename(trace)} (${mib} MiB)`);
    const summary = bestOf3(['summary', trace]);
    console.log(`  native summary (read only)            ${fmt(summary.ms)}`);
    for (const v of VARIANTS) {
      const native = bestOf3(['flame', trace, ...v.args, '--format', 'json']);
      const nativeNodes = nodesOf(native.stdout);
      const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
      await page.addInitScript(() => {
        globalThis.appRoot = () => document.querySelector('nettrace-analyzer')?.shadowRoot ?? document;
      });
      await page.goto(`${server.url}#${v.hash}`);
      await page.waitForSelector('#drop[data-engine="ready"]', { state: 'attached', timeout: 60_000 });
      await page.setInputFiles('#file', trace);
      await page.waitForSelector('#result[data-state="done"]', { timeout: 600_000 });
      const t0 = performance.now();
      await page.click('#tab-flame');
      await page.waitForFunction(() => appRoot().getElementById('g-canvas-box').dataset.nodes !== undefined, null, { timeout: 600_000 });
      const pageMs = performance.now() - t0;
      const pageNodes = Number(await page.getAttribute('#g-canvas-box', 'data-nodes'));
      await page.close();
      const same = pageNodes === nativeNodes;
      failed ||= !same;
      console.log(`  ${v.name.padEnd(27)} native ${fmt(native.ms)} (${signed(native.ms - summary.ms)} over the summary)` +
        `  app: tab → graph ${fmt(pageMs)}  ${nativeNodes.toLocaleString('en-US')} nodes${same ? '' : ` ≠ app ${pageNodes}`}`);
    }
  }
} finally {
  await browser.close();
  await server.close();
}
if (failed) process.exit(1);
