// Browser checks of what the page writes (run by layout_check.mjs), each against the native
// CLI on a real trace:
// - amounts: time in ms or s, bytes in KB/MB/GB, counts named for what they count, by one
//   helper (web/src/ui/units.ts): its rules, then the Sandwich, the flame graph search, Top
//   functions of allocated bytes, the activity waterfall's durations and time axis;
// - names: the event table's Fields column names enum values as the detail pane does; the
//   exceptions' "Caught in" names methods as "Thrown by" does (Module!Type.Method);
// - a GC row of the Summary shows that GC's events: the event filters set before are cleared;
// - Contention/Start stacks weigh the time waited by default (the CLI's --weight wait-time);
// - the stacks picker lists CPU samples first;
// - unnamed frames (?!?) come with why and what to do, from the trace's method events.
import { join } from 'node:path';

export async function pageTextChecks({ browser, site, check, assert, byName, runNative, testdata, root }) {
  const units = await import(join(root, 'build/site/ui/units.js'));
  const native = (command, file, args = []) => JSON.parse(runNative(command, file, args).stdout.toString('utf8'));
  const fmt = (n) => n.toLocaleString('en-US');
  const heart = byName('HeartRateMonitor');
  const objver4 = byName('eventpipe-dotnetcore3.0-win-x64-objver4');
  const streaming = join(testdata, 'dotnet10', 'net10-startup-streaming.nettrace');
  const eventsource = join(testdata, 'dotnet10', 'net10-eventsource.nettrace');

  await check('units: time in ms or s, bytes in KB/MB/GB, counts named for what they count (ui/units.ts)', async () => {
    const cases = [
      [units.formatDurationNs(80_436_458_229), '80.44 s'],
      [units.formatDurationNs(453_902_388), '453.9 ms'],
      [units.formatDurationMs(0.42), '0.42 ms'],
      [units.formatDurationMs(0.001), '<0.01 ms'],
      [units.formatDurationMs(225_052.9), '225.1 s'],
      [units.formatBytes(999), '999 B'],
      [units.formatBytes(102_400), '102.4 KB'],
      [units.formatBytes(4_512_000), '4.5 MB'],
      [units.formatBytes(2_500_000_000), '2.50 GB'],
      [units.formatBytes(999_960), '1.0 MB'], // not 1000.0 KB
      [units.formatWeight(35_161, 'samples', 'Thread/Sample'), '35,161 samples'],
      [units.formatWeight(8, 'samples', 'Contention/Start'), '8 contentions'],
      [units.formatWeight(1, 'samples', 'Exception/Start'), '1 exception'],
      [units.formatWeight(12, 'samples', 'GC/AllocationTick'), '12 allocation ticks'],
      [units.formatWeight(3, 'samples', 'Loader/AssemblyLoad'), '3 events'],
      [units.formatWeight(80_436_458_229, 'nanoseconds', 'Thread/Sample'), '80.44 s'],
      [units.formatWeight(4_512_000, 'bytes', 'GC/AllocationTick'), '4.5 MB'],
    ];
    const wrong = cases.filter(([got, want]) => got !== want);
    assert(wrong.length === 0, `wrong: ${JSON.stringify(wrong)}`);
  });

  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  await page.addInitScript(() => {
    globalThis.appRoot = () => document.querySelector('nettrace-analyzer')?.shadowRoot ?? document;
  });
  const open = async (path, hash = '', state = 'done') => {
    await page.goto('about:blank');
    await page.goto(`${site.url}${hash}`);
    await page.setInputFiles('#file', path);
    await page.waitForSelector(`#result[data-state="${state}"]`, { timeout: 60_000 });
  };
  const flameComputed = () =>
    page.waitForFunction(() => Number(appRoot().getElementById('g-canvas-box').dataset.nodes ?? 0) > 1 && appRoot().querySelector('#g-top tbody tr') !== null, null, { timeout: 30_000 });

  try {
    await check('Sandwich and flame graph search write time in ms or s, never nanoseconds', async () => {
      await open(heart.path, '#tab=flame');
      await flameComputed();
      const fn = await page.$eval('#g-top tbody tr td', (td) => td.textContent);
      await page.click('#g-top tbody tr >> nth=0');
      await page.waitForSelector('#g-sandwich .sandwich-focus', { timeout: 30_000 });
      const focus = await page.textContent('#g-sandwich .sandwich-focus');
      const sandwich = native('sandwich', heart.path, [fn, '--weight', 'traceevent-thread-time']);
      assert(sandwich.callees.unit === 'nanoseconds', sandwich.callees.unit);
      const expected = `${fn} inclusive ${units.formatDurationNs(sandwich.callees.total)}, exclusive ${units.formatDurationNs(sandwich.callees.self[0])} (`;
      assert(focus.startsWith(expected), `focus "${focus}", expected "${expected}…"`);
      const heads = await page.$$eval('#g-sandwich .sandwich-tree.callees thead th', (th) => th.map((c) => c.textContent));
      const cells = await page.$$eval('#g-sandwich .sandwich-tree tbody tr td.num:not(.sandwich-share)', (td) => td.map((c) => c.textContent));
      assert(heads[1] === 'Inclusive' && cells.length > 0 && cells.every((c) => / (ms|s)$/.test(c)), `sandwich cells: ${heads} ${cells.slice(0, 4)}`);
      await page.fill('#g-search', 'HeartRateMonitor');
      await page.waitForFunction(() => appRoot().getElementById('g-search-result').dataset.matches !== undefined, null, { timeout: 10_000 });
      const search = await page.textContent('#g-search-result');
      assert(/frames? match(es)? · [\d,.]+ (ms|s) \([\d.]+%\)$/.test(search) && !/nanoseconds/.test(search), `search: ${search}`);
      const message = await page.textContent('#g-message');
      const graph = native('flame', heart.path, ['--weight', 'traceevent-thread-time']);
      assert(message.startsWith(`${units.formatDurationNs(graph.total)} · `), `message: ${message}`);
    });

    await check('the Fields column names enum values as the detail pane does (AllocSmall, not 0)', async () => {
      await open(objver4.path, '#tab=events&provider=Microsoft-Windows-DotNETRuntime&event=GC%2FStart');
      await page.waitForSelector('.vt-row[data-index] .c-fields', { timeout: 30_000 });
      const shown = await page.textContent('.vt-row[data-index] .c-fields >> nth=0');
      const [first] = runNative('events', objver4.path, ['--name', 'GC/Start', '--limit', '1']).stdout.toString('utf8').trim().split('\n').map((l) => JSON.parse(l));
      const value = (v) => (typeof v === 'string' ? v : JSON.stringify(v));
      const expected = first.payload.fields.map((f) => `${f.name}=${f.display ?? value(f.value)}`).join('  ');
      assert(shown === expected && shown.includes('Reason=AllocSmall') && shown.includes('Type=NonConcurrentGC'), `fields "${shown}", expected "${expected}"`);
      await page.click('.vt-row[data-index] >> nth=0');
      await page.waitForSelector(`#event-detail[data-index="${first.index}"]`, { timeout: 20_000 });
      const reason = await page.$$eval('#event-detail dl.detail-list dt', (dts) => dts.find((d) => d.textContent === 'Reason')?.nextElementSibling.textContent);
      assert(reason === 'AllocSmall (0)', `detail pane: ${reason}`);
    });

    await check('exceptions: "Caught in" names methods as "Thrown by" does, Module!Type.Method', async () => {
      await open(eventsource, '#tab=diagnostics');
      await page.waitForFunction(() => appRoot().getElementById('diagnostics-box').dataset.ready === 'true', null, { timeout: 30_000 });
      const rows = await page.$$eval('[data-view="exceptions"] table tbody tr', (trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));
      const doc = native('exceptions', eventsource);
      const byType = new Map(rows.map((r) => [r[0], r]));
      const run = byType.get('System.InvalidOperationException');
      assert(doc.types.find((t) => t.type === 'System.InvalidOperationException').catchingMethods[0].method === 'void [TraceScenarios] TraceScenarios.ExceptionScenario::Run()', 'the runtime names the catch site by its signature');
      assert(run !== undefined && run[4] === 'TraceScenarios!TraceScenarios.ExceptionScenario.Run (7)', `Caught in: ${run?.[4]}`);
      assert(rows.every((r) => /^[\w.]+![^\s]+ \(\d+\)/.test(r[3]) && /^[\w.]+![^\s]+ \(\d+\)/.test(r[4])), `a method not named Module!Type.Method: ${JSON.stringify(rows.map((r) => [r[3], r[4]]))}`);
    });

    await check('the activity waterfall labels each row (name, duration) and has a time axis in ms or s', async () => {
      await open(eventsource, '#tab=diagnostics');
      await page.waitForFunction(() => appRoot().getElementById('diagnostics-box').dataset.ready === 'true', null, { timeout: 30_000 });
      const doc = native('activities', eventsource);
      const shown = await page.evaluate(() => {
        const box = appRoot().querySelector('[data-view="activities"] .waterfall');
        if (box === null) return null;
        const rows = [...box.querySelectorAll('.wf-row:not(.wf-head)')];
        return {
          names: rows.map((r) => r.querySelector('.wf-name').textContent),
          durations: rows.map((r) => r.querySelector('.wf-duration').textContent),
          bars: rows.filter((r) => r.querySelector('.wf-bar') !== null).length,
          ticks: [...box.querySelectorAll('.wf-axis .wf-tick')].map((t) => t.textContent),
        };
      });
      assert(shown !== null, 'no waterfall');
      const listed = doc.activities.slice(0, 200);
      assert(JSON.stringify(shown.names) === JSON.stringify(listed.map((a) => a.name)), `names: ${shown.names.slice(0, 5)}`);
      const durations = listed.map((a) => (a.durationMs === null ? 'unfinished' : units.formatDurationMs(a.durationMs)));
      assert(JSON.stringify(shown.durations) === JSON.stringify(durations), `durations: ${shown.durations.slice(0, 5)} vs ${durations.slice(0, 5)}`);
      assert(shown.bars === listed.length, `${shown.bars} bars for ${listed.length} activities`);
      assert(shown.ticks.length >= 2 && shown.ticks.every((t) => /^[\d.]+ (ms|s)$/.test(t)), `axis: ${shown.ticks}`);
    });

    await check('a GC row of the Summary shows that GC\'s events: the event filters set before are cleared', async () => {
      await open(objver4.path, '#tab=events&event=Method%2FLoadVerbose');
      await page.waitForFunction(() => appRoot().getElementById('event-scroller').dataset.total !== undefined, null, { timeout: 30_000 });
      assert((await page.inputValue('#f-event')) === 'Method/LoadVerbose', 'the filter before');
      await page.click('#tab-summary');
      await page.waitForSelector('table[data-table="gcs"] tbody tr', { timeout: 30_000 });
      await page.click('table[data-table="gcs"] tbody tr >> nth=0');
      await page.waitForFunction(() => appRoot().getElementById('tab-events').getAttribute('aria-selected') === 'true', null, { timeout: 10_000 });
      const gc = native('gc', objver4.path).processes[0].gcs.find((g) => g.number === 1);
      const from = Math.floor(Math.min(gc.pauseStartMs, gc.startMs) * 1000) / 1000;
      const to = Math.ceil(Math.max(gc.pauseStartMs + gc.pauseMs, gc.startMs + gc.durationMs) * 1000) / 1000;
      const events = runNative('events', objver4.path, ['--from', String(from), '--to', String(to), '--limit', '10000000']).stdout.toString('utf8').trim().split('\n').length;
      await page.waitForFunction((n) => appRoot().getElementById('event-scroller').dataset.total === String(n), events, { timeout: 30_000 })
        .catch(async () => assert(false, `${await page.getAttribute('#event-scroller', 'data-total')} events shown, the GC has ${events}`));
      const filters = await page.$$eval('#event-filters select, #event-filters input', (els) => Object.fromEntries(els.map((e) => [e.id, e.value])));
      assert(filters['f-provider'] === '' && filters['f-event'] === '' && filters['f-thread'] === '' && filters['f-text'] === '', `filters kept: ${JSON.stringify(filters)}`);
      assert(Number(filters['f-from']) === from && Number(filters['f-to']) === to, `range ${filters['f-from']}–${filters['f-to']}, GC ${from}–${to}`);
    });

    await check('Contention/Start stacks weigh the time waited by default, or count contentions', async () => {
      await open(objver4.path, '#tab=flame&type=Contention%2FStart');
      await flameComputed();
      const weights = await page.$$eval('#g-weight option', (o) => o.map((x) => x.value));
      assert(JSON.stringify(weights) === '["wait-time","count"]', `offered: ${weights}`);
      assert((await page.getAttribute('#g-canvas-box', 'data-weight')) === 'wait-time', 'the default weight is the time waited');
      const waited = native('flame', objver4.path, ['--event', 'Contention/Start', '--weight', 'wait-time']);
      assert(Number(await page.getAttribute('#g-canvas-box', 'data-total')) === waited.total, 'total = the CLI\'s --weight wait-time');
      assert((await page.textContent('#g-message')).startsWith(`${units.formatDurationNs(waited.total)} · `), await page.textContent('#g-message'));
      await page.selectOption('#g-weight', 'count');
      await page.waitForFunction(() => appRoot().getElementById('g-canvas-box').dataset.weight === 'count', null, { timeout: 30_000 });
      await flameComputed();
      const counted = native('flame', objver4.path, ['--event', 'Contention/Start', '--weight', 'count']);
      await page.waitForFunction((t) => appRoot().getElementById('g-message').textContent.startsWith(t), `${fmt(counted.total)} contentions · `, { timeout: 10_000 })
        .catch(async () => assert(false, `message: ${await page.textContent('#g-message')}`));
      const heads = await page.$$eval('#g-top thead th', (th) => th.map((c) => c.textContent));
      assert(heads[1] === 'Self (contentions)', `Top functions: ${heads}`);
    });

    await check('Top functions of allocated bytes: amounts in KB/MB/GB next to the share, the ticks on hover', async () => {
      await open(objver4.path, '#tab=flame&type=GC%2FAllocationTick');
      await flameComputed();
      const top = native('top', objver4.path, ['--event', 'GC/AllocationTick', '-n', '1']);
      assert(top.unit === 'bytes', top.unit);
      const f = top.functions[0];
      const cells = await page.$eval(`#g-top tbody tr:has(td:text-is("${f.name}"))`, (tr) => [...tr.cells].map((c) => ({ text: c.textContent, title: c.querySelector('span')?.title ?? '' })));
      const share = (w) => `${((100 * w) / top.total).toFixed(w * 1000 < top.total ? 2 : 1)}%`;
      assert(cells[1].text === `${share(f.exclusive)} (${units.formatBytes(f.exclusive)})`, `Self: ${cells[1].text}`);
      assert(cells[1].title === `${fmt(f.exclusiveCount)} allocation tick${f.exclusiveCount === 1 ? '' : 's'}`, `Self's tooltip: ${cells[1].title}`);
      const heads = await page.$$eval('#g-top thead th', (th) => th.map((c) => c.textContent));
      assert(heads[1] === 'Self' && heads[2] === 'Total', `headers: ${heads}`);
    });

    await check('the stacks picker lists CPU samples first (net10-startup-streaming: the third most frequent type)', async () => {
      await open(streaming, '#tab=flame');
      await flameComputed();
      const options = await page.$$eval('#g-event option', (o) => o.map((x) => x.value));
      const summary = native('summary', streaming);
      const withStacks = new Map();
      for (const t of summary.types) withStacks.set(t.name, (withStacks.get(t.name) ?? 0) + t.withStacks);
      const byCount = [...withStacks].filter(([, n]) => n > 0).sort((a, b) => b[1] - a[1]).map(([n]) => n);
      assert(byCount.indexOf('Thread/Sample') > 0, 'CPU samples are not the most frequent type here');
      assert(options[0] === 'Thread/Sample' && (await page.inputValue('#g-event')) === 'Thread/Sample', `picker: ${options.slice(0, 4)}`);
      assert(options.length === byCount.length, `${options.length} offered, ${byCount.length} types with stacks`);
    });

    await check('unnamed frames: the flame graph says why (no MethodLoad or rundown events) and what to do', async () => {
      const truncated = byName('truncated/');
      await open(truncated.path, '#tab=flame', 'error');
      await flameComputed();
      const cut = await page.textContent('#g-unnamed');
      assert(await page.isVisible('#g-unnamed'), 'no word on a trace without method events');
      assert(/no MethodLoad or method rundown events/.test(cut) && /dotnet-trace/.test(cut), `truncated: ${cut}`);
      await open(objver4.path, '#tab=flame');
      await flameComputed();
      const loads = native('summary', objver4.path).types.find((t) => t.name === 'Method/LoadVerbose').count;
      const partial = await page.textContent('#g-unnamed');
      assert(await page.isVisible('#g-unnamed'), 'no word on a trace without rundown');
      assert(partial.includes('no method rundown') && partial.includes(`(${fmt(loads)} MethodLoad events)`), `objver4: ${partial}`);
      await open(heart.path, '#tab=flame');
      await flameComputed();
      assert(!(await page.isVisible('#g-unnamed')), 'a trace with its rundown gets the note');
    });

    await check('no page errors (page wording checks)', async () => {
      assert(errors.length === 0, `page errors:\n  ${errors.join('\n  ')}`);
    });
  } finally {
    await page.close();
  }
}
