// Browser checks of the app's views (called by run.mjs with its page, server and helpers):
// every corpus trace's summary tables equal the native CLI's, the event table scrolls to the
// last event and shows its fields, filters (from the types table, the hash and the form)
// narrow the events, the flame graph names managed frames and search finds a method, tabs
// work from the keyboard, ?url= opens a trace, and screenshots of each view in light and
// dark at 1280×720 go to build/screenshots/.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { diffChecks } from './app_diff_checks.mjs';
import { runsChecks } from './app_runs_checks.mjs';
import { partialChecks } from './app_partial_checks.mjs';
import { weightChecks } from './app_weight_checks.mjs';
import { groupingChecks } from './app_grouping_checks.mjs';
import { profileExportChecks } from './app_profile_checks.mjs';
import { uxChecks } from './app_ux_checks.mjs';
import { clickExport } from './harness.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));

export async function appChecks({ browser, server, check, assert, traces, byName, nativeSummary, runNative, screenshots }) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 720 }, acceptDownloads: true });
  const tmp = mkdtempSync(join(tmpdir(), 'nettrace-app-'));
  await page.addInitScript(() => {
    globalThis.appRoot = () => document.querySelector('nettrace-analyzer')?.shadowRoot ?? document;
  });
  const pageErrors = [];
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  page.on('console', (m) => {
    if (m.type() === 'error') pageErrors.push(m.text());
  });

  /** Opens a fresh page (about:blank first: a hash-only change would not reload it). */
  const open = async (path, hash = '', expectState = 'done') => {
    await page.goto('about:blank');
    await page.goto(`${server.url}${hash}`);
    await page.setInputFiles('#file', path);
    await page.waitForSelector('#result:is([data-state="done"], [data-state="error"])', { timeout: 60_000 });
    const state = await page.getAttribute('#result', 'data-state');
    assert(state === expectState, `state ${state}: ${await page.textContent('#status')}`);
  };
  /** The event types table as "provider/name count" lines, sorted. */
  const typeLines = () =>
    page.$$eval('#summary-tables table[data-table="types"] tbody tr', (rows) =>
      rows.map((r) => {
        const cells = [...r.cells].map((c) => c.textContent);
        return `${cells[0]}/${cells[1]} ${cells[3].replace(/,/g, '')}`;
      }).sort(),
    );
  const eventCountShown = async () => {
    await page.waitForFunction(() => appRoot().getElementById('event-scroller').dataset.total !== undefined);
    return Number(await page.getAttribute('#event-scroller', 'data-total'));
  };

  for (const trace of traces) {
    await check(`app summary of ${trace.name}: event count and type counts equal native`, async () => {
      // A trace the native tool cannot read to its end (truncated) shows the error
      // and the summary of what was read before it, which must equal the native one too.
      const run = runNative('summary', trace.path);
      const native = JSON.parse(run.stdout.toString('utf8'));
      await open(trace.path, '', run.status === 0 ? 'done' : 'error');
      const facts = await page.textContent('#headline');
      assert(facts.includes(new Intl.NumberFormat('en-US').format(native.eventCount)), `event count ${native.eventCount} not shown in: ${facts}`);
      const expected = native.types.map((t) => `${t.provider}/${t.name} ${t.count}`).sort();
      const shown = await typeLines();
      assert(JSON.stringify(shown) === JSON.stringify(expected), `types differ:\n page:   ${shown.slice(0, 5)}\n native: ${expected.slice(0, 5)}`);
    });
  }

  await check('app summary of a NetPerf trace: read to its end, its format named, counts equal native', async () => {
    const netPerf = byName('eventpipe-dotnetcore2.1-linux-x64-tracelogging');
    const native = nativeSummary(netPerf.path);
    await open(netPerf.path);  // fails unless the page reaches "done"
    const facts = await page.textContent('#headline');
    assert(facts.includes('NetPerf FastSerialization, version 3.0'), `format not named in: ${facts}`);
    assert(native.eventCount === 12 && facts.includes('12'), `event count ${native.eventCount} not shown in: ${facts}`);
    const expected = native.types.map((t) => `${t.provider}/${t.name} ${t.count}`).sort();
    assert(JSON.stringify(await typeLines()) === JSON.stringify(expected), 'types differ from the native tool');
  });

  await check('app summary of NetPerf versions 1 and 2 (their end read first with Blob.slice): format named, counts equal native', async () => {
    for (const name of ['eventpipe-netperf-v1-tracelogging.netperf', 'eventpipe-netperf-v2-objver3.netperf']) {
      const path = join(tmp, name);
      writeFileSync(path, gunzipSync(readFileSync(join(root, 'tests/netperf_legacy/data', `${name}.gz`))));
      const native = nativeSummary(path);
      await open(path);
      const facts = await page.textContent('#headline');
      assert(facts.includes(`NetPerf FastSerialization, version ${native.format.major}.0`), `${name}: format not named in: ${facts}`);
      assert(facts.includes(new Intl.NumberFormat('en-US').format(native.eventCount)), `${name}: event count not shown in: ${facts}`);
      const expected = native.types.map((t) => `${t.provider}/${t.name} ${t.count}`).sort();
      assert(JSON.stringify(await typeLines()) === JSON.stringify(expected), `${name}: types differ from the native tool`);
    }
  });

  const heart = byName('HeartRateMonitor');
  const heartSummary = nativeSummary(heart.path);

  await check('app events: the table scrolls to the last event and the detail pane shows its fields', async () => {
    await open(heart.path);
    await page.click('#tab-events');
    assert((await eventCountShown()) === heartSummary.eventCount, 'the table holds every event');
    const rowsInDom = await page.$$eval('.vt-row', (r) => r.length);
    assert(rowsInDom < 60, `only visible rows are in the DOM, found ${rowsInDom}`);
    await page.focus('#event-scroller');
    await page.keyboard.press('End');
    const last = heartSummary.eventCount - 1;
    await page.waitForSelector(`.vt-row.selected[data-index="${last}"]`, { timeout: 20_000 });
    await page.waitForSelector(`#event-detail[data-index="${last}"]`, { timeout: 20_000 });
    const native = JSON.parse(runNative('events', heart.path, ['--offset', String(last), '--limit', '1']).stdout.toString('utf8'));
    const detail = await page.textContent('#event-detail');
    assert(detail.includes(native.name), `detail lacks the event name ${native.name}`);
    for (const f of native.payload?.fields ?? []) assert(detail.includes(f.name), `detail lacks field ${f.name}`);
    await page.screenshot({ path: join(screenshots, 'app-events-last.png') });
  });

  await check('app events: clicking an event type filters the table; the hash keeps the filter', async () => {
    await open(heart.path);
    const type = heartSummary.types.find((t) => t.name === 'GC/SuspendEEStart');
    await page.click(`#summary-tables table[data-table="types"] tbody tr:has(td:text-is("${type.name}"))`);
    await page.waitForFunction((n) => appRoot().getElementById('event-scroller').dataset.total === String(n), type.count, { timeout: 20_000 });
    const hash = new URL(page.url()).hash;
    assert(hash.includes('tab=events') && hash.includes('event=GC%2FSuspendEEStart'), `hash ${hash}`);
    // The same link, with the same file, reproduces the view.
    await open(heart.path, hash);
    assert(await page.getAttribute('#tab-events', 'aria-selected') === 'true', 'the events tab is selected');
    await page.waitForFunction((n) => appRoot().getElementById('event-scroller').dataset.total === String(n), type.count, { timeout: 20_000 });
    // A time range narrows it further.
    await page.fill('#f-to', '100');
    await page.dispatchEvent('#f-to', 'change');
    await page.waitForFunction((n) => Number(appRoot().getElementById('event-scroller').dataset.total) < n, type.count, { timeout: 20_000 });
  });

  await check('app timeline: the brush narrows the event count, the chip clears it', async () => {
    await open(heart.path);
    await page.click('#tab-events');
    const all = await eventCountShown();
    const box = await page.locator('#timeline-canvas').boundingBox();
    assert(box && box.width > 100, 'the timeline is drawn');
    await page.mouse.move(box.x + box.width * 0.3, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.5, box.y + box.height / 2, { steps: 5 });
    await page.mouse.up();
    await page.waitForFunction((n) => Number(appRoot().getElementById('event-scroller').dataset.total) < n, all, { timeout: 20_000 });
    const narrowed = Number(await page.getAttribute('#event-scroller', 'data-total'));
    assert(narrowed > 0, 'some events are in the range');
    assert(!(await page.locator('#range-chip').isHidden()), 'the range chip shows');
    const hash = new URL(page.url()).hash;
    assert(/from=[\d.]+/.test(hash) && /to=[\d.]+/.test(hash), `the range is in the hash: ${hash}`);
    // The same range through the native tool gives the same count.
    const from = new URLSearchParams(hash.slice(1)).get('from');
    const to = new URLSearchParams(hash.slice(1)).get('to');
    const lines = runNative('events', heart.path, ['--from', from, '--to', to, '--limit', '100000000']).stdout.toString('utf8').trim().split('\n');
    assert(lines.length === narrowed, `page ${narrowed} events, native ${lines.length} in ${from}–${to} ms`);
    await page.screenshot({ path: join(screenshots, 'app-events-range.png') });
    await page.click('#range-clear');
    await page.waitForFunction((n) => Number(appRoot().getElementById('event-scroller').dataset.total) === n, all, { timeout: 20_000 });
    assert(await page.locator('#range-chip').isHidden(), 'the chip is gone');
  });

  await check('app: a second trace opened in the same page replaces the first in every view', async () => {
    await open(heart.path);
    await page.click('#tab-flame');
    await page.waitForFunction(() => Number(appRoot().getElementById('g-canvas-box').dataset.nodes ?? 0) > 1, null, { timeout: 30_000 });
    await page.click('#tab-events');
    await eventCountShown();
    const sample = byName('only_managed_samples');
    const expected = nativeSummary(sample.path);
    await page.setInputFiles('#file', sample.path);
    await page.waitForFunction((n) => appRoot().getElementById('event-scroller').dataset.total === String(n), expected.eventCount, { timeout: 30_000 });
    await page.waitForSelector('.vt-row[data-index]');
    await page.click('#tab-flame');
    await page.waitForFunction(() => !/Computing/.test(appRoot().getElementById('g-message').textContent), null, { timeout: 30_000 });
    const top = await page.textContent('#g-top');
    assert(!top.includes('HeartRateMonitor'), 'the flame graph shows the new trace');
  });

  await check('app events: the detail pane shows the event\'s stack with named frames', async () => {
    await open(heart.path, '#tab=events&event=Thread%2FSample&thread=10068');
    await page.waitForSelector('.vt-row[data-index]');
    const first = JSON.parse(runNative('events', heart.path, ['--name', 'Thread/Sample', '--thread', '10068', '--limit', '1']).stdout.toString('utf8'));
    await page.click(`.vt-row[data-index="${first.index}"]`);
    await page.waitForSelector('#event-detail .frames li', { timeout: 20_000 });
    const frames = await page.$$eval('#event-detail .frames li', (li) => li.map((x) => x.textContent));
    const flame = JSON.parse(runNative('flame', heart.path, ['--event', 'Thread/Sample', '--thread', '10068',
      '--from', String(first.timeMs - 5e-7), '--to', String(first.timeMs + 5e-7)]).stdout.toString('utf8'));
    const expected = flame.frame.slice(1).map((f) => flame.frames[f]).reverse();
    assert(JSON.stringify(frames) === JSON.stringify(expected), `stack ${JSON.stringify(frames)} != native ${JSON.stringify(expected)}`);
    assert(frames.includes('HeartRateMonitor!HeartRateMonitor.Program.Main'), 'a named managed frame');
    await page.screenshot({ path: join(screenshots, 'app-event-stack.png') });
  });

  await check('app tabs: arrow keys move between tabs', async () => {
    await open(heart.path);
    await page.focus('#tab-summary');
    await page.keyboard.press('ArrowRight');
    assert(await page.getAttribute('#tab-events', 'aria-selected') === 'true', 'ArrowRight selects Events');
    assert(await page.evaluate(() => appRoot().activeElement?.id) === 'tab-events', 'focus follows');
    await page.keyboard.press('ArrowLeft');
    assert(await page.getAttribute('#tab-summary', 'aria-selected') === 'true', 'ArrowLeft selects Summary');
  });

  await check('app flame graph: named managed frames, search finds HeartRateMonitor.Program.Main', async () => {
    await open(heart.path);
    await page.click('#tab-flame');
    await page.waitForFunction(() => Number(appRoot().getElementById('g-canvas-box').dataset.nodes ?? 0) > 1 || /Could not/.test(appRoot().getElementById('g-message').textContent), null, { timeout: 30_000 });
    const message = await page.textContent('#g-message');
    assert(!/Could not/.test(message), message);
    const top = await page.textContent('#g-top');
    assert(top.includes('HeartRateMonitor!HeartRateMonitor.Program.Main'), 'top functions name managed frames');
    await page.fill('#g-search', 'HeartRateMonitor.Program.Main');
    const matches = Number(await page.getAttribute('#g-search-result', 'data-matches'));
    assert(matches >= 1, `search matches: ${matches}`);
    // Hover shows the tooltip; a click zooms (the breadcrumb grows).
    const box = await page.locator('#g-canvas').boundingBox();
    await page.mouse.move(box.x + box.width / 2, box.y + 9 + 18 * 2);
    assert(!(await page.locator('#g-tooltip').isHidden()), 'hover shows a tooltip');
    await page.mouse.click(box.x + box.width / 2, box.y + 9 + 18 * 2);
    assert((await page.$$eval('#g-breadcrumb button', (b) => b.length)) >= 2, 'click zooms');
    // Keyboard: Home zooms out; arrows move (the tooltip names the frame); Enter zooms.
    await page.focus('#g-canvas');
    await page.keyboard.press('Home');
    assert((await page.$$eval('#g-breadcrumb button', (b) => b.length)) === 1, 'Home zooms out');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    const focused = await page.textContent('#g-tooltip strong');
    assert(focused && focused !== 'all', `arrow keys focus a frame: ${focused}`);
    await page.keyboard.press('Enter');
    const crumbs = await page.$$eval('#g-breadcrumb button', (b) => b.map((x) => x.textContent));
    assert(crumbs.length === 3 && crumbs[2] === focused, `Enter zooms to the focused frame: ${crumbs}`);
  });

  await check('app sandwich: a top function\'s callers and callees equal the engine\'s; the link keeps it', async () => {
    const method = 'HeartRateMonitor!HeartRateMonitor.Program.OnCreate';
    const native = JSON.parse(runNative('sandwich', heart.path, [method]).stdout.toString('utf8'));
    // The callers / callees trees' first level, from the engine's layouts (children of the root).
    const level1 = (graph) =>
      graph.frame.map((f, i) => [i, f]).filter(([i]) => i > 0 && graph.parent[i] === 0).map(([, f]) => graph.frames[f]).sort();
    await open(heart.path);
    await page.click('#tab-flame');
    await page.click('#side-sandwich');
    await page.waitForSelector('#g-sandwich >> text=Pick a function');
    await page.click('#side-top');
    await page.click(`#g-top tbody tr:has(td:text-is("${method}"))`);
    await page.click('#side-sandwich');
    const shownLevel1 = async (kind) =>
      (await page.$$eval(`#g-sandwich .sandwich-tree.${kind} tbody tr[aria-level="1"] .sandwich-label`, (e) => e.map((x) => x.textContent))).sort();
    await page.waitForSelector('#g-sandwich .sandwich-tree.callers tbody tr', { timeout: 20_000 });
    assert(JSON.stringify(await shownLevel1('callers')) === JSON.stringify(level1(native.callers)), `callers ${await shownLevel1('callers')}`);
    assert(!(await page.textContent('#g-sandwich')).includes('Pick a function'), 'the hint is gone once a function is picked');
    assert(JSON.stringify(await shownLevel1('callees')) === JSON.stringify(level1(native.callees)), `callees ${await shownLevel1('callees')}`);
    const hash = new URL(page.url()).hash;
    const params = new URLSearchParams(hash.slice(1));
    assert(params.get('side') === 'sandwich' && params.get('fn') === method, `hash ${hash}`);
    // The same link reproduces the sandwich; arrow keys move between the two side tabs.
    await open(heart.path, hash);
    await page.waitForSelector('#g-sandwich .sandwich-tree.callers tbody tr', { timeout: 20_000 });
    await page.focus('#side-sandwich');
    await page.keyboard.press('ArrowLeft');
    assert(await page.getAttribute('#side-top', 'aria-selected') === 'true' && !(await page.locator('#g-top').isHidden()), 'ArrowLeft shows Top functions');
  });

  await check('app events: free text found only in payload fields gives the native CLI\'s matches; the detail stack = eventStack', async () => {
    // "OnCreate" is in no provider, event or thread name: only in method names of rundown events.
    const native = runNative('events', heart.path, ['--text', 'oncreate', '--limit', '1000000']).stdout.toString('utf8').trim().split('\n').map((l) => JSON.parse(l));
    assert(native.length > 0 && native.every((e) => !/oncreate/i.test(`${e.provider} ${e.name}`)), 'the text is in payloads only');
    await open(heart.path);
    await page.click('#tab-events');
    await eventCountShown();
    await page.fill('#f-text', 'oncreate');
    await page.press('#f-text', 'Enter');
    await page.waitForFunction((n) => appRoot().getElementById('event-scroller').dataset.total === String(n), native.length, { timeout: 30_000 });
    assert(new URLSearchParams(new URL(page.url()).hash.slice(1)).get('text') === 'oncreate', 'the hash keeps the text');
    await page.click('.vt-row[data-index] >> nth=0');
    await page.waitForSelector(`#event-detail[data-index="${native[0].index}"]`, { timeout: 20_000 });
    // A stack with named frames, equal to the native `stack` command's.
    await page.fill('#f-text', '');
    await page.press('#f-text', 'Enter');
    const sample = JSON.parse(runNative('events', heart.path, ['--name', 'Thread/Sample', '--limit', '1']).stdout.toString('utf8'));
    await page.selectOption('#f-provider', sample.provider);
    await page.selectOption('#f-event', sample.name);
    await page.waitForFunction(() => appRoot().querySelector('.vt-row[data-index]') !== null, null, { timeout: 20_000 });
    await page.click('.vt-row[data-index] >> nth=0');
    await page.waitForSelector(`#event-detail[data-index="${sample.index}"] .frames li`, { timeout: 20_000 });
    const frames = await page.$$eval('#event-detail .frames li', (li) => li.map((x) => x.textContent));
    const nativeFrames = JSON.parse(runNative('stack', heart.path, [String(sample.index)]).stdout.toString('utf8'));
    const expected = Array.isArray(nativeFrames) ? nativeFrames : nativeFrames.frames;
    assert(JSON.stringify(frames) === JSON.stringify(expected), `frames ${frames.slice(0, 3)} vs ${expected.slice(0, 3)}`);
  });

  await check('app summary: GC pauses by generation and allocations by type equal the engine\'s; Flame graph button picks the type', async () => {
    const objver4 = byName('eventpipe-dotnetcore3.0-win-x64-objver4');
    const native = nativeSummary(objver4.path);
    await open(objver4.path);
    const gcRows = await page.$$eval('table[data-table="gc"] tbody tr', (trs) => trs.map((r) => [...r.cells].map((c) => c.textContent)));
    const expectedGc = native.runtime.gc.generations.map((g) => [String(g.generation), g.count.toLocaleString('en-US'), g.totalPauseMs.toFixed(3), g.maxPauseMs.toFixed(3), g.meanPauseMs.toFixed(3)]);
    assert(JSON.stringify(gcRows) === JSON.stringify(expectedGc), `GC rows ${JSON.stringify(gcRows)} vs ${JSON.stringify(expectedGc)}`);
    const firstAlloc = await page.textContent('table[data-table="allocations"] tbody tr:first-child td:first-child');
    assert(firstAlloc === native.runtime.allocations.types[0].type, `top allocation type ${firstAlloc}`);
    // A type's row shows its events: GC/AllocationTick with the type's name as the text filter.
    const bitStack = native.runtime.allocations.types.find((t) => t.type === 'System.Xml.BitStack');
    const nativeMatches = runNative('events', objver4.path, ['--name', 'GC/AllocationTick', '--text', bitStack.type, '--limit', '1000000']).stdout.toString('utf8').trim().split('\n').length;
    assert(nativeMatches >= bitStack.count, `native finds ${nativeMatches} events`);
    await page.click(`table[data-table="allocations"] tbody tr:has(td:text-is("${bitStack.type}"))`);
    await page.waitForFunction((n) => appRoot().getElementById('event-scroller').dataset.total === String(n), nativeMatches, { timeout: 30_000 });
    await page.click('#tab-summary');
    const signals = await page.textContent('.signals');
    assert(signals.includes(native.runtime.gc.count.toLocaleString('en-US')) && signals.includes('GC pause time'), `signals: ${signals}`);
    // The flame graph offers exactly the types with stacks; the types table's button opens one.
    const withStacks = [...new Set(native.types.filter((t) => t.withStacks > 0).map((t) => t.name))].sort();
    await page.click('table[data-table="types"] tbody tr:has(td:text-is("GC/AllocationTick")) button');
    assert(await page.getAttribute('#tab-flame', 'aria-selected') === 'true', 'the button opens the flame graph');
    assert(await page.inputValue('#g-event') === 'GC/AllocationTick', 'with the type picked');
    const offered = (await page.$$eval('#g-event option', (o) => o.map((x) => x.value))).sort();
    assert(JSON.stringify(offered) === JSON.stringify(withStacks), `picker offers ${offered.length}, types with stacks ${withStacks.length}`);
    // Allocated bytes are written in KB/MB/GB, as every view writes bytes (web/src/ui/units.ts).
    const bytes = JSON.parse(runNative('flame', objver4.path, ['--event', 'GC/AllocationTick']).stdout.toString('utf8'));
    const { formatBytes } = await import(join(root, 'build/site/ui/units.js'));
    await page.waitForFunction(() => / · /.test(appRoot().getElementById('g-message').textContent), null, { timeout: 30_000 });
    const message = await page.textContent('#g-message');
    assert(bytes.unit === 'bytes' && message.startsWith(`${formatBytes(bytes.total)} · `) && /^[\d.,]+ (KB|MB|GB) /.test(message), `bytes message: ${message}`);
  });

  await check('app exports: CSV equals the native export, speedscope is a speedscope file', async () => {
    await open(heart.path);
    const save = async (format) => {
      const [download] = await Promise.all([page.waitForEvent('download'), clickExport(page, format)]);
      const path = join(tmp, download.suggestedFilename());
      await download.saveAs(path);
      return { name: download.suggestedFilename(), text: readFileSync(path, 'utf8') };
    };
    const csv = await save('csv');
    assert(csv.name === 'HeartRateMonitor.10068.csv', `file name ${csv.name}`);
    const nativeCsv = join(tmp, 'native.csv');
    runNative('export', heart.path, ['--format', 'csv', '-o', nativeCsv]);
    assert(csv.text === readFileSync(nativeCsv, 'utf8'), 'CSV differs from `nettrace export --format csv`');
    const stacksCsv = await save('stacks-csv');
    assert(stacksCsv.name === 'HeartRateMonitor.10068.stacks.csv', `file name ${stacksCsv.name}`);
    runNative('export', heart.path, ['--format', 'stacks-csv', '-o', nativeCsv]);
    assert(stacksCsv.text === readFileSync(nativeCsv, 'utf8'), 'Stacks CSV differs from `nettrace export --format stacks-csv`');
    const speedscope = await save('speedscope');
    const json = JSON.parse(speedscope.text);
    assert(String(json.$schema).includes('speedscope'), 'speedscope $schema');
    assert(json.profiles.length >= 1 && json.shared.frames.some((f) => f.name.includes('HeartRateMonitor.Program.Main')), 'speedscope frames');
  });

  // The flame graph's default weight (dotnet-trace's thread time) exports as
  // evented speedscope, the native file byte for byte; with one event type filtered in Events,
  // CSV is that type with its payload fields as columns, as `export --format csv --event`.
  await check('app exports: evented speedscope and the payload CSV equal the native exports', async () => {
    await open(heart.path);
    const save = async (format) => {
      const [download] = await Promise.all([page.waitForEvent('download'), clickExport(page, format)]);
      const path = join(tmp, download.suggestedFilename());
      await download.saveAs(path);
      return readFileSync(path, 'utf8');
    };
    const nativeOut = join(tmp, 'native.out');
    runNative('export', heart.path, ['--format', 'speedscope', '--weight', 'traceevent-thread-time', '-o', nativeOut]);
    const speedscope = await save('speedscope');
    assert(JSON.parse(speedscope).profiles.every((p) => p.type === 'evented' && p.unit === 'milliseconds'), 'evented profiles in ms');
    assert(speedscope + '\n' === readFileSync(nativeOut, 'utf8'), 'speedscope differs from `nettrace export --format speedscope --weight traceevent-thread-time`');
    await page.evaluate(() => { location.hash = 'tab=events&provider=Microsoft-Windows-DotNETRuntime&event=GC%2FRestartEEStop'; });
    await page.waitForFunction(() => (document.querySelector('#f-event')?.value ?? '') === 'GC/RestartEEStop', null, { timeout: 10_000 }).catch(() => {});
    runNative('export', heart.path, ['--format', 'csv', '--event', 'GC/RestartEEStop', '--provider', 'Microsoft-Windows-DotNETRuntime', '-o', nativeOut]);
    const csv = await save('csv');
    assert(csv === readFileSync(nativeOut, 'utf8'), `payload CSV differs from the native one: ${csv.slice(0, 200)}`);
  });

  await check('app ?url= opens a trace from a URL', async () => {
    await page.goto(`${server.url}?url=samples/only_managed_samples.nettrace`);
    await page.waitForSelector('#result:is([data-state="done"], [data-state="error"])', { timeout: 60_000 });
    assert(await page.getAttribute('#result', 'data-state') === 'done', await page.textContent('#status'));
    const expected = nativeSummary(byName('only_managed_samples').path);
    assert(JSON.parse(await page.textContent('#summary')).eventCount === expected.eventCount, 'event count');
  });

  await check('app: HTML in provider/event names and string fields is shown as text, nothing runs', async () => {
    // A corpus trace with same-length UTF-16 strings swapped for markup (no offsets move):
    // its self-describing provider and event names and ProcessInfo's CommandLine string.
    let bytes = readFileSync(byName('eventpipe-dotnetcore5.0').path);
    const swaps = [
      ['TestEventSource0', '<svg onload=p()>'],
      ['TestEvent1', '<b>bad</b>'],
      ['C:\\work\\arraytypes_test\\repro\\', '<img src=x onerror=p()>1234567'],
    ];
    for (const [from, to] of swaps) {
      assert(from.length === to.length, `${from} and ${to} differ in length`);
      const a = Buffer.from(from, 'utf16le');
      const b = Buffer.from(to, 'utf16le');
      let at = bytes.indexOf(a);
      assert(at >= 0, `${from} is not in the trace`);
      for (; at >= 0; at = bytes.indexOf(a, at + 1)) b.copy(bytes, at);
    }
    const path = join(tmp, 'markup.nettrace');
    writeFileSync(path, bytes);
    await page.goto('about:blank');
    await page.goto(server.url);
    await page.evaluate(() => {
      window.p = () => (window.__pwned = (window.__pwned ?? 0) + 1);
    });
    await page.setInputFiles('#file', path);
    await page.waitForSelector('#result[data-state="done"]', { timeout: 60_000 });
    const types = await typeLines();
    assert(types.includes('<svg onload=p()>/<b>bad</b> 1'), `types: ${types.join(' | ')}`);
    await page.click('#summary-tables table[data-table="types"] tbody tr:has(td:text-is("<b>bad</b>"))');
    await page.waitForSelector('.vt-row[data-index]');
    await page.click('.vt-row[data-index]');
    await page.waitForSelector('#event-detail[data-index]');
    assert((await page.textContent('#event-detail')).includes('<svg onload=p()> / <b>bad</b>'), 'the detail shows the names as text');
    await page.selectOption('#f-provider', 'Microsoft-DotNETCore-EventPipe');
    await page.waitForFunction(() => appRoot().querySelector('.vt-row[data-index] .c-fields')?.textContent.includes('<img'), null, { timeout: 20_000 });
    await page.click('.vt-row[data-index]');
    await page.waitForFunction(() => appRoot().getElementById('event-detail').textContent.includes('<img src=x onerror=p()>'), null, { timeout: 20_000 });
    await page.screenshot({ path: join(screenshots, 'app-markup-as-text.png') });
    await page.click('#tab-flame');
    await page.waitForTimeout(300);
    const found = await page.evaluate(() => ({
      pwned: window.__pwned ?? 0,
      elements: appRoot().querySelectorAll('main svg, main img, main b').length,
    }));
    assert(found.pwned === 0 && found.elements === 0, `markup from the trace was interpreted: ${JSON.stringify(found)}`);
  });

  await check('app screenshots of each view, light and dark, 1280×720', async () => {
    for (const scheme of ['light', 'dark']) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.goto(server.url);
      await page.screenshot({ path: join(screenshots, `app-landing-${scheme}.png`) });
      await open(heart.path);
      await page.screenshot({ path: join(screenshots, `app-summary-${scheme}.png`) });
      await page.click('#tab-events');
      await page.waitForSelector('.vt-row[data-index]');
      await page.click('.vt-row[data-index] >> nth=2');
      await page.waitForSelector('#event-detail[data-index]');
      await page.screenshot({ path: join(screenshots, `app-events-${scheme}.png`) });
      await page.click('#tab-flame');
      await page.waitForFunction(() => appRoot().getElementById('g-canvas-box').dataset.nodes !== undefined || /Could not/.test(appRoot().getElementById('g-message').textContent), null, { timeout: 30_000 });
      await page.fill('#g-search', 'HeartRateMonitor');
      await page.screenshot({ path: join(screenshots, `app-flame-${scheme}.png`) });
      await page.click('#g-top tbody tr:has(td:text-is("HeartRateMonitor!HeartRateMonitor.Program.OnCreate"))');
      await page.click('#side-sandwich');
      await page.waitForSelector('#g-sandwich .sandwich-tree.callers tbody tr', { timeout: 20_000 });
      await page.screenshot({ path: join(screenshots, `app-sandwich-${scheme}.png`) });
    }
  });

  // A trace like `dotnet-trace collect-linux` writes (v6, Universal providers, two
  // processes, in-trace symbols), written by the engine's own writer.
  await check('app: a Linux profiler trace shows its processes and both CPU and off-CPU flame graphs', async () => {
    const path = join(tmp, 'collect-linux-like.nettrace');
    const written = runNative('write-sample-universal', path);
    assert(written.status === 0, String(written.stderr));
    const native = JSON.parse(runNative('summary', path).stdout.toString('utf8'));
    await open(path);
    const rows = await page.$$eval('table[data-table="processes"] tbody tr', (trs) => trs.map((r) => [...r.cells].map((c) => c.textContent)));
    const expected = native.processes.map((p) => `${p.pid} ${p.name}`).sort();
    assert(JSON.stringify(rows.map((r) => `${r[0]} ${r[1]}`).sort()) === JSON.stringify(expected), `processes shown: ${JSON.stringify(rows)}`);
    await page.click('#tab-flame');
    const topShows = (text) => page.waitForFunction((t) => (appRoot().getElementById('g-top').textContent ?? '').includes(t), text, { timeout: 30_000 });
    // CPU samples are the default stacks of such a trace; named from in-trace symbols.
    assert(await page.inputValue('#g-event') === 'cpu', 'cpu is the default event');
    const cpuTop = JSON.parse(runNative('top', path, ['--event', 'cpu']).stdout.toString('utf8')).functions[0].name;
    await topShows(cpuTop);
    await page.screenshot({ path: join(screenshots, 'app-flame-cpu.png') });
    await page.selectOption('#g-event', 'cswitch');
    const offTop = JSON.parse(runNative('top', path, ['--event', 'cswitch']).stdout.toString('utf8')).functions[0].name;
    await topShows(offTop);
    await page.screenshot({ path: join(screenshots, 'app-flame-cswitch.png') });
    // The process picker narrows the stacks to one process: its top function is the native
    // tool's for --process, and the link keeps the choice.
    await page.selectOption('#g-event', 'cpu');
    const gzip = native.processes.find((p) => p.name === 'gzip');
    await page.selectOption('#g-process', String(gzip.pid));
    const gzipTop = JSON.parse(runNative('top', path, ['--event', 'cpu', '--process', String(gzip.pid)]).stdout.toString('utf8'));
    assert(gzipTop.functions[0].name !== cpuTop, 'the process filter should change the top function');
    await topShows(gzipTop.functions[0].name);
    assert(new URL(page.url()).hash.includes(`process=${gzip.pid}`), `hash ${new URL(page.url()).hash}`);
  });

  await check('app timeline: stacked by event type, its series are the event filter\'s types', async () => {
    await open(heart.path);
    const runtimeTypes = heartSummary.types.filter((t) => t.provider === 'Microsoft-Windows-DotNETRuntime');
    await page.click('#tab-events');
    await page.selectOption('#f-provider', 'Microsoft-Windows-DotNETRuntime');
    await page.selectOption('#t-group', 'type');
    await page.waitForFunction((n) => appRoot().getElementById('timeline').dataset.series === String(n), runtimeTypes.length, { timeout: 20_000 });
    // Ten colours: the nine largest types keep theirs, the rest are summed into "other (N)".
    const legend = await page.$$eval('#timeline-legend .legend-item', (items) => items.map((i) => i.textContent));
    const names = new Set(runtimeTypes.map((t) => t.name));
    const expectedItems = Math.min(runtimeTypes.length, 10);
    assert(legend.length === expectedItems, `legend has ${legend.length} items: ${legend}`);
    const other = runtimeTypes.length > 10 ? `other (${runtimeTypes.length - 9})` : null;
    for (const item of legend) assert(names.has(item) || item === other, `legend item ${item} is not a runtime type`);
    if (other !== null) assert(legend.at(-1) === other, `legend lacks the other series: ${legend}`);
    const heaviest = [...runtimeTypes].sort((a, b) => b.count - a.count)[0];
    assert(legend.includes(heaviest.name), `legend lacks the largest type ${heaviest.name}`);
    await page.selectOption('#t-group', 'provider');
    await page.waitForFunction((n) => appRoot().getElementById('timeline').dataset.series === String(n), heartSummary.providers.length, { timeout: 20_000 });
  });

  const context = { page, server, check, assert, byName, nativeSummary, runNative, open, tmp, eventCountShown };
  await partialChecks(context);
  await uxChecks(context);
  await diffChecks(context);
  await runsChecks(context);
  await weightChecks(context);
  await groupingChecks(context);
  await profileExportChecks(context);

  await check('app: no page errors', async () => {
    assert(pageErrors.length === 0, `page errors:\n  ${pageErrors.join('\n  ')}`);
  });
  await page.close();
}
