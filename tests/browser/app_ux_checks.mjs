// Browser checks of what a new user hit: search as you type, a Top
// functions row opens the sandwich, readable provider names, CPU samples' payload field,
// a backwards time range, Home, the flame graph's thread picker, shares of tiny counts and
// one wording for stacks.

export async function uxChecks({ page, server, check, assert, byName, nativeSummary, runNative, open, eventCountShown }) {
  const heart = byName('HeartRateMonitor');
  const totalIs = (n) => page.waitForFunction((n) => appRoot().getElementById('event-scroller').dataset.total === String(n), n, { timeout: 30_000 });

  await check('app events: the text search runs as the user types (no Enter), and says so', async () => {
    const native = runNative('events', heart.path, ['--text', 'oncreate', '--limit', '1000000']).stdout.toString('utf8').trim().split('\n');
    await open(heart.path);
    await page.click('#tab-events');
    await eventCountShown();
    // Each keystroke restarts the wait and cancels the search before: the last one counts.
    await page.locator('#f-text').pressSequentially('oncre', { delay: 40 });
    await page.waitForTimeout(150);
    await page.locator('#f-text').pressSequentially('ate', { delay: 40 });
    await totalIs(native.length);
    assert(new URLSearchParams(new URL(page.url()).hash.slice(1)).get('text') === 'oncreate', 'the hash keeps the text');
    assert(/as you type/.test(await page.getAttribute('#f-text', 'placeholder')), 'the placeholder says the search runs as you type');
    // Enter still searches (the same text in other case: a new search, the same matches).
    await page.fill('#f-text', 'OnCreate');
    await page.press('#f-text', 'Enter');
    await page.waitForFunction(() => new URLSearchParams(location.hash.slice(1)).get('text') === 'OnCreate', null, { timeout: 5_000 });
    await totalIs(native.length);
  });

  await check('app flame graph: a Top functions row opens the sandwich of that function', async () => {
    const method = 'HeartRateMonitor!HeartRateMonitor.Program.OnCreate';
    await open(heart.path);
    await page.click('#tab-flame');
    await page.click(`#g-top tbody tr:has(td:text-is("${method}"))`);
    assert(await page.getAttribute('#side-sandwich', 'aria-selected') === 'true', 'the Sandwich tab is selected');
    assert(!(await page.locator('#g-sandwich').isHidden()) && (await page.locator('#g-top').isHidden()), 'the sandwich shows');
    await page.waitForSelector('#g-sandwich .sandwich-tree.callers tbody tr', { timeout: 20_000 });
    assert((await page.textContent('#g-sandwich')).includes(method), 'the sandwich is that function\'s');
  });

  await check('app events: provider names are told apart at 1280 and 1920 px, the full name on hover', async () => {
    for (const width of [1280, 1920]) {
      await page.setViewportSize({ width, height: 720 });
      await open(heart.path, '#tab=events');
      const shown = [];
      for (const provider of ['Microsoft-Windows-DotNETRuntime', 'Microsoft-Windows-DotNETRuntimeRundown']) {
        await page.selectOption('#f-provider', provider);
        // The rows of this provider (not those of the filter before): their provider cell.
        const name = provider.split('-').at(-1);
        await page.waitForFunction(
          (name) => [...appRoot().querySelectorAll('.vt-row[data-index] .c-provider')].some((c) => (c.title || c.textContent).endsWith(name)),
          name,
          { timeout: 20_000 },
        );
        const cell = await page.$eval('.vt-row[data-index] .c-provider', (c) => ({ text: c.textContent, title: c.title, cut: c.scrollWidth > c.clientWidth }));
        assert(!cell.cut, `${width} px: "${cell.text}" is cut`);
        assert(cell.title === provider, `${width} px: the tooltip is "${cell.title}"`);
        shown.push(cell.text);
      }
      assert(shown[0] !== shown[1], `${width} px: both show "${shown[0]}"`);
    }
    await page.setViewportSize({ width: 1280, height: 720 });
  });

  await check('app events: a CPU sample\'s detail shows its payload field by name', async () => {
    const sample = JSON.parse(runNative('events', heart.path, ['--name', 'Thread/Sample', '--limit', '1']).stdout.toString('utf8'));
    const field = sample.payload.fields[0];
    await open(heart.path, '#tab=events&event=Thread%2FSample');
    await page.click(`.vt-row[data-index="${sample.index}"]`);
    await page.waitForSelector(`#event-detail[data-index="${sample.index}"]`, { timeout: 20_000 });
    const detail = await page.textContent('#event-detail');
    assert(!detail.includes('No payload fields'), `detail: ${detail}`);
    assert(detail.includes(field.name) && detail.includes(`${field.display} (${field.value})`), `detail lacks ${field.name} = ${field.display}: ${detail}`);
  });

  await check('app events: a backwards time range (From 100, To 50) is swapped, and says so', async () => {
    const native = runNative('events', heart.path, ['--from', '50', '--to', '100', '--limit', '100000000']).stdout.toString('utf8').trim().split('\n').filter(Boolean);
    assert(native.length > 0, 'events in 50–100 ms');
    await open(heart.path, '#tab=events');
    await eventCountShown();
    await page.fill('#f-from', '100');
    await page.dispatchEvent('#f-from', 'change');
    await page.fill('#f-to', '50');
    await page.dispatchEvent('#f-to', 'change');
    await totalIs(native.length);
    assert(await page.inputValue('#f-from') === '50' && await page.inputValue('#f-to') === '100', 'the inputs show the range in order');
    assert(/swapped/.test(await page.textContent('#range-note')), 'the swap is said');
    assert((await page.textContent('#range-text')) === '50.0 ms – 100.0 ms', `chip: ${await page.textContent('#range-text')}`);
  });

  await check('app Home: the landing replaces the open trace (not over it); Back returns to it', async () => {
    await open(heart.path);
    await page.click('#home');
    assert(!(await page.locator('#landing').isHidden()), 'the landing shows');
    assert(await page.locator('#result').isHidden(), 'the trace\'s views are hidden');
    assert(await page.locator('#tabs').isHidden() && (await page.locator('#exports').isHidden()), 'tabs and exports are hidden');
    await page.click('#back');
    assert(await page.locator('#landing').isHidden() && !(await page.locator('#result').isHidden()), 'Back shows the trace again');
    assert(!(await page.locator('#tabs').isHidden()), 'with its tabs');
  });

  await check('app flame graph: the thread picker offers threads with samples of the type, counted as samples', async () => {
    const lines = runNative('events', heart.path, ['--name', 'Thread/Sample', '--limit', '100000000']).stdout.toString('utf8').trim().split('\n');
    const perThread = new Map();
    for (const l of lines) {
      const t = JSON.parse(l).threadId;
      perThread.set(t, (perThread.get(t) ?? 0) + 1);
    }
    await open(heart.path, '#tab=flame');
    await page.waitForFunction(() => appRoot().querySelectorAll('#g-thread option').length > 1, null, { timeout: 20_000 });
    const options = await page.$$eval('#g-thread option', (o) => o.filter((x) => x.value !== '').map((x) => ({ value: Number(x.value), label: x.textContent })));
    assert(options.length === perThread.size, `${options.length} threads offered, ${perThread.size} have samples`);
    for (const o of options) {
      const count = perThread.get(o.value);
      const expected = `(${count.toLocaleString('en-US')} ${count === 1 ? 'sample' : 'samples'})`;
      assert(o.label.endsWith(expected), `thread ${o.value}: "${o.label}", expected ${expected}`);
    }
  });

  await check('app flame graph: Top functions show counts next to shares (samples, named in the header), never 0.00% for a non-zero count, "—" for none', async () => {
    const objver4 = byName('eventpipe-dotnetcore3.0-win-x64-objver4');
    const top = JSON.parse(runNative('top', objver4.path, ['-n', '100', '--weight', 'count']).stdout.toString('utf8'));
    const tiny = top.functions.find((f) => f.inclusive > 0 && f.inclusive * 20000 < top.total);
    assert(tiny, 'a function whose share rounds to 0.00%');
    await open(objver4.path, '#tab=flame&weight=count');
    await page.waitForSelector(`#g-top tbody tr:has(td:text-is("${tiny.name}"))`, { timeout: 30_000 });
    const cells = await page.$$eval(`#g-top tbody tr`, (rows) => rows.map((r) => [...r.cells].slice(1).map((c) => c.textContent)));
    for (const [self, total] of cells) {
      for (const cell of [self, total]) assert(/%.*\([\d,]+\)$/.test(cell) || cell === '—', `no count in "${cell}"`);
      for (const cell of [self, total]) assert(!/^0\.00%/.test(cell), `"${cell}" shows 0.00% for a non-zero count`);
    }
    const heads = await page.$$eval('#g-top thead th', (th) => th.map((c) => c.textContent));
    assert(heads[1] === 'Self (samples)' && heads[2] === 'Total (samples)', `the counts are not named samples: ${heads}`);
    const row = await page.$$eval(`#g-top tbody tr:has(td:text-is("${tiny.name}")) td`, (td) => td.map((c) => c.textContent));
    assert(row[2] === `<0.01% (${tiny.inclusiveCount})`, `"${tiny.name}" total: ${row[2]}`);
  });

  await check('app link: values that are not valid are named and replaced by their defaults; the valid ones are kept', async () => {
    await page.goto('about:blank');
    await page.goto(`${server.url}#tab=events&thread=abc&from=oops&to=30&side=left&event=GC%2FStart`);
    const status = await page.textContent('#status');
    assert(status.includes('thread=abc') && status.includes('from=oops') && status.includes('side=left') && !status.includes('to=30'), `status: ${status}`);
    await page.setInputFiles('#file', heart.path);
    await page.waitForSelector('#result[data-state="done"]', { timeout: 60_000 });
    assert(await page.getAttribute('#tab-events', 'aria-selected') === 'true', 'the valid tab is kept');
    assert(await page.inputValue('#f-to') === '30' && await page.inputValue('#f-from') === '' && await page.inputValue('#f-thread') === '', 'to kept, from and thread defaulted');
    assert(await page.inputValue('#f-event') === 'GC/Start', 'the event filter is kept');
  });

  await check('app summary: "1 gap" in the singular; one wording for events with stack frames', async () => {
    await open(heart.path);
    const facts = await page.textContent('#headline');
    assert(facts.includes('Events with stack frames') && !facts.includes('Events with stacks'), `facts: ${facts}`);
    const header = await page.$$eval('table[data-table="types"] th', (th) => th.map((x) => x.textContent));
    assert(header.includes('With stack frames'), `types header: ${header}`);
    // The dropped-events line of a summary with one gap (no corpus trace has drops).
    const text = await page.evaluate(async () => {
      const { renderSummary } = await import('./views/summary_view.js');
      const headline = document.createElement('dl');
      const tables = document.createElement('div');
      // A whole summary document (reader/summary.ts types every field), with no events' details.
      const summary = {
        format: { container: 'NetTrace FastSerialization', major: 4, minor: 0, traceObjectVersion: 4 },
        complete: true, bytesRead: 100, error: null, trace: {}, timeRange: null, eventsWithStacks: 0, payloadBytes: 0,
        providers: [], processors: 1, blocks: {}, tables: { metadata: 0, stacks: 0, labelLists: 0, sequencePoints: 0 }, stats: [],
        eventCount: 10, types: [], threads: [],
        dropped: { events: 3, gaps: 1, ranges: [{ threadId: 1, count: 3, fromMs: 1, toMs: 2 }], rangesTruncated: false },
        runtime: { gc: { count: 0, induced: 0, background: 0, generations: [] }, exceptions: { count: 0, types: [], otherCount: 0 },
          allocations: { ticks: 0, bytes: 0, types: [], otherCount: 0, otherBytes: 0 }, jit: { methods: 0, source: null }, contentions: 0 },
      };
      renderSummary(summary, headline, tables, { fileName: 'x', fileSize: 1, readSeconds: 0, partial: false, onPickType: null, onStacksOfType: null, onPickThread: null, onPickRuntimeType: null });
      return tables.textContent;
    });
    assert(/\(1 gap in sequence numbers\)/.test(text), `dropped line: ${text}`);
  });
}
