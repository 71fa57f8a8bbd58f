// Browser check of `nettrace-analyzer live` against a fake runtime (no dotnet:
// tests/node/fake_runtime.mjs): the runtime sends a real .NET 10 trace slowly, the page's
// event count grows in successive snapshots while it runs, the flame graph can be refreshed
// mid-session, Stop sends StopTracing, and afterwards the page's summary equals the native
// CLI's summary of the .nettrace the page offers for download (which is the runtime's bytes).
// Prints the page's update latency: from the runtime writing a byte to a snapshot including it.
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { testdata } from '../node/helpers.mjs';
import { sessionOk, startLive, withFakeRuntime } from '../node/fake_runtime.mjs';

const TRACE = join(testdata, 'dotnet10/net10-cpu-async-http.nettrace');
const PIECE = 16 * 1024;
const PIECE_MS = 100;
// All but the last 64 KiB before Stop. The runtime sends no further than the check allows:
// a third of the first half, two thirds, the first half (~5 s of a program at work in all),
// each step once the page has shown the previous one, and the rest only once the check has
// read the event table's size. A slow page (a loaded CI machine) can then neither see the
// first half in one snapshot nor find the stream already over when it looks for the table to
// grow, as it did when the whole stream ran on a timer.
const BEFORE_STOP = statSync(TRACE).size - 64 * 1024;
const FIRST_STEPS = [1, 2, 3].map((k) => Math.floor((BEFORE_STOP / 2) * (k / 3)));

/**
 * Sends PIECE every PIECE_MS up to the limit `allow(bytes)` last set (none at first); the
 * rest after StopTracing, then ends.
 */
function slowRuntime(trace, written) {
  let stream = null;
  let timer = null;
  let limit = 0;
  const answer = (req, socket) => {
    if (req[16] === 0x02 && req[17] === 0x01) {
      clearInterval(timer);
      socket.end(sessionOk(7));
      const at = written.at(-1)?.bytes ?? 0;
      stream.end(trace.subarray(at));
      written.push({ at: Date.now(), bytes: trace.length });
      return;
    }
    stream = socket;
    socket.write(sessionOk(7));
    let sent = 0;
    timer = setInterval(() => {
      if (sent >= BEFORE_STOP) return clearInterval(timer);
      if (sent >= limit) return;
      const end = Math.min(limit, sent + PIECE);
      socket.write(trace.subarray(sent, end));
      sent = end;
      written.push({ at: Date.now(), bytes: sent });
    }, PIECE_MS);
  };
  return { answer, allow: (bytes) => void (limit = Math.min(BEFORE_STOP, bytes)) };
}

