// Browser checks of the flame graph's grouping and folding controls
// (web/src/views/stack_transform_controls.ts): each control changes the flame graph and Top
// functions exactly as the native CLI's options say (`nettrace flame|top --group-by-module`,
// `--just-my-code --drop-time-leaves`, `--fold-pats`, `--exclude-pats`), and the link keeps them.

export async function groupingChecks({ page, check, assert, byName, runNative, open }) {
  const heart = byName('HeartRateMonitor');
  const base = ['--weight', 'traceevent-thread-time'];
  const nativeJson = (command, args) => JSON.parse(runNative(command, heart.path, [...base, ...args]).stdout.toString('utf8'));
  const shown = async () => ({
    total: Number(await page.getAttribute('#g-canvas-box', 'data-total')),
    nodes: Number(await page.getAttribute('#g-canvas-box', 'data-nodes')),
    firstTop: await page.$eval('#g-top tbody tr td', (td) => td.textContent),
  });
  const computed = () =>
    page.waitForFunction(() => !/Computing/.test(appRoot().getElementById('g-message').textContent) && appRoot().querySelector('#g-top tbody tr'), null, { timeout: 30_000 });
  const hash = () => new URLSearchParams(new URL(page.url()).hash.slice(1));
  // The page equals the CLI with these options: total, node count, heaviest function.
  const equalsNative = async (label, args) => {
    await computed();
    const graph = nativeJson('flame', args);
    const top = nativeJson('top', ['-n', '1', ...args]);
    const s = await shown();
    assert(s.total === graph.total, `${label}: total ${s.total}, native ${graph.total}`);
    assert(s.nodes === graph.frame.length, `${label}: ${s.nodes} nodes, native ${graph.frame.length}`);
    assert(s.firstTop === top.functions[0].name, `${label}: top function ${s.firstTop}, native ${top.functions[0].name}`);
    return s;
  };
  // Waits until the graph differs from `before` (the controls recompute asynchronously).
  const changedFrom = (before) =>
    page.waitForFunction((n) => Number(appRoot().getElementById('g-canvas-box').dataset.nodes) !== n, before.nodes, { timeout: 30_000 });

  await check('app flame graph: grouping and folding controls equal the native CLI\'s options; the link keeps them', async () => {
    await open(heart.path, '#tab=flame');
    const plain = await equalsNative('no grouping', []);

    await page.selectOption('#g-group', 'module');
    await changedFrom(plain);
    const byModule = await equalsNative('by module', ['--group-by-module']);
    assert(/!$/.test(byModule.firstTop) || /_TIME$/.test(byModule.firstTop), `by module, top names a module: ${byModule.firstTop}`);
    assert(hash().get('group') === 'module', `hash group ${hash().get('group')}`);

    await page.selectOption('#g-group', 'jmc');
    // Drop time leaves and the pattern boxes are in the "Fold & filter" menu, which says what is on.
    await page.click('#g-transform-menu > summary');
    await page.check('#g-drop-leaves');
    await page.waitForFunction(() => new URLSearchParams(location.hash.slice(1)).get('leaves') === '1', null, { timeout: 30_000 });
    await equalsNative('just my code, time leaves dropped', ['--just-my-code', '--drop-time-leaves']);
    const menuLabel = await page.textContent('#g-transform-menu > summary');
    assert(menuLabel === 'Fold & filter (1 on)', `menu label: ${menuLabel}`);

    // Back to no grouping; fold the heaviest managed frame's module prefix out and exclude a pattern.
    await page.selectOption('#g-group', '');
    await page.uncheck('#g-drop-leaves');
    await page.waitForFunction(() => !new URLSearchParams(location.hash.slice(1)).has('group'), null, { timeout: 30_000 });
    await equalsNative('no grouping again', []);
    await page.fill('#g-fold', 'System.Threading');
    await page.press('#g-fold', 'Enter');
    await changedFrom(plain);
    await equalsNative('fold System.Threading', ['--fold-pats', 'System.Threading']);
    const folded = await shown();
    await page.fill('#g-exclude', 'HeartRateMonitor.Program.Main');
    await page.press('#g-exclude', 'Enter');
    await page.waitForFunction((t) => Number(appRoot().getElementById('g-canvas-box').dataset.total) !== t, folded.total, { timeout: 30_000 });
    const excluded = await equalsNative('fold + exclude', ['--fold-pats', 'System.Threading', '--exclude-pats', 'HeartRateMonitor.Program.Main']);
    assert(excluded.total < folded.total, 'exclude removes weight');
    assert(hash().get('fold') === 'System.Threading' && hash().get('exclude') === 'HeartRateMonitor.Program.Main', `hash ${page.url()}`);

    // The link alone reproduces the view.
    await open(heart.path, '#tab=flame&group=module&leaves=1');
    await equalsNative('from the link', ['--group-by-module', '--drop-time-leaves']);
    assert((await page.$eval('#g-group', (s) => s.value)) === 'module' && (await page.$eval('#g-drop-leaves', (c) => c.checked)), 'controls show the link');
  });
}
