// Browser check of the app's A/B diff (web/src/views/diff_view.ts): with a trace
// open, picking a baseline trace shows the function table of `nettrace diff BASELINE TRACE`
// (native) row for row, and a differential flame graph; the side tab is kept in the link.
import { join } from 'node:path';
import { root } from '../node/helpers.mjs';
export async function diffChecks({ page, check, assert, byName, runNative, open }) {
  await check('app diff: the function table equals nettrace diff; the flame graph is drawn', async () => {
    const baseline = byName('sentry-net6-profile-with-task');
    const comparison = byName('only_managed_samples');
    // The flame graph's default weight for CPU samples (dotnet-trace's thread time), checked below.
    const run = runNative('diff', baseline.path, [comparison.path, '-n', '200', '--weight', 'traceevent-thread-time']);
    assert(run.status === 0, run.stderr);
    const native = JSON.parse(run.stdout.toString('utf8'));
    await open(comparison.path);
    await page.click('#tab-flame');
    // The picker is filled once the view has asked the engine for the trace's threads (it read
    // the previous value when the check ran before that answer came).
    const weighted = await page
      .waitForFunction(() => appRoot().getElementById('g-weight').value === 'traceevent-thread-time', null, { timeout: 30_000 })
      .then(() => true, () => false);
    assert(weighted, 'the default weight of CPU samples');
    await page.click('#side-diff');
    await page.setInputFiles('#diff-baseline', baseline.path);
    await page.waitForSelector('#g-diff[data-state="done"] .diff-table tbody tr', { timeout: 60_000 });
    // Amounts: the engine's value on the cell (data-value), its text in ms or s.
    const rows = await page.$$eval('#g-diff .diff-table tbody tr', (trs) => trs.map((tr) => [...tr.cells].map((c) => c.dataset.value ?? c.textContent)));
    const texts = await page.$$eval('#g-diff .diff-table tbody td[data-value]', (tds) => tds.map((c) => c.textContent));
    const { formatDurationNs } = await import(join(root, 'build/site/ui/units.js'));
    const values = await page.$$eval('#g-diff .diff-table tbody td[data-value]', (tds) => tds.map((c) => Number(c.dataset.value)));
    assert(texts.every((t, i) => t === formatDurationNs(values[i]) && / (ms|s)$/.test(t)), `amounts not in ms/s: ${texts.slice(0, 4)}`);
    const num = (s) => Number(s.replace(/,/g, ''));
    const pct = (f) => `${f > 0 ? '+' : ''}${(f * 100).toFixed(2)}%`;
    assert(rows.length === native.functions.length && rows.length > 50, `${rows.length} rows, native ${native.functions.length}`);
    native.functions.forEach((f, i) => {
      const r = rows[i];
      const expected = [f.name, f.exclusiveA, f.exclusiveB, pct(f.exclusiveDelta), f.inclusiveA, f.inclusiveB, pct(f.inclusiveDelta)];
      const shown = [r[0], num(r[1]), num(r[2]), r[3], num(r[4]), num(r[5]), r[6]];
      assert(JSON.stringify(shown) === JSON.stringify(expected), `row ${i}: ${JSON.stringify(shown)} != ${JSON.stringify(expected)}`);
    });
    const status = await page.textContent('#g-diff .diff-status');
    const totals = [native.baseline.total, native.comparison.total].map(formatDurationNs);
    assert(status.includes(`: ${totals[0]}; `) && status.endsWith(`: ${totals[1]}.`) && !/nanoseconds/.test(status), `totals not shown in ms/s: ${status}`);
    const canvas = await page.$eval('#g-diff canvas.diff-flame', (c) => ({ w: c.width, h: c.height }));
    assert(canvas.w > 0 && canvas.h >= 16, `canvas ${JSON.stringify(canvas)}`);
    const params = new URLSearchParams(new URL(page.url()).hash.slice(1));
    assert(params.get('side') === 'diff', `hash ${page.url()}`);
  });
}
