// Browser check of the Diagnostics tab (web/src/views/event_views_view.ts) in the built app
// (build/site), in Debian's Chromium: for .NET 10 traces recorded from the scenario program
// (tests/data/dotnet10/MANIFEST.md), each of the five views shows exactly the document
// `build/native/nettrace exceptions|contention|activities|counters|threadpool FILE` prints, and its
// tables show that document's rows (types and counts, waits, activity percentiles, counter
// totals). Prints "N passed, N failed" last; exits non-zero on any failure.
//
//   node tests/browser/event_views_check.mjs   (after scripts/build.sh)
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { startServer } from '../../scripts/serve.mjs';
import { root, runNative, testdata } from '../node/helpers.mjs';
import { assert, checkRunner, launchChromium } from './harness.mjs';

mkdirSync(join(root, 'build/screenshots'), { recursive: true });
const VIEWS = ['exceptions', 'contention', 'activities', 'counters', 'threadpool'];
const fmt = (n) => new Intl.NumberFormat('en-US').format(n);
const { check, finish } = checkRunner();
const server = await startServer({ root: join(root, 'build/site'), port: 0 });
const browser = await launchChromium();
const page = await browser.newPage({ viewport: { width: 1300, height: 900 } });
await page.addInitScript(() => {
  globalThis.appRoot = () => document.querySelector('nettrace-analyzer')?.shadowRoot ?? document;
});
const pageErrors = [];
page.on('pageerror', (e) => pageErrors.push(String(e)));

/** Opens `path` through the file picker and shows the Diagnostics tab; @returns what each view shows. */
async function diagnosticsOf(path) {
  await page.goto(server.url);
  await page.setInputFiles('#file', path);
  await page.waitForSelector('#result[data-state="done"]', { timeout: 60_000 });
  await page.click('#tab-diagnostics');
  await page.waitForSelector('#diagnostics-box[data-ready="true"]', { timeout: 30_000 });
  return page.evaluate(() => {
    const out = {};
    for (const section of appRoot().querySelectorAll('#diagnostics-box section[data-view]')) {
      out[section.dataset.view] = {
        json: section.querySelector('pre.view-json').textContent,
        title: section.querySelector('h3').textContent,
        tables: [...section.querySelectorAll('table')].map((t) => [...t.querySelectorAll('tbody tr')].map((r) => [...r.cells].map((c) => c.textContent))),
        totals: [...section.querySelectorAll('.wait-totals')].map((p) => p.textContent),
      };
    }
    return out;
  });
}

const native = (view, path) => runNative(view, path).stdout.toString('utf8');

