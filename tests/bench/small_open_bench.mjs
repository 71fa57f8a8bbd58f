// `npm run bench` part: a small trace dropped on the web app against `nettrace summary`, in
// interleaved rounds (headless Chromium, a fresh profile each round, so the browser's HTTP and
// code caches start empty, as on a user's first visit). Per trace and round:
//   native        `nettrace summary FILE`, the process's wall time
//   first load    the app loaded, its engine worker ready (data-engine="ready": compiled, warmed
//                 up, heap readied), then the file dropped: load → ready, and drop → summary shown;
//                 and what V8 compiled during that drop, from Chromium's trace: functions compiled
//                 on their first call, and the optimizing tier's jobs and their compile time
//   next open     a second drop of the same file on that page (the engine worker the first
//                 open started, on the module the first worker compiled)
//   reload        the page loaded again in the same profile: load → ready, drop → summary (the
//                 browser's HTTP cache warm; Chromium 156 kept no compiled code of the engine in
//                 these runs: its trace showed no v8.wasm.cachedModule / moduleCacheHit event)
//   drop at once  the page loaded again and the file dropped without waiting for ready: what
//                 a drop that beats the engine's start-up waits for
//   parts         a first open's parts, each timed alone in a fresh worker (open_parts_worker.mjs):
//                 fetch + streaming compile, instantiate, warm-up, heap readied, read, summary;
//                 and a compile of the same bytes from memory, what sharing the module saves
// Drop → summary is timed from the input's change to #result[data-state="done"] (Playwright's
// round trip included: ~2–5 ms). Medians of ROUNDS (default 3). Target: ≤ 2× native + 50 ms.
// A benchmark, not a test: it prints numbers (and checks each event count against native).
//   node tests/bench/small_open_bench.mjs [--rounds N] [TRACE...]
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { chromium } from 'playwright-core';
import { startServer } from '../../scripts/serve.mjs';
import { root, runNative } from '../node/helpers.mjs';
import { CHROMIUM_ARGS, wasmCompiles } from '../browser/harness.mjs';

const args = process.argv.slice(2);
const roundsAt = args.indexOf('--rounds');
const ROUNDS = roundsAt >= 0 ? Number(args[roundsAt + 1]) : 3;
const given = args.filter((a, i) => !a.startsWith('--') && args[i - 1] !== '--rounds');
// ~2, ~10 and ~30 MB of real traces (build/native/testdata, from tests/data).
const traces = given.length > 0 ? given : [
  'sentry-net6-profile-with-task.nettrace',
  'eventpipe-dotnetcore2.1-linux-x64-objver3.netperf',
  'HeartRateMonitor.10068.nettrace',
].map((name) => `${root}build/native/testdata/${name}`);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const site = await startServer({ root: `${root}build/site`, port: 0 });
const repo = await startServer({ root, port: 0 });
const results = new Map(traces.map((t) => [t, {}]));
const record = (trace, name, value) => (results.get(trace)[name] ??= []).push(value);

async function dropped(page, trace, count) {
  // A state no read sets: the wait below is then for this drop's summary, not the last one's.
  await page.$eval('#result', (e) => (e.dataset.state = 'bench'));
  const t0 = performance.now();
  await page.setInputFiles('#file', trace);
  await page.waitForSelector('#result[data-state="done"]', { timeout: 120_000 });
  const ms = performance.now() - t0;
  const status = await page.textContent('#status');
  const shown = Number(status.match(/([\d,]+) events/)[1].replace(/,/g, ''));
  if (shown !== count) throw new Error(`${basename(trace)}: the page shows ${shown} events, native ${count}`);
  return ms;
}

async function loaded(page) {
  const t0 = performance.now();
  await page.goto(site.url);
  await page.waitForSelector('#drop[data-engine="ready"]', { state: 'attached', timeout: 60_000 });
  return performance.now() - t0;
}

try {
  for (let round = 0; round < ROUNDS; round++) {
    for (const trace of traces) {
      const t0 = performance.now();
      const r = runNative('summary', trace);
      record(trace, 'native', performance.now() - t0);
      const count = JSON.parse(r.stdout.toString('utf8')).eventCount;
      const profile = mkdtempSync(join(tmpdir(), 'small-open-'));
      const context = await chromium.launchPersistentContext(profile, { executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS });
      try {
        let page = await context.newPage();
        record(trace, 'first load: load → ready', await loaded(page));
        const first = await wasmCompiles(page, () => dropped(page, trace, count));
        record(trace, 'first load: drop → summary', first.result);
        // What V8 compiled while the user waited (counts, not times).
        record(trace, 'first drop: functions compiled', first.lazy.length);
        record(trace, 'first drop: optimizing jobs', first.topTierJobs);
        record(trace, 'first drop: their compile ms', first.topTierMs);
        await page.waitForSelector('#drop[data-engine="ready"]', { state: 'attached', timeout: 60_000 });
        record(trace, 'next open: drop → summary', await dropped(page, trace, count));
        await page.close();
        page = await context.newPage();
        record(trace, 'reload: load → ready', await loaded(page));
        record(trace, 'reload: drop → summary', await dropped(page, trace, count));
        await page.close();
        page = await context.newPage();
        const t1 = performance.now();
        await page.goto(site.url);
        await page.setInputFiles('#file', trace);
        await page.waitForSelector('#result[data-state="done"]', { timeout: 120_000 });
        record(trace, 'drop at once: load → summary', performance.now() - t1);
        await page.close();
        page = await context.newPage();
        await page.goto(`${repo.url}tests/bench/open_parts_page.html`);
        await page.waitForSelector('body[data-ready="true"]', { state: 'attached' });
        await page.setInputFiles('#file', trace);
        const parts = await page.evaluate(() => window.openParts());
        if (parts.eventCount !== count) throw new Error(`parts: ${parts.eventCount} events, native ${count}`);
        for (const [name, ms] of Object.entries(parts.ms)) record(trace, `parts: ${name}`, ms);
      } finally {
        await context.close();
        rmSync(profile, { recursive: true, force: true });
      }
    }
  }
  console.log(`small traces in the app (Chromium, a fresh profile a round) vs native; median of ${ROUNDS} interleaved rounds, ms`);
  for (const trace of traces) {
    const r = results.get(trace);
    const native = median(r.native);
    console.log(`${basename(trace)} (${(statSync(trace).size / 1e6).toFixed(1)} MB): target ≤ 2 × native + 50 = ${(2 * native + 50).toFixed(0)} ms`);
    for (const [name, values] of Object.entries(r)) {
      const m = median(values);
      const ratio = name === 'native' || name.startsWith('first drop:') ? '' : `  ${(m / native).toFixed(2)}× native`;
      console.log(`  ${name.padEnd(32)} ${m.toFixed(1).padStart(8)}${ratio}`);
    }
  }
} finally {
  await site.close();
  await repo.close();
}
