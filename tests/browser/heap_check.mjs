// Browser check of the Heap tab (web/src/analyzer/heap_controller.ts, web/src/views/heap_view.ts):
// a dropped .gcdump opens the Heap tab alone, and what it shows is `nettrace heap`'s JSON — every
// row of the virtualized types table (read by scrolling it), a re-sort by retained size, the
// largest objects, the paths from the roots to a type clicked in the table (root kinds named)
// and the growth against a baseline chosen in the tab; a .nettrace with heap-dump events opens in
// the usual tabs and its Heap tab reads the same events as `nettrace heap` does.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { root, testdata } from '../node/helpers.mjs';

const fmt = (n) => new Intl.NumberFormat('en-US').format(n);
const typeCells = (t) => [t.name, t.module, fmt(t.count), fmt(t.size), fmt(t.retained), fmt(t.inclusive)];
const delta = (v) => (v.delta > 0 ? `+${fmt(v.delta)}` : fmt(v.delta));

/** Every row of the types table, read by scrolling its virtualized list to each page. */
async function readTypes(page) {
  return page.evaluate(async () => {
    const scroller = appRoot().getElementById('heap-scroller');
    const total = Number(scroller.dataset.total);
    const rows = new Map();
    const frame = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    for (let top = 0; rows.size < total; top += scroller.clientHeight / 2) {
      scroller.scrollTop = top;
      await frame();
      for (const tr of scroller.querySelectorAll('.vt-row')) rows.set(Number(tr.dataset.row), [...tr.children].map((c) => c.textContent));
      if (top > total * 24 + scroller.clientHeight) break;
    }
    return { total, rows: [...rows.entries()].sort((a, b) => a[0] - b[0]).map((e) => e[1]) };
  });
}

function sameRows(actual, expected, what, assert) {
  assert(actual.length === expected.length, `${what}: ${actual.length} rows shown, ${expected.length} expected`);
  for (let i = 0; i < expected.length; i++)
    assert(JSON.stringify(actual[i]) === JSON.stringify(expected[i]), `${what} row ${i}: ${JSON.stringify(actual[i])} vs ${JSON.stringify(expected[i])}`);
}

const tableRows = (page, name) => page.$$eval(`table[data-table="${name}"] tbody tr`, (trs) => trs.map((r) => [...r.cells].map((c) => c.textContent)));

