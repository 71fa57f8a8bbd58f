// Browser checks of Compare runs (web/src/views/runs_view.ts): four committed .NET 10
// recordings a side picked into the page give the document of `nettrace diff --baseline …
// --compare … --format json` (native) whole, and its tables; the differential flame graph is
// grey exactly where the tree's change is not significant (read back from the canvas's
// pixels), its tooltip gives the node's means, difference, interval and Holm p; the weight is
// kept in the link and taken back from it.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { nativeTool, testdata } from '../node/helpers.mjs';

const dir = join(testdata, 'dotnet10');
// Two programs, four recordings each: what one does and the other does not is significant.
// The comparison is the program whose frames then have a width (the layout is B's means).
const BASELINE = ['order-flows', 'order-flows-env', 'order-flows-nettrace', 'order-flows-tasks'].map((n) => `net10-${n}.nettrace`);
const COMPARISON = ['web-exceptions', 'web-exceptions-env', 'web-exceptions-nettrace', 'web-exceptions-clrevents'].map((n) => `net10-${n}.nettrace`);
const FLAGGED = new Set(['grown', 'shrunk', 'appeared', 'disappeared']);

/** The native document, run where the traces are, so that its names are the files' names. */
function nativeRuns(args = []) {
  const r = spawnSync(nativeTool, ['diff', '--baseline', ...BASELINE, '--compare', ...COMPARISON, '--format', 'json', ...args], {
    cwd: dir, encoding: 'utf8', maxBuffer: 256 << 20, env: { ...process.env, LC_ALL: 'C', TZ: 'UTC' },
  });
  if (r.status !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout);
}