export async function liveChecks({ browser, check, assert, runNative, screenshots }) {
  await check('live page: counts grow while the session runs; Stop; the download = the runtime bytes; summary = native', async () => {
    const trace = readFileSync(TRACE);
    const written = [];
    const runtime = slowRuntime(trace, written);
    await withFakeRuntime(runtime.answer, async (dir, requests) => {
      const live = startLive(dir, ['--pid', String(process.pid), '--port', '0']);
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
      const pageErrors = [];
      page.on('pageerror', (e) => pageErrors.push(String(e)));
      // Event details are re-read from the server (Range requests on /live/stream), not from a
      // copy of the stream the page would keep.
      let rangeRequests = 0;
      page.on('request', (r) => void (new URL(r.url()).pathname === '/live/stream' && r.headers()['range'] !== undefined && rangeRequests++));
      try {
        const base = await live.url;
        await page.addInitScript(() => {
          globalThis.appRoot = () => document.querySelector('nettrace-analyzer')?.shadowRoot ?? document;
          globalThis.__live = [];
          document.addEventListener('DOMContentLoaded', () => {
            document.querySelector('nettrace-analyzer').addEventListener('live', (e) =>
              globalThis.__live.push({ at: Date.now(), events: e.detail.summary.eventCount, bytes: e.detail.summary.bytesRead }),
            );
          });
        });
        await page.goto(base);
        // Three successive snapshots, each with more events, before Stop: one per step the
        // runtime is allowed to send.
        let seen = 0;
        for (const step of FIRST_STEPS) {
          runtime.allow(step);
          await page.waitForFunction((n) => globalThis.__live.some((s) => s.events > n), seen, { timeout: 30_000, polling: 50 });
          seen = await page.evaluate(() => Math.max(...globalThis.__live.map((s) => s.events)));
        }
        // The event table grows under the reader, who keeps their place in it.
        await page.click('#tab-events');
        await page.waitForFunction(() => Number(appRoot().getElementById('event-scroller').dataset.total ?? 0) > 100, null, { timeout: 30_000 });
        const before = await page.evaluate(() => {
          const scroller = appRoot().getElementById('event-scroller');
          scroller.scrollTop = 1000;
          return { total: Number(scroller.dataset.total), top: scroller.scrollTop };
        });
        // The reader selects an event; it stays selected (the same event, found again by its
        // identity: late events merged before it would move its row) as the table grows.
        // The rows are drawn on the next animation frame after the scroll: wait for the rows at
        // the new position (24 px rows), or the click would select a row of the old position
        // and bring it back into view, moving the table.
        await page.waitForFunction((top) => {
          const first = appRoot().querySelector('#event-scroller .vt-row[data-index]');
          return first !== null && Number(first.dataset.row) >= Math.floor(top / 24);
        }, before.top, { timeout: 30_000 });
        const picked = await page.evaluate(() => {
          const rows = [...appRoot().querySelectorAll('#event-scroller .vt-row[data-index]')];
          const row = rows[Math.min(2, rows.length - 1)];
          row.click();
          return { row: Number(row.dataset.row), time: row.querySelector('.c-time').textContent, thread: row.querySelector('.c-thread').textContent, name: row.querySelector('.c-event').textContent };
        });
        // Only now does the runtime send the second half: the table has events to grow by.
        runtime.allow(BEFORE_STOP);
        await page
          .waitForFunction((n) => Number(appRoot().getElementById('event-scroller').dataset.total) > n, before.total, { timeout: 30_000 })
          .catch(async (e) => {
            const now = await page.evaluate(() => ({ rows: appRoot().getElementById('result').dataset.liveRows, total: appRoot().getElementById('event-scroller').dataset.total, live: globalThis.__live.slice(-3) }));
            throw new Error(`the event table did not grow from ${before.total}: ${JSON.stringify(now)}\n${e.message}`);
          });
        const after = await page.evaluate(() => {
          const scroller = appRoot().getElementById('event-scroller');
          return { total: Number(scroller.dataset.total), top: scroller.scrollTop, rows: scroller.querySelectorAll('[role="row"]').length };
        });
        assert(after.top === before.top && after.rows > 0, `the table moved: ${JSON.stringify({ before, after })}`);
        const kept = await page.evaluate(() => {
          const row = appRoot().querySelector('#event-scroller .vt-row.selected');
          const detail = appRoot().getElementById('event-detail');
          return row === null ? null : { row: Number(row.dataset.row), time: row.querySelector('.c-time')?.textContent, thread: row.querySelector('.c-thread')?.textContent, name: row.querySelector('.c-event')?.textContent, detail: detail.querySelector('h3')?.textContent ?? '' };
        });
        assert(kept !== null && kept.time === picked.time && kept.thread === picked.thread && kept.name === picked.name && kept.detail.endsWith(`/ ${picked.name}`),
          `the selection did not stay on the event: ${JSON.stringify({ picked, kept })}`);
        await page.waitForFunction(() => appRoot().getElementById('event-detail').querySelector('h4') !== null, null, { timeout: 30_000 });
        const detailText = await page.evaluate(() => appRoot().getElementById('event-detail').textContent);
        assert(!/could not be re-read|Could not read/.test(detailText) && rangeRequests > 0, `the details were not re-read from the server (${rangeRequests} range requests): ${detailText.slice(0, 200)}`);
        console.log(`     selected event kept: row ${picked.row} → ${kept.row} (${picked.name} at ${picked.time} ms); details re-read by ${rangeRequests} range requests`);
        console.log(`     event table mid-session: ${before.total} → ${after.total} rows, scroll position kept`);
        // What the page shows mid-session: the status line, the event table's rows.
        const mid = await page.evaluate(() => ({
          state: appRoot().getElementById('result').dataset.state,
          status: appRoot().getElementById('status').textContent,
          rows: Number(appRoot().getElementById('result').dataset.liveRows),
        }));
        assert(mid.state === 'live', `state ${mid.state}`);
        assert(/^Live: [\d,]+ events read/.test(mid.status), mid.status);
        // The flame graph, refreshed mid-session, weighs the samples read so far.
        await page.click('#tab-flame');
        await page.click('[data-role="refresh-flame"]');
        await page.waitForFunction(() => Number(appRoot().getElementById('g-canvas-box').dataset.total ?? 0) > 0, null, { timeout: 30_000 });
        const midTotal = await page.evaluate(() => Number(appRoot().getElementById('g-canvas-box').dataset.total));
        // One control ends the session, and says so: no progress bar (a stream has no size to
        // fill it against) and no Cancel of the analyzer's beside the bar's Stop.
        const controls = await page.evaluate(() => ({
          progress: appRoot().getElementById('progress').hidden,
          cancel: appRoot().getElementById('cancel').hidden,
          stop: document.querySelector('[data-role="stop"]').textContent,
          unnamed: appRoot().getElementById('g-unnamed').hidden ? null : appRoot().getElementById('g-unnamed').textContent,
        }));
        assert(controls.progress && controls.cancel && controls.stop === 'Stop recording', `live controls: ${JSON.stringify(controls)}`);
        // Before Stop the runtime has not written its rundown: the flame graph says why its
        // frames are unnamed and what names them; once the session has ended, they are named.
        assert(/until the session stops/.test(controls.unnamed ?? '') && /Stop/.test(controls.unnamed), `mid-session flame graph note: ${controls.unnamed}`);
        assert(requests.length === 1, 'no StopTracing before Stop');
        await page.click('[data-role="stop"]');
        await page.waitForSelector('body[data-live="ended"]', { timeout: 30_000 });
        await page.waitForSelector('#result[data-state="done"]', { timeout: 30_000 });
        await page.waitForFunction(() => appRoot().getElementById('g-unnamed').hidden, null, { timeout: 30_000 })
          .catch(async () => assert(false, `after Stop: ${await page.textContent('#g-unnamed')}`));
        assert(requests.length === 2 && requests[1].subarray(16, 18).toString('hex') === '0201', 'Stop sent StopTracing');
        const shown = await page.evaluate(() => JSON.parse(appRoot().getElementById('summary').textContent));
        const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-role="download"]')]);
        const saved = join(dir, 'downloaded.nettrace');
        await download.saveAs(saved);
        assert(readFileSync(saved).equals(trace), 'the download is the bytes the runtime sent');
        const native = JSON.parse(runNative('summary', saved).stdout.toString('utf8'));
        assert(JSON.stringify(shown) === JSON.stringify(native), `page summary differs from native\n page:   ${JSON.stringify(shown).slice(0, 300)}\n native: ${JSON.stringify(native).slice(0, 300)}`);
        const snapshots = await page.evaluate(() => globalThis.__live);
        const grew = snapshots.filter((s, i) => i > 0 && s.events > snapshots[i - 1].events).length;
        assert(grew >= 2, `the count grew ${grew} times before Stop`);
        assert(snapshots.every((s) => s.events <= native.eventCount), 'a snapshot counted more than the trace');
        assert(mid.rows <= native.eventCount && midTotal > 0, `mid rows ${mid.rows}`);
        // Latency: a snapshot's bytes were first all written at `sent`; the page had them at `s.at`.
        const latencies = snapshots
          .map((s) => ({ s, sent: written.find((w) => w.bytes >= s.bytes) }))
          .filter((x) => x.sent !== undefined && x.s.bytes > 0 && x.s.bytes < BEFORE_STOP)
          .map((x) => x.s.at - x.sent.at);
        latencies.sort((a, b) => a - b);
        const gaps = snapshots.slice(1).map((s, i) => s.at - snapshots[i].at);
        console.log(
          `     ${snapshots.length} snapshots before the end (count grew ${grew} times); gaps between snapshots ` +
            `median ${gaps.sort((a, b) => a - b)[gaps.length >> 1]} ms; update latency (runtime write → page snapshot) ` +
            `median ${latencies[latencies.length >> 1]} ms, max ${latencies.at(-1)} ms over ${latencies.length}`,
        );
        writeFileSync(join(screenshots, 'live-latency.json'), JSON.stringify({ latencies, gaps }));
        await page.screenshot({ path: join(screenshots, 'live.png') });
        assert(pageErrors.length === 0, `page errors:\n  ${pageErrors.join('\n  ')}`);
      } finally {
        await page.close();
        live.child.kill('SIGINT');
        await live.exited;
      }
    });
  });
}
