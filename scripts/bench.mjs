// Timing of a whole-file read, the same trace three ways, in one run:
//   native      `build/native/nettrace summary FILE` as a process
//   wasm-node   the package API in this Node process: openTrace(path), as the npm CLI reads
//               (FileHandle reads, 4 MiB, 2 ahead), a fresh wasm instance per run (compiled
//               again: its hot functions start on V8's baseline tier)
//   wasm-node-warm  the same on one shared instance, after one untimed read (optimised code)
//   wasm-chrome the package in headless Chromium: openTrace(File) from a page, engine in its
//               module worker (a fresh worker and wasm instance per trace, the File's stream
//               read included: by a file reader worker from 32 MiB), after one untimed warm-up read; then in the page's thread too (a
//               warm, shared instance) to read the wasm heap size
//   wasm-chrome-warm  the same, each open in a worker that prewarmEngine() started and that
//               reported ready before the timed open (the app's path: its page prewarms the
//               engine when it loads); interleaved with the wasm-chrome runs
// Median of RUNS runs each; MB/s, events/s, the wasm/native ratio, and peak wasm memory (the
// linear memory size after the read, on a fresh engine instance: wasm memory never shrinks,
// so that is its peak).
//
//   node scripts/bench.mjs FILE [--runs N] [--dist DIR]
// --dist: the package build to time (default dist/; a directory under the repository, e.g. a
// copy of an earlier build, to compare two builds in the same conditions).
import { spawnSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { join, basename } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../', import.meta.url));
const args = process.argv.slice(2);
const runsAt = args.indexOf('--runs');
const RUNS = runsAt >= 0 ? Number(args[runsAt + 1]) : 5;
const distAt = args.indexOf('--dist');
const dist = distAt >= 0 ? args[distAt + 1].replace(/\/+$/, '') : 'dist';
const file = args.find((a, i) => !a.startsWith('--') && args[i - 1] !== '--runs' && args[i - 1] !== '--dist');
const size = statSync(file).size;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const mib = (n) => `${(n / 1048576).toFixed(1)} MiB`;
const rows = [];

function report(label, seconds, events, extra = '') {
  rows.push({ label, seconds });
  console.log(
    `${label.padEnd(16)} median ${(seconds * 1000).toFixed(1).padStart(9)} ms ` +
      `${(size / 1e6 / seconds).toFixed(1).padStart(8)} MB/s ${Math.round(events / seconds).toLocaleString('en-US').padStart(12)} events/s${extra}`,
  );
}

console.log(`${basename(file)}: ${size.toLocaleString('en-US')} bytes, ${RUNS} runs each, ${dist}/`);

// --- native
const nativeTimes = [];
let events = 0;
let nativeSummary = '';
for (let i = 0; i < RUNS; i++) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(join(root, 'build/native/nettrace'), ['summary', file], { maxBuffer: 1 << 28 });
  nativeTimes.push(Number(process.hrtime.bigint() - t0) / 1e9);
  if (r.status !== 0) throw new Error(`nettrace summary failed: ${r.stderr}`);
  nativeSummary = r.stdout.toString('utf8');
  events = JSON.parse(nativeSummary).eventCount;
}
report('native', median(nativeTimes), events);

// --- wasm in Node, through the package API (dist/)
const { openTrace, engineHeapStats } = await import(join(root, dist, 'index.js'));
const wasmBinary = readFileSync(join(root, dist, 'nettrace_wasm.wasm'));
const nodeTimes = [];
let nodePeak = 0;
for (let i = 0; i < RUNS; i++) {
  // A fresh engine instance per run (wasmBinary given).
  const t0 = process.hrtime.bigint();
  const trace = await openTrace(file, { wasmBinary });
  nodeTimes.push(Number(process.hrtime.bigint() - t0) / 1e9);
  if (trace.summaryJson() + '\n' !== nativeSummary) throw new Error('wasm and native summaries differ');
  trace.close();
}
{
  // Peak memory: the shared instance, fresh in this process, after one read.
  const before = await engineHeapStats();
  const trace = await openTrace(file);
  const loaded = await engineHeapStats();
  trace.close();
  nodePeak = loaded.heapSize;
  console.log(`# wasm heap (node): ${mib(before.heapSize)} before, ${mib(loaded.heapSize)} after the read (malloc in use ${mib(loaded.allocated)})`);
}
report('wasm-node', median(nodeTimes), events, `   peak wasm heap ${mib(nodePeak)}`);
// The shared instance, warmed by the read above.
const warmNodeTimes = [];
for (let i = 0; i < RUNS; i++) {
  const t0 = process.hrtime.bigint();
  const trace = await openTrace(file);
  warmNodeTimes.push(Number(process.hrtime.bigint() - t0) / 1e9);
  if (trace.summaryJson() + '\n' !== nativeSummary) throw new Error('wasm and native summaries differ');
  trace.close();
}
report('wasm-node-warm', median(warmNodeTimes), events);