export async function heapChecks({ browser, server, check, assert, runNative, screenshots }) {
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  await page.addInitScript(() => {
    globalThis.appRoot = () => document.querySelector('nettrace-analyzer')?.shadowRoot ?? document;
  });
  const pageErrors = [];
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  const heapJson = (file, args = []) => JSON.parse(runNative('heap', file, args).stdout.toString('utf8'));
  const big = join(testdata, 'heap', 'heapgraphs-big.gcdump');
  const small = join(testdata, 'heap', 'heapgraphs-small.gcdump');

  await check('Heap tab: a dropped .gcdump shows `nettrace heap`: every type, a re-sort, the largest objects, paths from the roots, the growth from a baseline', async () => {
    const native = heapJson(big);
    await page.goto(server.url);
    const dataTransfer = await page.evaluateHandle(([b64, name]) => {
      const dt = new DataTransfer();
      dt.items.add(new File([Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))], name));
      return dt;
    }, [readFileSync(big).toString('base64'), 'heapgraphs-big.gcdump']);
    await page.dispatchEvent('#drop', 'drop', { dataTransfer });
    await page.waitForSelector('#heap-box[data-heap="done"]', { timeout: 60_000 });
    assert(await page.getAttribute('#tab-heap', 'aria-selected') === 'true', 'the Heap tab is not the one shown');
    assert(await page.isHidden('#tab-events'), 'a .gcdump has no events: the Events tab stays hidden');
    const shown = await readTypes(page);
    sameRows(shown.rows, native.types.map(typeCells), 'types (shallow size, the engine\'s order)', assert);

    // Sorted by retained size (descending; ties keep the engine's order).
    await page.click('#heap-box .vt-head span[data-key="retained"]');
    const byRetained = native.types.map((t, i) => [t, i]).sort((a, b) => b[0].retained - a[0].retained || a[1] - b[1]).map(([t]) => typeCells(t));
    sameRows((await readTypes(page)).rows, byRetained, 'types by retained size', assert);

    sameRows(await tableRows(page, 'heap-largest'), native.largest.map((o) => [o.name, o.address, fmt(o.size), fmt(o.retained), o.root]), 'largest objects', assert);

    // A type clicked: its paths, as `nettrace heap --paths-to module!name`.
    const target = native.types.find((t) => t.name === 'HeapGraphs.ChainNode');
    assert(target, 'no HeapGraphs.ChainNode in the snapshot');
    const paths = heapJson(big, ['--paths-to', `${target.module}!${target.name}`]).pathsTo;
    const index = byRetained.findIndex((cells) => cells[0] === target.name && cells[1] === target.module);
    await page.evaluate((i) => (appRoot().getElementById('heap-scroller').scrollTop = Math.max(0, i * 24 - 48)), index);
    await page.waitForSelector(`#heap-scroller .vt-row[data-row="${index}"]`);
    await page.click(`#heap-scroller .vt-row[data-row="${index}"]`);
    await page.waitForSelector('table[data-table="heap-roots"]');
    const roots = [...paths.roots].sort((a, b) => b.count - a.count);
    sameRows(await tableRows(page, 'heap-roots'), roots.map((r) => [r.root, r.kind, fmt(r.count), fmt(r.size), fmt(r.retained)]), 'roots of ChainNode', assert);
    const items = await page.$$eval('[data-list="heap-paths"] li', (lis) => lis.map((li) => [li.dataset.kind, li.textContent]));
    assert(items.length === paths.paths.length && items.length > 0, `${items.length} paths shown, ${paths.paths.length} in the CLI's`);
    for (const [i, p] of paths.paths.entries()) {
      const steps = p.steps.map((s) => (s.address === undefined ? s.type : `${s.type} ${s.address}`)).join(' → ');
      assert(items[i][0] === p.kind && items[i][1] === `${p.kind} ${steps} (${fmt(p.size)} bytes, retains ${fmt(p.retained)})`, `path ${i}: ${items[i][1]}`);
    }
    assert(paths.roots.some((r) => r.kind === '[static vars]'), 'ChainNode is held by a static field: its root kind is [static vars]');

    // The growth from the small snapshot (chosen in the tab), as `nettrace heap BIG --baseline SMALL`.
    const diff = heapJson(big, ['--baseline', small]);
    await page.setInputFiles('#heap-baseline-file', small);
    await page.waitForSelector('table[data-table="heap-diff"]', { timeout: 30_000 });
    sameRows(await tableRows(page, 'heap-diff'), diff.types.map((r) => [r.name, r.module, delta(r.count), delta(r.size), delta(r.retained),
      `${fmt(r.count.baseline)} → ${fmt(r.count.current)}`, `${fmt(r.size.baseline)} → ${fmt(r.size.current)}`]), 'growth by type', assert);
    await page.screenshot({ path: join(screenshots, 'app-heap.png'), fullPage: true });
    assert(pageErrors.length === 0, `page errors: ${pageErrors.join('; ')}`);
  });

  await check('Heap tab: a .nettrace with heap-dump events opens as a trace, and its Heap tab equals `nettrace heap`', async () => {
    const trace = join(testdata, 'heap', 'heapgraphs-small.nettrace');
    const native = heapJson(trace);
    await page.goto(server.url);
    await page.setInputFiles('#file', trace);
    await page.waitForSelector('#result[data-state="done"]', { timeout: 60_000 });
    assert(await page.isVisible('#tab-heap'), 'no Heap tab for a trace with heap-dump events');
    await page.click('#tab-heap');
    await page.waitForSelector('#heap-box[data-heap="done"]', { timeout: 60_000 });
    sameRows((await readTypes(page)).rows, native.types.map(typeCells), 'types of the heap-dump events', assert);
    const info = await page.textContent('#heap-info');
    assert(info.includes(`heap-dump events of GC #${native.gcNumber}`), `info line: ${info}`);
    // A trace without a heap dump has no Heap tab.
    await page.goto(server.url);
    await page.setInputFiles('#file', join(testdata, 'only_managed_samples.nettrace'));
    await page.waitForSelector('#result[data-state="done"]', { timeout: 60_000 });
    assert(await page.isHidden('#tab-heap'), 'a Heap tab for a trace without heap-dump events');
    assert(pageErrors.length === 0, `page errors: ${pageErrors.join('; ')}`);
  });
  await check('Heap tab: reading shows its progress, and Cancel stops it ("Cancelled.", no snapshot kept)', async () => {
    await page.goto(server.url);
    const outcome = await page.evaluate(async (b64) => {
      const element = document.querySelector('nettrace-analyzer');
      const root = appRoot();
      const seen = [];
      // The first progress report shows the bar: Cancel is clicked then, before the next push.
      const observer = new MutationObserver(() => {
        if (root.getElementById('progress').hidden) return;
        seen.push(root.getElementById('progress-text').textContent);
        if (seen.length === 1) root.getElementById('cancel').click();
      });
      observer.observe(root.getElementById('progress'), { attributes: true });
      await element.open(new File([Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))], 'heapgraphs-big.gcdump'));
      observer.disconnect();
      return { seen, state: root.getElementById('heap-box').dataset.heap, status: root.getElementById('status').textContent, heap: element.heap };
    }, readFileSync(big).toString('base64'));
    assert(/^Reading: .* of .*\(\d+(\.\d+)?%\)$/.test(outcome.seen[0] ?? ''), `first progress: ${outcome.seen[0]}`);
    assert(outcome.state === 'cancelled' && outcome.status === 'Cancelled.' && outcome.heap === null, JSON.stringify(outcome));
    assert(pageErrors.length === 0, `page errors: ${pageErrors.join('; ')}`);
  });
  // A generated 1,000,000-object snapshot (tests/bench/heap_gen, built with the native tests):
  // its analyses take seconds, in the heap worker, while the page answers.
  const generator = join(root, 'build/native/tests/heap_gen');
  if (!existsSync(generator)) console.log('skip Heap tab: Cancel during the analyses (build/native/tests/heap_gen is not built)');
  else await check('Heap tab: while a 1,000,000-object snapshot is analysed the page answers, and Cancel ends it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'heap-gen-'));
    try {
      const file = join(dir, 'gen.gcdump');
      assert(spawnSync(generator, ['--objects', '1000000', '--seed', '7', '-o', file]).status === 0, 'heap_gen');
      await page.goto(server.url);
      await page.setInputFiles('#file', file);
      await page.waitForFunction(() => /^Analysing the graph: /.test(appRoot().getElementById('progress-text').textContent), null, { timeout: 60_000, polling: 20 });
      // The page's thread is free: a script runs at once, and Cancel is taken.
      const step = await page.evaluate(() => appRoot().getElementById('progress-text').textContent);
      await page.click('#cancel');
      await page.waitForSelector('#heap-box[data-heap="cancelled"]', { timeout: 10_000 });
      assert(await page.textContent('#status') === 'Cancelled.', `status after Cancel during "${step}"`);
      assert(pageErrors.length === 0, `page errors: ${pageErrors.join('; ')}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
  await page.close();
}
