// Browser checks of the timeline's lanes, the time-order chart and the JIT table
// (web/src/views/timeline_panel.ts and its parts; issues 13 and 14), each against the native
// CLI on committed .NET 10 traces:
// - GC pause bars: one per row of `nettrace gc`; the heap readout at each GC equals its
//   before/after sizes; a click on a pause narrows the event table to `events --from --to`;
// - zoom: a drag selects the axis range, the wheel zooms by 1.2^(deltaY/100) around the
//   cursor, shift+drag pans, + / arrows / 0 zoom, pan and reset from the keyboard, "Reset
//   zoom" shows the whole trace again; the tick labels follow;
// - activity slices: one per activity of `nettrace activities`, each one's readout naming its
//   duration;
// - thread lanes: each one's sample count is the CLI's count of that thread's Thread/Sample rows;
// - time order: the chart's samples for a thread are the CLI's `events --name Thread/Sample
//   --thread T` rows, the frame under the cursor is the sample's root frame (`--frames`), and a
//   click zooms to the run of samples with the same frames down to the clicked depth;
// - JIT table: its rows are `nettrace jit --format json`'s methods, slowest first.
import { join } from 'node:path';
import { root, testdata } from '../node/helpers.mjs';

/** The plot's geometry from the lanes canvas (ms ↔ viewport x). */
async function geometry(page, selector) {
  const box = await page.locator(selector).boundingBox();
  const d = await page.$eval('#tl-lanes', (c) => ({ from: Number(c.dataset.viewFrom), to: Number(c.dataset.viewTo), gutter: Number(c.dataset.gutter), lanes: JSON.parse(c.dataset.lanes) }));
  const plot = box.width - d.gutter;
  return {
    ...d,
    box,
    x: (ms) => box.x + d.gutter + ((ms - d.from) / (d.to - d.from)) * plot,
    pxPerMs: plot / (d.to - d.from),
    lane: (kind) => d.lanes.find((l) => l.kind === kind),
  };
}

async function openTrace(page, server, path, assert) {
  await page.goto('about:blank');
  await page.goto(server.url);
  await page.setInputFiles('#file', path);
  await page.waitForSelector('#result[data-state="done"]', { timeout: 60_000 });
  // Closed at first: opening it loads the lanes.
  assert(await page.getAttribute('#timeline-lanes', 'data-ready') === null, 'nothing loaded before the lanes are opened');
  await page.click('#timeline-lanes > summary');
  await page.waitForSelector('#timeline-lanes[data-ready="true"]', { timeout: 60_000 });
}

const readout = (page, id) => page.$eval(id, (p) => p.textContent);

