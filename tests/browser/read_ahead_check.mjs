// Browser checks of reads issued ahead (web/src/reader/read_ahead.ts) on a real disk-backed
// File in Chromium, counted on the source (tests/node/read_ahead_probe.mjs), never timed: the
// reads of the next chunks start before the push of the current one returns, at most readAhead
// beyond the awaited one; the summary equals the native one at chunk sizes 7 B, 1 KiB, 4096 B
// and 1 MiB; a cancel leaves no read pending. A File opened with the defaults is read from its
// stream() instead (web/src/reader/stream_chunks.ts), with the same summary.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export async function readAheadChecks({ browser, repoServer, check, assert, byName, runNative }) {
  const page = await browser.newPage();
  const heart = byName('HeartRateMonitor');
  const native = (path) => runNative('summary', path).stdout.toString('utf8').replace(/\n$/, '');
  const load = async (path) => {
    await page.goto(`${repoServer.url}tests/browser/read_ahead_page.html`);
    await page.waitForSelector('body[data-ready="true"]', { state: 'attached' });
    await page.setInputFiles('#file', path);
  };
  try {
    await check('read-ahead: a File\'s next reads start before the push returns, at most readAhead ahead; summary = native', async () => {
      await load(heart.path);
      const expected = native(heart.path);
      for (const readAhead of [0, 2, 4]) {
        const r = await page.evaluate(([c, a]) => window.readAhead.open(c, a), [1024 * 1024, readAhead]);
        assert(r.violations.length === 0, `readAhead ${readAhead}: ${r.violations.slice(0, 5).join('; ')}`);
        assert(r.summaryJson === expected, `readAhead ${readAhead}: summary differs from native`);
      }
    });

    await check('read-ahead: summaries = native at chunk sizes 7 B, 1 KiB, 4096 B, 1 MiB', async () => {
      // A Blob read costs ~1 ms here: 7 B chunks read the first 40,000 bytes of a trace (the
      // native tool summarises the same cut, its error included), 1 KiB a 344 KB trace.
      const small = byName('pyroscope-net5-single-thread');
      const cut = { name: 'pyroscope (first 40,000 bytes)', path: join(mkdtempSync(join(tmpdir(), 'read-ahead-')), 'cut.nettrace') };
      writeFileSync(cut.path, readFileSync(small.path).subarray(0, 40_000));
      for (const [trace, chunkSize] of [[cut, 7], [small, 1024], [heart, 4096], [heart, 1024 * 1024]]) {
        await load(trace.path);
        const r = await page.evaluate(([c]) => window.readAhead.open(c, window.readAhead.DEFAULT_READ_AHEAD), [chunkSize]);
        assert(r.summaryJson === native(trace.path), `${trace.name} at ${chunkSize} B: summary differs from native`);
        assert(r.started === r.chunks, `${trace.name} at ${chunkSize} B: ${r.started} reads for ${r.chunks} chunks`);
        assert(r.maxAhead <= 3, `${trace.name} at ${chunkSize} B: ${r.maxAhead} reads started and not pushed at once`);
      }
    });

    await check('a File is read from its stream() by default: summary = native, slices only for the names, pieces ≤ 8 MiB', async () => {
      // The pieces waiting are what the browser's stream holds (web/src/reader/stream_chunks.ts):
      // none may approach the File's size, or a big File would sit in memory twice.
      await load(heart.path);
      const r = await page.evaluate(() => window.readAhead.streamed());
      assert(r.summaryJson === native(heart.path), 'summary differs from native');
      // Then the method names some stack reaches, read back: HeartRateMonitor's are 2.5 MB of
      // its 29.6 MB, in 33 slices.
      assert(r.streams === 1 && r.sliceReads > 0 && r.sliceBytes < r.size / 10,
        `${r.streams} streams, ${r.sliceReads} slice reads of ${r.sliceBytes} bytes`);
      assert(r.pieces > 1 && r.maxPiece <= 8 * 1024 * 1024, `${r.pieces} pieces, the largest ${r.maxPiece} B`);
    });

    await check('a big File\'s stream read by a reader worker: summary = native, queue within the window, fallbacks, cancel', async () => {
      await load(heart.path);
      const expected = native(heart.path);
      const run = (how) => page.evaluate((h) => window.readAhead.offThread(h), how);
      const real = await run('worker');
      assert(real.summaryJson === expected, 'reader worker: summary differs from native');
      assert(real.workers === 1 && real.fallbacks === 0 && real.terminated === 1, `reader worker: ${JSON.stringify(real)}`);
      assert(real.maxQueuedBytes <= 16 * 1024 * 1024 + real.largestPiece, `reader worker: ${real.maxQueuedBytes} B queued`);
      const small = await run('window');
      assert(small.summaryJson === expected, 'a 256 KiB window: summary differs from native');
      assert(small.maxQueuedBytes <= small.window + small.largestPiece, `a ${small.window} B window: ${small.maxQueuedBytes} B queued (largest piece ${small.largestPiece} B)`);
      for (const how of ['missing', 'throwing']) {
        const r = await run(how);
        assert(r.summaryJson === expected, `${how} worker: summary differs from native`);
        assert(r.fallbacks === 1, `${how} worker: ${JSON.stringify(r)}`);
      }
      const cancelled = await run('cancel');
      assert(cancelled.code === 'cancelled' && cancelled.terminated === 1, `cancel: ${JSON.stringify(cancelled)}`);
    });

    await check('read-ahead: a cancel mid-read rejects once no read is pending, none started after', async () => {
      await load(heart.path);
      for (const readAhead of [1, 2, 4]) {
        const r = await page.evaluate(([c, a]) => window.readAhead.cancelled(c, a), [256 * 1024, readAhead]);
        assert(r.code === 'cancelled', `readAhead ${readAhead}: ${r.code}`);
        assert(r.inFlightAtAbort === readAhead, `readAhead ${readAhead}: ${r.inFlightAtAbort} reads in flight at the abort`);
        assert(r.inFlightAfter === 0, `readAhead ${readAhead}: ${r.inFlightAfter} reads pending after the open rejected`);
        assert(r.started === 2 + readAhead, `readAhead ${readAhead}: ${r.started} reads started`);
      }
    });
  } finally {
    await page.close();
  }
}