export async function runsChecks({ page, server, check, assert }) {
  const shown = async () => JSON.parse(await page.textContent('#runs-json'));
  const waitDone = (weight) =>
    page.waitForSelector(`#runs-result[data-state="done"][data-weight="${weight}"]`, { state: 'attached', timeout: 120_000 });

  await check('app runs: four traces a side give the document of nettrace diff --baseline … --compare …, its tables', async () => {
    const native = nativeRuns();
    await page.goto('about:blank');
    await page.goto(server.url);
    await page.click('#runs-open');
    assert(new URLSearchParams(new URL(page.url()).hash.slice(1)).get('runs') === '1', `hash ${page.url()}`);
    assert(await page.isHidden('#landing'), 'the landing area gives way');
    await page.setInputFiles('#runs-a-files', BASELINE.map((f) => join(dir, f)));
    await page.setInputFiles('#runs-b-files', COMPARISON.map((f) => join(dir, f)));
    await waitDone('auto');
    const got = await shown();
    assert(JSON.stringify(got) === JSON.stringify(native), `the page's document differs from native:\n page:   ${JSON.stringify(got).slice(0, 300)}\n native: ${JSON.stringify(native).slice(0, 300)}`);
    // Each run's total weight beside its file.
    const listed = await page.$$eval('#runs-a-list li, #runs-b-list li', (lis) => lis.map((li) => Number(li.dataset.total)));
    assert(JSON.stringify(listed) === JSON.stringify([...native.baseline.totals, ...native.comparison.totals]), `run totals ${listed}`);
    // The flagged functions, in the document's order, with its numbers on the cells.
    const rows = await page.$$eval('#runs-functions tbody tr', (trs) =>
      trs.map((tr) => ({ name: tr.cells[0].textContent, change: tr.cells[1].textContent, values: [...tr.querySelectorAll('td[data-value]')].map((c) => Number(c.dataset.value)) })),
    );
    const flagged = native.functions.filter((f) => FLAGGED.has(f.change));
    assert(flagged.length === native.flaggedFunctions && flagged.length > 0, `native flags ${flagged.length}`);
    const cells = (c) => [c.meanA, c.meanB, c.difference, c.pAdjusted];
    const expected = flagged.map((f) => ({ name: f.name, change: f.change, values: [...cells(f.inclusive), ...cells(f.exclusive), f.inclusiveWeight.meanA, f.inclusiveWeight.meanB] }));
    assert(JSON.stringify(rows) === JSON.stringify(expected), `functions table:\n page:   ${JSON.stringify(rows).slice(0, 400)}\n native: ${JSON.stringify(expected).slice(0, 400)}`);
    const totals = await page.$$eval('#runs-totals tbody tr', (trs) => trs.map((tr) => [tr.cells[0].textContent, tr.cells[2].textContent, ...[...tr.querySelectorAll('td[data-value]')].map((c) => Number(c.dataset.value))]));
    const nativeTotals = native.totals.map((t) => [t.metric, t.change, ...cells(t.values)]);
    assert(JSON.stringify(totals) === JSON.stringify(nativeTotals), `totals table:\n page:   ${JSON.stringify(totals)}\n native: ${JSON.stringify(nativeTotals)}`);
  });

  await check('app runs: the differential flame graph is grey exactly where the change is not significant; tooltips', async () => {
    const native = nativeRuns();
    await page.mouse.move(0, 0); // no hovered node
    // Per node at least 3 css px wide: is its cell grey (r = g = b), read 1 device px below
    // its top (above any label's glyphs)?
    const seen = await page.evaluate((tree) => {
      const canvas = appRoot().getElementById('runs-canvas');
      const ratio = canvas.width / canvas.clientWidth;
      const pixels = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
      const scale = canvas.clientWidth / (tree.end[0] - tree.start[0]);
      const nodes = [];
      for (let n = 0; n < tree.frame.length; n++) {
        const width = (tree.end[n] - tree.start[n]) * scale;
        if (width < 3) continue;
        const x = Math.floor(((tree.start[n] + tree.end[n]) / 2) * scale * ratio);
        const y = Math.round(tree.depth[n] * 18 * ratio) + 1;
        const at = (y * canvas.width + x) * 4;
        const [r, g, b, a] = pixels.slice(at, at + 4);
        nodes.push({ n, grey: r === g && g === b && a === 255, painted: a === 255 });
      }
      return nodes;
    }, native.tree);
    assert(seen.every((s) => s.painted), `unpainted nodes: ${seen.filter((s) => !s.painted).map((s) => s.n).slice(0, 10)}`);
    const greyed = seen.filter((s) => s.grey).map((s) => s.n);
    const notSignificant = seen.filter((s) => !native.tree.significant[s.n]).map((s) => s.n);
    const significant = seen.length - notSignificant.length;
    assert(significant >= 5 && notSignificant.length >= 100, `${significant} significant and ${notSignificant.length} other nodes drawn`);
    console.log(`     ${significant} significant and ${notSignificant.length} other nodes at least 3 px wide`);
    assert(JSON.stringify(greyed) === JSON.stringify(notSignificant), `greyed ${greyed.length} nodes, not significant ${notSignificant.length}: first differing ${greyed.find((n, i) => n !== notSignificant[i])}`);
    // The tooltip of a significant node: its means, difference, interval and Holm p.
    const node = seen.find((s) => native.tree.significant[s.n]).n;
    const t = native.tree;
    const box = await page.$eval('#runs-canvas', (c) => { const r = c.getBoundingClientRect(); return { x: r.left, y: r.top, w: c.clientWidth }; });
    const scale = box.w / (t.end[0] - t.start[0]);
    await page.mouse.move(box.x + ((t.start[node] + t.end[node]) / 2) * scale, box.y + t.depth[node] * 18 + 9);
    await page.waitForSelector('#runs-tooltip:not([hidden])', { timeout: 5_000 });
    const tip = await page.textContent('#runs-tooltip');
    const pts = (f) => `${f > 0 ? '+' : ''}${(f * 100).toFixed(2)}`;
    for (const part of [t.frames[t.frame[node]], `(${(t.shareA[node] * 100).toFixed(2)} %)`, `(${(t.shareB[node] * 100).toFixed(2)} %)`,
      `Difference: ${pts(t.delta[node])} pts`, `95 % interval (this node alone): ${pts(t.ciLow[node])} to ${pts(t.ciHigh[node])} pts`, `p (Holm): ${t.pAdjusted[node].toPrecision(3)} (significant)`]) {
      assert(tip.includes(part), `tooltip lacks "${part}": ${tip}`);
    }
    // The root is never tested (its share is 1 in every run): it says so, with no p.
    await page.mouse.move(0, 0);
    await page.mouse.move(box.x + 5, box.y + 9);
    await page.waitForSelector('#runs-tooltip:not([hidden])', { timeout: 5_000 });
    const rootTip = await page.textContent('#runs-tooltip');
    assert(rootTip.includes('Not tested') && !rootTip.includes('p (Holm)'), `root tooltip: ${rootTip}`);
    await page.mouse.move(0, 0);
  });

  await check('app runs: the weight picked is compared as nettrace diff --weight, kept in the link and taken back', async () => {
    const native = nativeRuns(['--weight', 'count']);
    await page.selectOption('#runs-weight', 'count');
    await waitDone('count');
    const got = await shown();
    assert(JSON.stringify(got) === JSON.stringify(native), 'the page\'s document differs from nettrace diff --weight count');
    assert(got.comparison.unit === 'samples', got.comparison.unit);
    const hash = new URL(page.url()).hash;
    assert(new URLSearchParams(hash.slice(1)).get('runsWeight') === 'count', `hash ${hash}`);
    await page.goto('about:blank');
    await page.goto(`${server.url}${hash}`);
    await page.waitForSelector('#runs', { state: 'visible' });
    assert((await page.inputValue('#runs-weight')) === 'count', 'the weight of the link');
    assert(await page.isHidden('#landing'), 'the link opens Compare runs');
    await page.click('#runs-close');
    assert(await page.isVisible('#landing'), 'Close is Home');
    assert(new URLSearchParams(new URL(page.url()).hash.slice(1)).get('runs') === null, `hash ${page.url()}`);
  });

  await check('app runs: traces dropped on a side are that side\'s (not opened as the trace), removable', async () => {
    await page.goto('about:blank');
    await page.goto(`${server.url}#runs=1`);
    const drop = (side, names) =>
      page.evaluate(async ({ side, names }) => {
        const bytes = await (await fetch('samples/only_managed_samples.nettrace')).arrayBuffer();
        const transfer = new DataTransfer();
        for (const name of names) transfer.items.add(new File([bytes], name));
        const zone = appRoot().getElementById(`runs-${side}`);
        zone.dispatchEvent(new DragEvent('dragover', { dataTransfer: transfer, bubbles: true, composed: true, cancelable: true }));
        zone.dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, composed: true, cancelable: true }));
      }, { side, names });
    await drop('a', ['a1 <b>bold</b>.nettrace', 'a2.nettrace']);
    await drop('b', ['b1.nettrace']);
    const listed = (side) => page.$$eval(`#runs-${side}-list li > span:first-child`, (spans) => spans.map((s) => s.textContent));
    assert(JSON.stringify(await listed('a')) === JSON.stringify(['a1 <b>bold</b>.nettrace ', 'a2.nettrace ']), `A lists ${await listed('a')}`);
    assert((await page.$$(`#runs-a-list b`)).length === 0, 'a file name is text, never HTML');
    await page.waitForSelector('#runs-result[data-state="done"]', { state: 'attached', timeout: 60_000 });
    const got = await shown();
    assert(JSON.stringify(got.baseline.traces) === JSON.stringify(['a1 <b>bold</b>.nettrace', 'a2.nettrace']) && got.comparison.traces.length === 1, JSON.stringify(got.baseline));
    assert((await page.getAttribute('#result', 'data-state')) === 'idle' && (await page.isHidden('#result')), 'a drop on a side does not open the trace');
    await page.click('#runs-a-list li:first-child button');
    assert(JSON.stringify(await listed('a')) === JSON.stringify(['a2.nettrace ']), `after removal A lists ${await listed('a')}`);
    await page.waitForFunction(() => appRoot().getElementById('runs-json').textContent.includes('"traces":["a2.nettrace"]'), null, { timeout: 60_000 });
  });

  await check('app runs: compareRunsInWorker ends its worker when its signal aborts (a newer comparison replaces it)', async () => {
    await page.goto(server.url);
    const got = await page.evaluate(async () => {
      const { compareRunsInWorker } = await import('./engine/worker_client.js');
      const blob = await (await fetch('samples/only_managed_samples.nettrace')).blob();
      const controller = new AbortController();
      const running = compareRunsInWorker([blob, blob], [blob, blob], { signal: controller.signal });
      setTimeout(() => controller.abort(), 0);
      try {
        await running;
        return 'resolved';
      } catch (e) {
        return e.code;
      }
    });
    assert(got === 'cancelled', `an aborted comparison ${got}`);
  });

  await check('app runs: a trace that cannot be read to its end fails the comparison, named, with its offset', async () => {
    const truncated = join(testdata, 'truncated', 'dotnet-trace-netcore3.0-preview-truncated.nettrace');
    const native = spawnSync(nativeTool, ['diff', '--baseline', truncated, truncated, '--compare', truncated, truncated], { encoding: 'utf8' });
    assert(native.status === 2, `native exits ${native.status}`);
    await page.goto('about:blank');
    await page.goto(`${server.url}#runs=1`);
    await page.setInputFiles('#runs-a-files', [truncated, truncated]);
    await page.setInputFiles('#runs-b-files', [join(dir, BASELINE[0]), join(dir, BASELINE[1])]);
    await page.waitForSelector('#runs-result[data-state="error"]', { state: 'attached', timeout: 60_000 });
    const status = await page.textContent('#runs-status');
    assert(/^The comparison failed: .*dotnet-trace-netcore3\.0-preview-truncated\.nettrace/.test(status) && /offset|byte/i.test(status), status);
    assert(await page.isHidden('#runs-result'), 'no verdict on part of a run');
  });
}
