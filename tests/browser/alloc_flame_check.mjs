// Browser check of the allocation flame graph: a .NET 10 trace with AllocationSampled events
// opens on the estimated allocated bytes (the page's default weight for it), and the graph the
// page draws is `nettrace flame --weight alloc-bytes`: the same total and node count, and every
// node wide enough to point at (≥ 3 css px), hovered with the mouse, names the engine's frame
// with its inclusive and exclusive amounts and shares.
import { join } from 'node:path';
import { root, testdata } from '../node/helpers.mjs';

const ROW_PX = 18; // web/src/views/flame_view.ts

export async function allocFlameChecks({ browser, server, check, assert, runNative }) {
  const { formatBytes } = await import(join(root, 'build/site/ui/units.js'));
  const { percent } = await import(join(root, 'build/site/ui/dom.js'));
  const trace = join(testdata, 'dotnet10', 'net10-alloc-sampled.nettrace');

  await check('allocation flame graph (AllocationSampled, alloc-bytes) equals `nettrace flame --weight alloc-bytes`, node by node', async () => {
    const g = JSON.parse(runNative('flame', trace, ['--weight', 'alloc-bytes']).stdout.toString('utf8'));
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    await page.addInitScript(() => {
      globalThis.appRoot = () => document.querySelector('nettrace-analyzer')?.shadowRoot ?? document;
    });
    try {
      await page.goto(`${server.url}#tab=flame`);
      await page.setInputFiles('#file', trace);
      await page.waitForSelector('#result[data-state="done"]', { timeout: 60_000 });
      await page.waitForFunction(() => appRoot().getElementById('g-canvas-box').dataset.weight === 'alloc-bytes' && !/Computing/.test(appRoot().getElementById('g-message').textContent), null, { timeout: 30_000 });
      const box = await page.$eval('#g-canvas-box', (b) => ({ total: Number(b.dataset.total), nodes: Number(b.dataset.nodes) }));
      assert(box.total === g.total && box.nodes === g.frame.length, `page: ${box.total} bytes in ${box.nodes} nodes; native: ${g.total} in ${g.frame.length}`);
      const rect = await page.$eval('#g-canvas', (c) => {
        const r = c.getBoundingClientRect();
        return { left: r.left, top: r.top, width: r.width };
      });
      let hovered = 0;
      for (let node = 1; node < g.frame.length; node++) {
        const width = ((g.end[node] - g.start[node]) / g.total) * rect.width;
        if (width < 3) continue;
        const x = rect.left + ((g.start[node] + g.end[node]) / 2 / g.total) * rect.width;
        const y = rect.top + (g.depth[node] + 0.5) * ROW_PX;
        await page.mouse.move(x, y);
        const lines = await page.$eval('#g-tooltip', (t) => (t.hidden ? null : [...t.children].map((c) => c.textContent)));
        const inclusive = g.end[node] - g.start[node];
        const expected = [g.frames[g.frame[node]], `Inclusive: ${formatBytes(inclusive)} (${percent(inclusive, g.total)})`,
          `Exclusive: ${formatBytes(g.self[node])} (${percent(g.self[node], g.total)})`];
        assert(JSON.stringify(lines) === JSON.stringify(expected), `node ${node}: page ${JSON.stringify(lines)}, native ${JSON.stringify(expected)}`);
        hovered++;
      }
      assert(hovered >= 10, `only ${hovered} nodes wide enough to hover`);
    } finally {
      await page.close();
    }
  });
}
