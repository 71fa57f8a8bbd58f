// Browser checks of the flame graph's weight picker (web/src/analyzer/weights.ts): for each
// weight the app offers for CPU samples, the flame graph's total and the heaviest Top function
// equal the native CLI's (`nettrace flame|top --weight W`) on a real trace; the default is
// dotnet-trace's thread time; the pick is kept in the URL hash (only when not the default).

export async function weightChecks({ page, check, assert, byName, runNative, open }) {
  const heart = byName('HeartRateMonitor');
  const nativeJson = (command, args) => JSON.parse(runNative(command, heart.path, args).stdout.toString('utf8'));
  const shown = async () => ({
    total: Number(await page.getAttribute('#g-canvas-box', 'data-total')),
    weight: await page.$eval('#g-weight', (s) => s.value),
    firstTop: await page.$eval('#g-top tbody tr td', (td) => td.textContent),
  });
  const computed = () =>
    page.waitForFunction(() => !/Computing/.test(appRoot().getElementById('g-message').textContent) && appRoot().querySelector('#g-top tbody tr'), null, { timeout: 30_000 });

  await check('app flame graph: each weight\'s total and top function equal the native CLI\'s; default = dotnet-trace thread time', async () => {
    await open(heart.path, '#tab=flame');
    await computed();
    const weights = await page.$$eval('#g-weight option', (o) => o.map((x) => x.value));
    assert(JSON.stringify(weights) === JSON.stringify(['traceevent-thread-time', 'thread-time', 'managed-thread-time', 'count']), `offered: ${weights}`);
    assert((await shown()).weight === 'traceevent-thread-time', 'the default is dotnet-trace\'s thread time');
    for (const weight of weights) {
      await page.selectOption('#g-weight', weight);
      await page.waitForFunction((w) => appRoot().getElementById('g-canvas-box').dataset.weight === w, weight, { timeout: 30_000 });
      await computed();
      const graph = nativeJson('flame', ['--weight', weight]);
      const top = nativeJson('top', ['-n', '1', '--weight', weight]);
      const s = await shown();
      assert(s.total === graph.total, `${weight}: total ${s.total}, native ${graph.total}`);
      assert(s.firstTop === top.functions[0].name, `${weight}: top function ${s.firstTop}, native ${top.functions[0].name}`);
      const params = new URLSearchParams(new URL(page.url()).hash.slice(1));
      const expected = weight === 'traceevent-thread-time' ? null : weight;
      assert(params.get('weight') === expected, `${weight}: hash weight ${params.get('weight')}`);
      if (weight.endsWith('thread-time')) {
        const cell = await page.$eval('#g-top tbody tr td:nth-child(2)', (td) => td.textContent);
        assert(/%.*\([\d,]+\.\d ms\)$|<0\.1 ms\)$/.test(cell), `${weight}: no ms in "${cell}"`);
      }
    }
    // A link with the weight reproduces it.
    await open(heart.path, '#tab=flame&weight=managed-thread-time');
    await computed();
    assert((await shown()).weight === 'managed-thread-time', 'the hash picks the weight');
  });
}
