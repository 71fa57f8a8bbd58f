// Browser checks of reads that stop before the end: a truncated trace
// is explored like a complete one under a banner; a cancelled read is a partial trace with
// one event count; files that are not traces, an empty file and failed fetches state only
// what was established, and a failed fetch says why and how to get around it.
import { createServer } from 'node:http';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { clickExport } from './harness.mjs';

/** The Summary's facts as { term: value }. */
const facts = (page) =>
  page.$$eval('#headline dt', (dts) => Object.fromEntries(dts.map((dt) => [dt.textContent, dt.nextElementSibling?.textContent ?? ''])));

const number = (text) => Number(String(text).replace(/,/g, ''));

/**
 * A second origin: /slow.nettrace streams a trace slowly (CORS allowed), so that Cancel lands
 * mid-read; /nocors.nettrace sends it without CORS headers, so that the page may not read it.
 */
async function traceServer(bytes) {
  const server = createServer((req, res) => {
    if (req.url === '/slow.nettrace') {
      res.writeHead(200, { 'access-control-allow-origin': '*', 'content-type': 'application/octet-stream', 'content-length': String(bytes.length) });
      let at = 0;
      const timer = setInterval(() => {
        if (at >= bytes.length) return clearInterval(timer), res.end();
        res.write(bytes.subarray(at, at + 65536));
        at += 65536;
      }, 40);
      res.on('close', () => clearInterval(timer));
      return;
    }
    if (req.url === '/nocors.nettrace') {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      return res.end(bytes.subarray(0, 1024));
    }
    res.writeHead(404).end();
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${server.address().port}/`, close: () => new Promise((r) => server.close(r)) };
}

export async function partialChecks({ page, server, check, assert, byName, runNative, open, tmp, eventCountShown }) {
  const heart = byName('HeartRateMonitor');

  await check('app partial trace: the first 300,000 bytes of a trace explore like a complete trace, under a banner', async () => {
    const cut = join(tmp, 'HeartRateMonitor.cut.nettrace');
    writeFileSync(cut, readFileSync(heart.path).subarray(0, 300_000));
    const run = runNative('summary', cut);
    assert(run.status !== 0, 'the native tool reports the cut trace as damaged');
    const native = JSON.parse(run.stdout.toString('utf8'));
    await open(cut, '', 'error');
    const offset = new Intl.NumberFormat('en-US').format(native.error.offset);
    const banner = await page.textContent('#partial-banner');
    assert(!(await page.locator('#partial-banner').isHidden()) && banner.includes(`byte offset ${offset}`), `banner: ${banner}`);
    assert(!(await page.locator('#timeline').isHidden()), 'the timeline is shown');
    assert(!(await page.locator('#exports').isHidden()), 'the exports are offered');
    assert(!(await page.isDisabled('#tab-events')) && !(await page.isDisabled('#tab-flame')), 'the Events and Flame graph tabs open');
    await page.click('#tab-events');
    assert((await eventCountShown()) === native.eventCount, 'the event table holds every event read before the fault');
    await page.click('#tab-flame');
    await page.waitForFunction(() => Number(appRoot().getElementById('g-canvas-box').dataset.nodes ?? 0) > 1, null, { timeout: 30_000 });
    // The exports are those of the native tool, which also keeps what it read.
    const [download] = await Promise.all([page.waitForEvent('download'), clickExport(page, 'csv')]);
    const csv = join(tmp, 'cut-page.csv');
    await download.saveAs(csv);
    runNative('export', cut, ['--format', 'csv', '-o', join(tmp, 'cut-native.csv')]);
    assert(readFileSync(csv, 'utf8') === readFileSync(join(tmp, 'cut-native.csv'), 'utf8'), 'the CSV export differs from the native one');
  });

  const other = await traceServer(readFileSync(heart.path));
  try {
    await check('app cancel: a cancelled read is a partial trace, labelled cancelled, with one event count', async () => {
      await page.goto('about:blank');
      await page.goto(`${server.url}?url=${encodeURIComponent(`${other.url}slow.nettrace`)}`);
      await page.waitForFunction(() => /· [1-9][\d,]* events/.test(appRoot().getElementById('progress-text').textContent), null, { timeout: 30_000 });
      await page.click('#cancel');
      await page.waitForSelector('#result[data-state="error"]', { timeout: 30_000 });
      assert(await page.getAttribute('#result', 'data-partial') === 'cancelled', `partial: ${await page.getAttribute('#result', 'data-partial')}`);
      const summary = JSON.parse(await page.textContent('#summary'));
      const status = await page.textContent('#status');
      const counts = [
        number(/([\d,]+) events? read/.exec(status)?.[1]),
        number((await facts(page))['Events']),
        number(/the ([\d,]+) events?/.exec(await page.textContent('#partial-banner'))?.[1]),
      ];
      assert(summary.eventCount > 0 && counts.every((n) => n === summary.eventCount), `counts ${counts} vs summary ${summary.eventCount}; status: ${status}`);
      assert((await page.textContent('#progress-text')) === '' && (await page.locator('#progress').isHidden()), 'the progress line ends with the read');
      assert(/cancel/i.test(await page.textContent('#result-title')) && /cancelled/.test(await page.textContent('#partial-banner')), 'labelled as cancelled');
      assert(!(await page.isDisabled('#tab-events')), 'the Events tab opens');
      await page.click('#tab-events');
      assert((await eventCountShown()) === summary.eventCount, 'the event table holds the same count');
    });

    await check('app refusals: a failed fetch says why and how to fix it; nothing made up is shown', async () => {
      const progressHidden = () => page.locator('#progress').isHidden();
      await page.goto('about:blank');
      await page.goto(`${server.url}?url=missing.nettrace`);
      await page.waitForSelector('#result[data-state="error"]', { timeout: 30_000 });
      let status = await page.textContent('#status');
      assert(/HTTP 404/.test(status) && /download the file and drop it/i.test(status), `404 status: ${status}`);
      assert((await page.textContent('#headline')) === '', `no facts for a failed fetch: ${await page.textContent('#headline')}`);
      assert(await progressHidden(), 'the progress bar is gone after a failed fetch');
      await page.goto('about:blank');
      await page.goto(`${server.url}?url=${encodeURIComponent(`${other.url}nocors.nettrace`)}`);
      await page.waitForSelector('#result[data-state="error"]', { timeout: 30_000 });
      status = await page.textContent('#status');
      assert(/CORS/.test(status) && /download the file and drop it/i.test(status), `CORS status: ${status}`);
      assert((await page.textContent('#headline')) === '' && (await progressHidden()), 'no facts, no progress bar');
    });

    await check('app refusals: a random file, an empty file and a NetPerf version 2 trace state only what was established', async () => {
      const random = join(tmp, 'random.nettrace');
      writeFileSync(random, Buffer.from(Array.from({ length: 5000 }, (_, i) => (i * 7919 + 13) % 251)));
      const empty = join(tmp, 'empty.nettrace');
      writeFileSync(empty, Buffer.alloc(0));
      // NetPerf version 2 (.NET Core 2.0), which is refused: a version 3 file whose Trace object
      // (at 0x18, after the stream header) says version 2.
      const netperf = join(tmp, 'v2.netperf');
      const v2 = readFileSync(byName('eventpipe-dotnetcore2.1-linux-x64-objver3').path);
      v2[0x18 + 3] = 2;
      writeFileSync(netperf, v2);
      for (const [path, reason] of [[random, /Nettrace' magic/], [empty, /too short/], [netperf, /NetPerf Trace object version 2/]]) {
        await open(path, '', 'error');
        const shown = await facts(page);
        assert(shown['Format'] === undefined, `${path}: a format that was not read: ${shown['Format']}`);
        assert(reason.test(await page.textContent('#status')), `${path}: status ${await page.textContent('#status')}`);
        assert(await page.locator('#progress').isHidden(), `${path}: the progress bar stays after the refusal`);
        assert(shown['Events'] === '0' && shown['Events with stacks'] === undefined, `${path}: facts ${JSON.stringify(shown)}`);
      }
    });
  } finally {
    await other.close();
  }
}