try {
  const eventsource = join(testdata, 'dotnet10/net10-eventsource.nettrace');
  const shown = await diagnosticsOf(eventsource);

  await page.screenshot({ path: join(root, 'build/screenshots/diagnostics.png'), fullPage: true });
  await check('Diagnostics: each view is the native tool\'s document (net10-eventsource)', async () => {
    for (const view of VIEWS) assert(shown[view].json + '\n' === native(view, eventsource), `${view}: the page's JSON differs from nettrace ${view}`);
  });

  await check('Diagnostics: exceptions table = the JSON\'s types, counts and throwing methods', async () => {
    const doc = JSON.parse(native('exceptions', eventsource));
    const rows = shown.exceptions.tables[0];
    assert(shown.exceptions.title === `Exceptions (${fmt(doc.count)} thrown, caught: ${fmt(doc.caught)})`, shown.exceptions.title);
    assert(rows.length === doc.types.length, `${rows.length} rows`);
    doc.types.forEach((t, i) => {
      assert(rows[i][0] === t.type && rows[i][1] === fmt(t.count) && rows[i][2] === fmt(t.caught), `row ${i}: ${rows[i]}`);
      assert(rows[i][3] === t.throwingMethods.map((m) => `${m.method} (${fmt(m.count)})`).join('; '), `row ${i} methods: ${rows[i][3]}`);
    });
    assert(rows.map((r) => r[1]).join() === '7,3,2,1', rows.map((r) => r[1]).join());
  });

  await check('Diagnostics: contention totals and per-lock waits = the JSON', async () => {
    const doc = JSON.parse(native('contention', eventsource));
    const ms = (ns) => (ns / 1e6).toFixed(3);
    assert(shown.contention.totals[0].startsWith(`Lock contention: ${fmt(doc.lock.waits)} waits, ${ms(doc.lock.totalNs)} ms in all`), shown.contention.totals[0]);
    const byLock = shown.contention.tables[1];
    const expected = [...doc.lock.byLock].sort((a, b) => b.count - a.count);
    assert(byLock.length === 2 && byLock.map((r) => r[2]).join() === expected.map((l) => fmt(l.count)).join(), JSON.stringify(byLock));
    assert(byLock.map((r) => r[2]).join() === '8,4', byLock.map((r) => r[2]).join());
  });

  await check('Diagnostics: activity percentiles per name = the JSON (4 requests, 8 phases, 16 steps)', async () => {
    const doc = JSON.parse(native('activities', eventsource));
    const rows = shown.activities.tables[0];
    assert(rows.length === doc.names.length, `${rows.length} rows`);
    doc.names.forEach((n, i) => {
      const cells = [n.provider, n.name, fmt(n.count), fmt(n.finished), n.p50Ms.toFixed(3), n.p90Ms.toFixed(3), n.p99Ms.toFixed(3), n.maxMs.toFixed(3)];
      assert(JSON.stringify(rows[i]) === JSON.stringify(cells), `row ${i}: ${rows[i]} != ${cells}`);
    });
    const finished = Object.fromEntries(rows.filter((r) => r[0] === 'TraceScenarios-Activities').map((r) => [r[1], r[3]]));
    assert(finished.Request === '4' && finished.Phase === '8' && finished.Step === '16', JSON.stringify(finished));
  });

  const countersTrace = join(testdata, 'dotnet10/net10-counters.nettrace');
  const counters = await diagnosticsOf(countersTrace);
  await check('Diagnostics: counters series and totals = the JSON (net10-counters)', async () => {
    for (const view of VIEWS) assert(counters[view].json + '\n' === native(view, countersTrace), `${view}: the page's JSON differs`);
    const doc = JSON.parse(native('counters', countersTrace));
    const rows = counters.counters.tables[0];
    assert(rows.length === doc.series.length, `${rows.length} rows`);
    const total = (name) => rows.find((r) => r[1] === name)?.[6];
    assert(total('requests') === '25' && total('bytes') === '32,500', `${total('requests')} ${total('bytes')}`);
    assert(total('orders [region=eu]') === '13' && total('orders [region=us]') === '12', `${total('orders [region=eu]')}`);
  });

  // Every Metrics instrument kind (MANIFEST.md "instruments"): Last is what dotnet-counters shows
  // (an UpDownCounter's value, not its last change), and a series whose first sample has no value
  // (an ObservableCounter's first rate) draws its line without it: no NaN, no console error.
  const consoleErrors = [];
  page.on('console', (m) => m.type() === 'error' && consoleErrors.push(m.text()));
  const instrumentsTrace = join(testdata, 'dotnet10/net10-servergc-instruments-gcverbose.nettrace');
  const instruments = await diagnosticsOf(instrumentsTrace);
  await check('Diagnostics: counters Last = dotnet-counters\' value per instrument kind, sparklines without NaN (net10-servergc-instruments)', async () => {
    const rows = instruments.counters.tables[0];
    const last = (name) => rows.find((r) => r[0] === 'TraceScenarios.Instruments' && r[1] === name)?.[5];
    assert(last('in-flight') === '40' && last('connections') === '10' && last('queue-depth') === '6' && last('temperature') === '30',
      `${last('in-flight')} ${last('connections')} ${last('queue-depth')} ${last('temperature')}`);
    const lines = await page.evaluate(() =>
      [...appRoot().querySelectorAll('#diagnostics-box section[data-view="counters"] svg.sparkline polyline')].map((l) => l.getAttribute('points')));
    assert(lines.length > 0 && lines.every((p) => !p.includes('NaN')), `${lines.filter((p) => p.includes('NaN')).length} lines with NaN`);
    assert(consoleErrors.length === 0, consoleErrors.join('\n'));
  });

  // The thread pool section where the program forced starvation (MANIFEST.md "threadpool").
  const httpTrace = join(testdata, 'dotnet10/net10-cpu-async-http.nettrace');
  const http = await diagnosticsOf(httpTrace);
  await page.screenshot({ path: join(root, 'build/screenshots/diagnostics-threadpool.png'), fullPage: true });
  await check('Diagnostics: thread pool adjustments, starvation rows and worker step chart = the JSON (net10-cpu-async-http)', async () => {
    for (const view of VIEWS) assert(http[view].json + '\n' === native(view, httpTrace), `${view}: the page's JSON differs`);
    const doc = JSON.parse(native('threadpool', httpTrace));
    const rows = http.threadpool.tables[0];
    assert(rows.length === doc.adjustments.length, `${rows.length} rows`);
    doc.adjustments.forEach((a, i) => {
      const cells = [a.timeMs.toFixed(3), a.reason, fmt(a.newWorkerThreadCount), a.averageThroughput.toFixed(3), String(a.thread)];
      assert(JSON.stringify(rows[i]) === JSON.stringify(cells), `row ${i}: ${rows[i]} != ${cells}`);
    });
    const drawn = await page.evaluate(() => {
      const s = appRoot().querySelector('#diagnostics-box section[data-view="threadpool"]');
      return {
        starved: [...s.querySelectorAll('tbody tr.starvation')].map((r) => r.cells[1].textContent),
        points: s.querySelector('svg.step-chart polyline')?.getAttribute('points').split(' ').length ?? 0,
      };
    });
    assert(drawn.starved.length === doc.starvationAdjustments && doc.starvationAdjustments >= 2, JSON.stringify(drawn.starved));
    assert(drawn.starved.every((r) => r === 'Starvation'), JSON.stringify(drawn.starved));
    assert(drawn.points === 2 * doc.workers.length - 1, `${drawn.points} step points for ${doc.workers.length} changes`);
  });

  await check('Diagnostics: no page errors', async () => {
    assert(pageErrors.length === 0, pageErrors.join('\n'));
  });
} finally {
  await browser.close();
  await server.close();
}
finish();
