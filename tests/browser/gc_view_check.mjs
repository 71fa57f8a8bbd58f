// Browser check of the GC view (web/src/views/gc_view.ts): on a trace with 478 GCs,
// the app's GC table equals `nettrace gc FILE` (every row, every column), its totals are the
// CLI's, and clicking a GC's row selects its time range: the event table then holds exactly
// the events `nettrace events --from --to` gives for that range.

/** A GC row's cells as the view formats them, from the CLI's JSON. */
function cells(gc) {
  const mb = (b) => (b === null || b === undefined ? '' : (b / 1e6).toFixed(3));
  const s = gc.genSizeAfterBytes;
  return [
    String(gc.number), String(gc.generation), gc.type, gc.reason, gc.isInduced ? 'yes' : '',
    gc.startMs.toFixed(3), gc.pauseMs.toFixed(3), gc.suspendMs.toFixed(3),
    gc.heapSizeBeforeMB === null ? '' : gc.heapSizeBeforeMB.toFixed(3), mb(gc.heapSizeAfterBytes), mb(gc.promotedBytes),
    mb(s?.gen0), mb(s?.gen1), mb(s?.gen2), mb(s?.loh), mb(s?.poh), gc.pinnedObjectCount === null ? '' : String(gc.pinnedObjectCount),
  ];
}

import { join } from 'node:path';

export async function gcViewChecks({ browser, server, check, assert, byName, runNative, screenshots }) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.addInitScript(() => {
    globalThis.appRoot = () => document.querySelector('nettrace-analyzer')?.shadowRoot ?? document;
  });
  const pageErrors = [];
  page.on('pageerror', (e) => pageErrors.push(String(e)));

  await check('app GC view: the table equals `nettrace gc`; a GC row selects its time range in the event table', async () => {
    const trace = byName('eventpipe-dotnetcore3.0-win-x64-objver4');
    const native = JSON.parse(runNative('gc', trace.path).stdout.toString('utf8'));
    const gcs = native.processes.flatMap((p) => p.gcs);
    assert(gcs.length === 478, `${gcs.length} GCs in the CLI's JSON`);
    await page.goto('about:blank');
    await page.goto(server.url);
    await page.setInputFiles('#file', trace.path);
    await page.waitForSelector('#result[data-state="done"]', { timeout: 60_000 });
    await page.waitForSelector('table[data-table="gcs"] tbody tr', { timeout: 30_000 });
    const rows = await page.$$eval('table[data-table="gcs"] tbody tr', (trs) => trs.map((r) => [...r.cells].map((c) => c.textContent)));
    const expected = gcs.map(cells);
    assert(rows.length === expected.length, `${rows.length} rows, ${expected.length} GCs`);
    for (let i = 0; i < rows.length; i++)
      assert(JSON.stringify(rows[i]) === JSON.stringify(expected[i]), `row ${i}: ${JSON.stringify(rows[i])} vs ${JSON.stringify(expected[i])}`);
    await page.evaluate(() => appRoot().querySelector('.gc-view').scrollIntoView({ block: 'start' }));
    await page.screenshot({ path: join(screenshots, 'app-gc-view.png') });
    const totals = await page.textContent('table[data-table="gc-totals"]');
    const t = native.processes[0].totals;
    for (const part of [`${t.count} (induced ${t.induced})`, `${t.totalPauseMs.toFixed(3)} / ${t.maxPauseMs.toFixed(3)} / ${t.meanPauseMs.toFixed(3)}`])
      assert(totals.includes(part), `totals ${totals} lack ${part}`);

    // Click GC #10 (the 10th row): the event table narrows to its range, as the CLI does.
    const gc = gcs[9];
    const from = Math.floor(Math.min(gc.pauseStartMs, gc.startMs) * 1000) / 1000;
    const to = Math.ceil(Math.max(gc.pauseStartMs + gc.pauseMs, gc.startMs + gc.durationMs) * 1000) / 1000;
    await page.click(`table[data-table="gcs"] tbody tr:nth-child(10)`);
    assert(await page.getAttribute('#tab-events', 'aria-selected') === 'true', 'the row opens the event table');
    const lines = runNative('events', trace.path, ['--from', from.toFixed(3), '--to', to.toFixed(3), '--limit', '100000000'])
      .stdout.toString('utf8').trim().split('\n').filter(Boolean);
    assert(lines.length > 0 && lines.some((l) => JSON.parse(l).name === 'GC/Start'), 'the range holds the GC\'s own GC/Start');
    await page.waitForFunction((n) => appRoot().getElementById('event-scroller').dataset.total === String(n), lines.length, { timeout: 30_000 });
    const hash = new URLSearchParams(new URL(page.url()).hash.slice(1));
    assert(hash.get('from') === from.toFixed(3) && hash.get('to') === to.toFixed(3), `range in the hash: ${hash}`);
    assert(!(await page.locator('#range-chip').isHidden()), 'the range chip shows');
  });

  await check('app GC view: no page errors', async () => {
    assert(pageErrors.length === 0, pageErrors.join('\n'));
  });
  await page.close();
}
