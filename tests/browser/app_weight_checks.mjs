// Browser checks of the flame graph's weight picker (web/src/views/weights.ts): for each
// weight the app offers for CPU samples, the flame graph's total and the heaviest Top function
// equal the native CLI's (`nettrace flame|top --weight W`) on a real trace; the default is
// dotnet-trace's thread time; the pick is kept in the URL hash (only when not the default).
import { join } from 'node:path';
import { testdata } from '../node/helpers.mjs';

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
        assert(/%.*\(([\d,]+\.\d+ (ms|s)|<0\.01 ms)\)$/.test(cell) || cell === '—', `${weight}: no ms or s in "${cell}"`);
      }
    }
    // A link with the weight reproduces it.
    await open(heart.path, '#tab=flame&weight=managed-thread-time');
    await computed();
    assert((await shown()).weight === 'managed-thread-time', 'the hash picks the weight');
  });

  await check('app flame graph: the async stitching toggle equals the native CLI both ways (thread-pool work, start-stop activities), is kept in the hash, says why it is unavailable on hover', async () => {
    const objver4 = byName('eventpipe-dotnetcore3.0-win-x64-objver4');
    const native = (args) => JSON.parse(runNative('flame', objver4.path, ['--weight', 'traceevent-thread-time', ...args]).stdout.toString('utf8'));
    const on = native([]);
    const off = native(['--no-stitch-async']);
    assert(on.frame.length !== off.frame.length, 'stitching changes the native graph of objver4');
    const nodes = async () => Number(await page.getAttribute('#g-canvas-box', 'data-nodes'));
    const stitchState = () => page.getAttribute('#g-stitch-box', 'data-state');
    await open(objver4.path, '#tab=flame');
    await computed();
    assert(!(await page.$eval('#g-stitch-box', (b) => b.hidden)), 'the toggle is shown for dotnet-trace thread time');
    assert(await page.$eval('#g-stitch', (c) => c.checked && !c.disabled), 'stitching is on by default');
    assert((await stitchState()) === 'on' && (await nodes()) === on.frame.length, `on: ${await nodes()} nodes, native ${on.frame.length}`);
    await page.uncheck('#g-stitch');
    await page.waitForFunction(() => appRoot().getElementById('g-stitch-box').dataset.state === 'off', null, { timeout: 30_000 });
    await computed();
    assert((await nodes()) === off.frame.length, `off: ${await nodes()} nodes, native ${off.frame.length}`);
    assert(new URLSearchParams(new URL(page.url()).hash.slice(1)).get('stitch') === '0', 'the hash keeps stitch=0');
    await open(objver4.path, '#tab=flame&stitch=0');
    await computed();
    assert((await stitchState()) === 'off' && !(await page.$eval('#g-stitch', (c) => c.checked)), 'the link turns stitching off');
    // A trace without thread-pool events: the toggle says why.
    await open(heart.path, '#tab=flame');
    await computed();
    const reason = nativeJson('flame', ['--weight', 'traceevent-thread-time']).asyncStitching.reason;
    assert((await stitchState()) === 'unavailable' && (await page.$eval('#g-stitch', (c) => c.disabled)), 'unavailable and disabled');
    // Said once, on hover: the toggle's tooltip, not a paragraph beside it.
    const title = await page.getAttribute('#g-stitch-box', 'title');
    assert(title === `Unavailable: ${reason}`, `tooltip: ${title}`);
    const toolbar = await page.textContent('#flame-controls');
    assert(!toolbar.includes(reason) && !/unavailable/i.test(toolbar), `the reason is written in the toolbar: ${toolbar}`);
    // A trace with start-stop activities and no thread-pool events: the toggle groups them.
    const streaming = { path: join(testdata, 'dotnet10', 'net10-startup-streaming.nettrace') };
    const grouped = (args) => JSON.parse(runNative('flame', streaming.path, ['--weight', 'traceevent-thread-time', ...args]).stdout.toString('utf8'));
    const [gOn, gOff] = [grouped([]), grouped(['--no-stitch-async'])];
    assert(gOn.frame.length !== gOff.frame.length, 'activity frames change the native graph of net10-startup-streaming');
    await open(streaming.path, '#tab=flame');
    await computed();
    assert((await stitchState()) === 'on' && (await nodes()) === gOn.frame.length, `activities on: ${await nodes()} nodes, native ${gOn.frame.length}`);
    await page.uncheck('#g-stitch');
    await page.waitForFunction(() => appRoot().getElementById('g-stitch-box').dataset.state === 'off', null, { timeout: 30_000 });
    await computed();
    assert((await nodes()) === gOff.frame.length, `activities off: ${await nodes()} nodes, native ${gOff.frame.length}`);
    // Other weights hide it.
    await page.selectOption('#g-weight', 'count');
    await page.waitForFunction(() => appRoot().getElementById('g-canvas-box').dataset.weight === 'count', null, { timeout: 30_000 });
    assert(await page.$eval('#g-stitch-box', (b) => b.hidden), 'hidden for other weights');
  });
}