// --- wasm in Chromium
let chrome = null;
try {
  chrome = await benchChromium();
} catch (e) {
  console.log(`wasm-chrome  skipped: ${e.message.split('\n')[0]}`);
}
if (chrome) {
  if (chrome.summaryJson + '\n' !== nativeSummary) throw new Error('Chromium and native summaries differ');
  report('wasm-chrome', median(chrome.workerTimes), events, `   peak wasm heap ${mib(chrome.heapSize)} (main-thread run: ${(median(chrome.mainTimes) * 1000).toFixed(0)} ms)`);
  report('wasm-chrome-warm', median(chrome.warmTimes), events);
}

const nativeMedian = median(nativeTimes);
console.log(`wasm-node / native time ratio:   ${(median(nodeTimes) / nativeMedian).toFixed(2)}`);
console.log(`wasm-node-warm / native time ratio: ${(median(warmNodeTimes) / nativeMedian).toFixed(2)}`);
if (chrome) {
  console.log(`wasm-chrome / native time ratio: ${(median(chrome.workerTimes) / nativeMedian).toFixed(2)}`);
  console.log(`wasm-chrome-warm / native time ratio: ${(median(chrome.warmTimes) / nativeMedian).toFixed(2)}`);
}

async function benchChromium() {
  const { launchChromium } = await import('../tests/browser/harness.mjs');
  const { startServer } = await import('./serve.mjs');
  const server = await startServer({ root, port: 0 });
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    await page.goto(`${server.url}tests/browser/package_page.html`);
    const input = await page.$('#file');
    await input.setInputFiles(file);
    return await page.evaluate(async ([runs, dist]) => {
      const { openTrace, engineHeapStats, prewarmEngine } = await import(`/${dist}/index.js`);
      const f = document.getElementById('file').files[0];
      const workerTimes = [];
      const warmTimes = [];
      let summaryJson = '';
      // One untimed read first: Chromium's first read of a disk-backed File is markedly slower
      // (measured 10.7 s vs 7.5-8 s on the 1.1 GB trace), and Node reads from a warm page cache.
      (await openTrace(f)).close();
      for (let i = 0; i < runs; i++) {
        const t0 = performance.now();
        const trace = await openTrace(f); // engine in a module worker
        workerTimes.push((performance.now() - t0) / 1000);
        summaryJson = trace.summaryJson();
        trace.close();
        // The app's path: a worker started ahead, ready (engine loaded and warmed) before the open.
        await prewarmEngine();
        const t1 = performance.now();
        const warm = await openTrace(f);
        warmTimes.push((performance.now() - t1) / 1000);
        if (warm.summaryJson() !== summaryJson) throw new Error('prewarmed and fresh worker summaries differ');
        warm.close();
      }
      // In the page's thread, to read the heap size of a fresh shared instance.
      const mainTimes = [];
      let heapSize = 0;
      for (let i = 0; i < Math.min(runs, 3); i++) {
        const t0 = performance.now();
        const trace = await openTrace(f, { worker: false });
        mainTimes.push((performance.now() - t0) / 1000);
        if (i === 0) heapSize = (await engineHeapStats()).heapSize;
        trace.close();
      }
      return { workerTimes, warmTimes, mainTimes, heapSize, summaryJson };
    }, [RUNS, dist]);
  } finally {
    await browser.close();
    await server.close();
  }
}