export async function timelineChecks({ browser, server, check, assert, runNative, screenshots }) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
  await page.addInitScript(() => {
    globalThis.appRoot = () => document.querySelector('nettrace-analyzer')?.shadowRoot ?? document;
  });
  const pageErrors = [];
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  const { packSlices } = await import(join(root, 'dist/views/time_axis.js'));

  await check('timeline lanes: GC pauses and heap equal `nettrace gc`; zoom; a pause click narrows the events', async () => {
    const path = join(testdata, 'dotnet10/net10-gc-verbose.nettrace');
    const gcs = JSON.parse(runNative('gc', path).stdout.toString('utf8')).processes.flatMap((p) => p.gcs);
    assert(gcs.length === 22, `${gcs.length} GCs`);
    await openTrace(page, server, path, assert);
    await page.locator('#tl-lanes').scrollIntoViewIfNeeded();
    assert(await page.getAttribute('#tl-lanes', 'data-pauses') === String(gcs.length), 'one pause bar per GC');
    const full = await geometry(page, '#tl-lanes');
    const fullTicks = await page.getAttribute('#tl-lanes', 'data-ticks');

    // Drag-select 365–495 ms: the axis then shows exactly that range.
    const heap = full.lane('heap');
    await page.mouse.move(full.x(365), full.box.y + heap.top + 5);
    await page.mouse.down();
    await page.mouse.move(full.x(430), full.box.y + heap.top + 5, { steps: 4 });
    await page.mouse.move(full.x(495), full.box.y + heap.top + 5, { steps: 4 });
    await page.mouse.up();
    const zoomed = await geometry(page, '#tl-lanes');
    const msAt = (x) => full.from + ((x - full.box.x - full.gutter) / (full.box.width - full.gutter)) * (full.to - full.from);
    assert(Math.abs(zoomed.from - msAt(full.x(365))) < 1e-3 && Math.abs(zoomed.to - msAt(full.x(495))) < 1e-3,
      `axis ${zoomed.from}–${zoomed.to} after selecting 365–495 ms`);
    const zoomedTicks = await page.getAttribute('#tl-lanes', 'data-ticks');
    assert(zoomedTicks !== fullTicks && zoomedTicks.split('|').every((t) => / ms$/.test(t)), `ticks ${zoomedTicks}`);
    await page.screenshot({ path: join(screenshots, 'timeline-lanes-gc.png') });

    // The heap readout just after each GC's start (each GC starts ≥ 1.5 px after the previous
    // one at this zoom): its before → after sizes.
    let checked = 0;
    for (let i = 0; i < gcs.length; i++) {
      const gc = gcs[i];
      const x = Math.ceil(zoomed.x(gc.startMs) + 0.01);
      assert(i + 1 === gcs.length || zoomed.x(gcs[i + 1].startMs) - x >= 0.5, `GC #${gc.number} is too close to the next one to hover`);
      await page.mouse.move(x, zoomed.box.y + heap.top + 5);
      const text = await readout(page, '#tl-readout');
      const expected = `heap ${gc.heapSizeBeforeMB.toFixed(3)} → ${(gc.heapSizeAfterBytes / 1e6).toFixed(3)} MB at GC #${gc.number}`;
      assert(text.includes(expected), `GC #${gc.number}: readout "${text}" lacks "${expected}"`);
      checked++;
    }
    assert(checked === gcs.length, `${checked} GCs checked in the heap readout`);

    // Wheel zoom around a point: the span scales by 1.2^(deltaY/100); reset shows everything again.
    await page.mouse.move(zoomed.x(457), zoomed.box.y + heap.top + 5);
    await page.mouse.wheel(0, -200);
    await page.waitForFunction((from) => appRoot().getElementById('tl-lanes').dataset.viewFrom !== from, zoomed.from.toFixed(3));
    const wheeled = await geometry(page, '#tl-lanes');
    const ratio = (wheeled.to - wheeled.from) / (zoomed.to - zoomed.from);
    assert(Math.abs(ratio - Math.pow(1.2, -2)) < 1e-4, `span ratio ${ratio}`);
    // Shift+drag pans: 100 px to the left moves the range 100 px' worth of ms later, its span kept.
    await page.keyboard.down('Shift');
    await page.mouse.move(wheeled.x(450), wheeled.box.y + heap.top + 5);
    await page.mouse.down();
    await page.mouse.move(wheeled.x(450) - 100, wheeled.box.y + heap.top + 5, { steps: 5 });
    await page.mouse.up();
    await page.keyboard.up('Shift');
    const panned = await geometry(page, '#tl-lanes');
    const pannedMs = 100 / wheeled.pxPerMs;
    assert(Math.abs(panned.from - (wheeled.from + pannedMs)) < 2e-3 && Math.abs((panned.to - panned.from) - (wheeled.to - wheeled.from)) < 2e-3,
      `pan: ${panned.from}–${panned.to} after ${wheeled.from}–${wheeled.to} + ${pannedMs} ms`);
    // Keys: "+" zooms in by 1.5 around the middle, ArrowRight pans a tenth, "0" resets.
    await page.focus('#tl-lanes');
    await page.keyboard.press('+');
    const keyed = await geometry(page, '#tl-lanes');
    assert(Math.abs((keyed.to - keyed.from) * 1.5 - (panned.to - panned.from)) < 3e-3 && Math.abs(keyed.from + keyed.to - panned.from - panned.to) < 3e-3, `+: ${keyed.from}–${keyed.to}`);
    await page.keyboard.press('ArrowRight');
    const right = await geometry(page, '#tl-lanes');
    assert(Math.abs(right.from - keyed.from - (keyed.to - keyed.from) / 10) < 2e-3, `ArrowRight: ${right.from}–${right.to}`);
    await page.keyboard.press('0');
    assert((await geometry(page, '#tl-lanes')).from === full.from, '0 resets');
    await page.keyboard.press('+');
    await page.click('#tl-reset');
    const reset = await geometry(page, '#tl-lanes');
    assert(reset.from === full.from && reset.to === full.to, `reset: ${reset.from}–${reset.to}`);

    // Click GC #12's pause bar (15 ms) in the full view: the event table shows its range.
    const gc = gcs[11];
    const pauses = reset.lane('pauses');
    await page.mouse.click(reset.x(gc.pauseStartMs + gc.pauseMs / 2), reset.box.y + pauses.top + pauses.height / 2);
    const from = Math.floor(Math.min(gc.pauseStartMs, gc.startMs) * 1000) / 1000;
    const to = Math.ceil(Math.max(gc.pauseStartMs + gc.pauseMs, gc.startMs + gc.durationMs) * 1000) / 1000;
    assert(await page.getAttribute('#tab-events', 'aria-selected') === 'true', 'the pause opens the event table');
    const lines = runNative('events', path, ['--from', from.toFixed(3), '--to', to.toFixed(3), '--limit', '100000000'])
      .stdout.toString('utf8').trim().split('\n').filter(Boolean);
    assert(lines.length > 0, 'events in the GC\'s range');
    await page.waitForFunction((n) => appRoot().getElementById('event-scroller').dataset.total === String(n), lines.length, { timeout: 30_000 });
    const hash = new URLSearchParams(new URL(page.url()).hash.slice(1));
    assert(hash.get('from') === from.toFixed(3) && hash.get('to') === to.toFixed(3), `range in the hash: ${hash}`);
  });

  await check('timeline lanes: activity slices equal `nettrace activities` (count, each duration)', async () => {
    const path = join(testdata, 'dotnet10/net10-cpu-async-http.nettrace');
    const view = JSON.parse(runNative('activities', path).stdout.toString('utf8'));
    assert(view.activities.length === 72, `${view.activities.length} activities`);
    await openTrace(page, server, path, assert);
    await page.locator('#tl-lanes').scrollIntoViewIfNeeded();
    assert(await page.getAttribute('#tl-lanes', 'data-slices') === String(view.activities.length), 'one slice per activity');
    // Zoom to the activities' span, then hover each slice wider than 2 px.
    let g = await geometry(page, '#tl-lanes');
    const first = Math.min(...view.activities.map((a) => a.startMs));
    const last = Math.max(...view.activities.map((a) => a.startMs + (a.durationMs ?? 0)));
    const lane = g.lane('activities');
    await page.mouse.move(g.x(first), g.box.y + 2);
    await page.mouse.down();
    await page.mouse.move(g.x(last) + 1, g.box.y + 2, { steps: 5 });
    await page.mouse.up();
    g = await geometry(page, '#tl-lanes');
    const { rows } = packSlices(view.activities.map((a) => ({ startMs: a.startMs, endMs: a.startMs + (a.durationMs ?? 0), parent: a.parent })));
    let checked = 0;
    for (let i = 0; i < view.activities.length; i++) {
      const a = view.activities[i];
      const x0 = Math.max(g.x(a.startMs), g.box.x + g.gutter);
      const x1 = Math.min(g.x(a.startMs + (a.durationMs ?? 0)), g.box.x + g.box.width);
      if (x1 - x0 < 2 || rows[i] >= 24) continue;
      await page.mouse.move(Math.round((x0 + x1) / 2), g.box.y + lane.top + rows[i] * 14 + 7);
      const text = await readout(page, '#tl-readout');
      const expected = `${a.name}: ${a.durationMs === null ? 'unfinished' : `${a.durationMs.toFixed(3)} ms`}`;
      assert(text.includes(expected), `activity ${i}: "${text}" lacks "${expected}"`);
      checked++;
    }
    console.log(`     ${checked} of ${view.activities.length} activity slices hovered`);
    assert(checked >= 36, `only ${checked} slices wide enough to hover`);
    await page.screenshot({ path: join(screenshots, 'timeline-lanes-activities.png') });
  });

  await check('time order: the chart\'s samples of a thread are the CLI\'s Thread/Sample rows; hover names the root frame', async () => {
    const path = join(testdata, 'dotnet10/net10-cpu-async-http.nettrace');
    await openTrace(page, server, path, assert);
    await page.waitForSelector('#time-order[data-ready="true"]', { timeout: 60_000 });
    const options = await page.$$eval('#to-thread option', (os) => os.map((o) => o.value));
    assert(options.length >= 2, `${options.length} threads offered`);
    // Each thread lane's sample count (its label) is the CLI's count of that thread's samples.
    const threadLanes = (await geometry(page, '#tl-lanes')).lanes.filter((l) => l.kind === 'thread');
    assert(threadLanes.length === options.length && threadLanes.length >= 2, `${threadLanes.length} thread lanes`);
    for (const lane of threadLanes) {
      const [, id, count] = /(\d+) \(([\d,]+)\)$/.exec(lane.label);
      const n = runNative('events', path, ['--name', 'Thread/Sample', '--thread', id, '--limit', '100000000']).stdout.toString('utf8').trim().split('\n').filter(Boolean).length;
      assert(Number(count.replace(/,/g, '')) === n, `lane ${lane.label}: the CLI has ${n} samples`);
    }
    for (const thread of options.slice(0, 2)) {
      if ((await page.inputValue('#to-thread')) !== thread) {
        await page.selectOption('#to-thread', thread);
        await page.waitForFunction((t) => appRoot().getElementById('to-chart').dataset.thread === t &&
          appRoot().getElementById('time-order').dataset.ready === 'true', thread, { timeout: 60_000 });
      }
      const rows = runNative('events', path, ['--name', 'Thread/Sample', '--thread', thread, '--limit', '100000000', '--frames'])
        .stdout.toString('utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l));
      const shown = await page.getAttribute('#to-chart', 'data-samples');
      assert(shown === String(rows.length), `thread ${thread}: chart ${shown} samples, CLI ${rows.length}`);
      assert(await page.getAttribute('#to-chart', 'data-stacks') === String(new Set(rows.filter((r) => r.stack).map((r) => r.stack)).size), 'distinct stacks');
      // Hover the middle sample at depth 0, zoomed in until it spans ≥ 3 px.
      const k = rows.findIndex((r, i) => i >= rows.length >> 1 && r.frames?.length > 0 && i + 1 < rows.length);
      const sample = rows[k];
      await page.locator('#to-chart').scrollIntoViewIfNeeded();
      for (let n = 0; n < 40; n++) {
        const g = await geometry(page, '#to-chart');
        if ((rows[k + 1].timeMs - sample.timeMs) * g.pxPerMs >= 3) break;
        await page.mouse.move(g.x(sample.timeMs), g.box.y + 8);
        const before = g.from;
        await page.mouse.wheel(0, -300);
        await page.waitForFunction((f) => appRoot().getElementById('tl-lanes').dataset.viewFrom !== f, before.toFixed(3));
      }
      const g = await geometry(page, '#to-chart');
      await page.mouse.move(Math.ceil(g.x(sample.timeMs) + 0.5), g.box.y + 8);
      const text = await readout(page, '#to-readout');
      const root = sample.frames[sample.frames.length - 1];
      assert(text.includes(`sample at ${sample.timeMs.toFixed(3)} ms`) && text.endsWith(root), `thread ${thread}: "${text}" vs ${sample.timeMs} ${root}`);
      // A click zooms to the box: the run of samples around it with the same frames down to
      // its depth (the shallowest depth whose run ends before the thread's last sample).
      const prefixOf = (r, d) => (r.frames?.length > d ? r.frames.slice(r.frames.length - 1 - d).join('\n') : null);
      let box = null;
      for (let d = 0; d < Math.min(sample.frames.length, 20) && box === null; d++) {
        const p = prefixOf(sample, d);
        let first = k;
        while (first > 0 && prefixOf(rows[first - 1], d) === p) first--;
        let last = k;
        while (last + 1 < rows.length && prefixOf(rows[last + 1], d) === p) last++;
        if (last + 1 < rows.length) box = { d, from: rows[first].timeMs, to: rows[last + 1].timeMs };
      }
      assert(box !== null, `thread ${thread}: no box to click`);
      await page.mouse.click(Math.ceil(g.x(sample.timeMs) + 0.5), g.box.y + box.d * 16 + 8);
      const zoomed = await geometry(page, '#to-chart');
      assert(zoomed.from.toFixed(3) === box.from.toFixed(3) && zoomed.to.toFixed(3) === box.to.toFixed(3),
        `thread ${thread}: click at depth ${box.d} zoomed to ${zoomed.from}–${zoomed.to}, the box is ${box.from}–${box.to}`);
      await page.click('#tl-reset');
    }
    await page.screenshot({ path: join(screenshots, 'time-order.png') });
  });

  await check('JIT table: rows equal `nettrace jit --format json`, slowest first; totals', async () => {
    const path = join(testdata, 'dotnet10/net10-startup-streaming.nettrace');
    const stats = JSON.parse(runNative('jit', path).stdout.toString('utf8'));
    const p = stats.processes.find((x) => x.methods.length > 0);
    assert(p.methods.length === 150, `${p.methods.length} methods`);
    await openTrace(page, server, path, assert);
    await page.waitForSelector(`table[data-table="jit-methods"][data-process="${p.processId}"] tbody tr`, { timeout: 30_000 });
    const shown = await page.$$eval(`table[data-table="jit-methods"][data-process="${p.processId}"] tbody tr`,
      (trs) => trs.map((r) => [...r.cells].map((c) => c.textContent)));
    const cells = (m) => [m.name, m.module, m.tier, m.r2r ? 'R2R' : 'jitted', String(m.ilSize), String(m.nativeSize), m.jitTimeMs.toFixed(3),
      m.startMs.toFixed(3), m.thread, String(m.threadId), m.completed ? '' : 'unfinished'];
    const expected = [...p.methods].sort((a, b) => Number(b.jitTimeMs.toFixed(3)) - Number(a.jitTimeMs.toFixed(3))).map(cells);
    assert(shown.length === expected.length, `${shown.length} rows, ${expected.length} methods`);
    for (let i = 0; i < shown.length; i++) assert(JSON.stringify(shown[i]) === JSON.stringify(expected[i]), `row ${i}: ${JSON.stringify(shown[i])} vs ${JSON.stringify(expected[i])}`);
    const totals = await page.textContent(`table[data-table="jit-totals"][data-process="${p.processId}"]`);
    const t = p.totals;
    for (const part of [`JIT time ms${t.totalJitTimeMs.toFixed(3)}`, `${t.countForeground}, ${t.foregroundJitTimeMs.toFixed(3)}`])
      assert(totals.includes(part), `totals "${totals}" lack "${part}"`);
  });

  await check('JIT totals: the multicore-JIT row and MulticoreJitBackground rows = the JSON (net10-bgc-waits-mcj)', async () => {
    const path = join(testdata, 'dotnet10/net10-bgc-waits-mcj.nettrace');
    const p = JSON.parse(runNative('jit', path).stdout.toString('utf8')).processes[0];
    assert(p.totals.countBackgroundMultiCoreJit > 0, `${p.totals.countBackgroundMultiCoreJit} multicore-JIT methods`);
    await openTrace(page, server, path, assert);
    const rows = `table[data-table="jit-methods"][data-process="${p.processId}"] tbody tr`;
    await page.waitForSelector(rows, { timeout: 30_000 });
    const totals = await page.textContent(`table[data-table="jit-totals"][data-process="${p.processId}"]`);
    const part = `Background multicore JIT (methods, ms)${p.totals.countBackgroundMultiCoreJit}, ${p.totals.backgroundMultiCoreJitTimeMs.toFixed(3)}`;
    assert(totals.includes(part), `totals "${totals}" lack "${part}"`);
    const kinds = await page.$$eval(rows, (trs) => trs.filter((r) => [...r.cells].some((c) => c.textContent === 'MulticoreJitBackground')).length);
    assert(kinds === p.totals.countBackgroundMultiCoreJit, `${kinds} rows shown as MulticoreJitBackground`);
  });

  await check('timeline lanes, time order, JIT table: no page errors', async () => {
    assert(pageErrors.length === 0, pageErrors.join('\n'));
  });
  await page.close();
}
