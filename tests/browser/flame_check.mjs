// Browser check of the flame graph and sandwich views (web/src/views/flame_view.ts,
// sandwich_view.ts) on their own page (tests/bench/flame_page.html), in Debian's Chromium,
// with the real corpus trace HeartRateMonitor: every expected value comes from
// `build/native/nettrace` (flame, top, sandwich) for the same file. Checks click-to-zoom and
// the breadcrumb, the hover tooltip, the search share, keyboard navigation, the flame/icicle
// toggle (drawn and hit-tested at the mirrored row), and the sandwich of a known method
// (its caller and callees, click and Enter re-centre). At devicePixelRatio 1 and 2.
// Prints "N passed, N failed" last; exits non-zero on any failure.
//
//   node tests/browser/flame_check.mjs   (after scripts/build.sh)
import { join } from 'node:path';
import { startServer } from '../../scripts/serve.mjs';
import { root, runNative, testdata } from '../node/helpers.mjs';
import { assert, checkRunner, launchChromium } from './harness.mjs';

const TRACE = join(testdata, 'HeartRateMonitor.10068.nettrace');
const URL_PATH = '/build/native/testdata/HeartRateMonitor.10068.nettrace';
const ROW_PX = 18;
const WIDTH = 1280;
/** A method of HeartRateMonitor with one caller and two callees (see `nettrace sandwich`). */
const METHOD = 'HeartRateMonitor!HeartRateMonitor.Program.OnCreate';

const json = (command, args = []) => JSON.parse(runNative(command, TRACE, args).stdout.toString('utf8'));
const graph = json('flame');
const top = json('top', ['-n', '100000']);
const nativeSandwich = json('sandwich', [METHOD]);

// The page's number formats (web/src/ui/dom.ts fmt, percent).
const fmt = (n) => new Intl.NumberFormat('en-US').format(n);
/** An amount of the CPU samples' weight as the views write it ("1,234 samples", "1.25 s"). */
const { formatWeight } = await import(join(root, 'build/site/ui/units.js'));
const samples = (n, unit = graph.unit) => formatWeight(n, unit, 'Thread/Sample');
const percent = (part, whole) => (whole > 0 ? `${((100 * part) / whole).toFixed(part * 1000 < whole ? 2 : 1)}%` : '—');

const n = graph.frame.length;
const maxDepth = Math.max(...graph.depth);
const nameOf = (node) => (node === 0 ? 'all' : graph.frames[graph.frame[node]]);
const inclusive = (node) => graph.end[node] - graph.start[node];
/** The css point at the middle of a node's cell, zoomed out, root at the top or bottom. */
const pointOf = (node, rootAtBottom = false) => ({
  x: ((graph.start[node] + graph.end[node]) / 2 / graph.total) * WIDTH,
  y: ((rootAtBottom ? maxDepth - graph.depth[node] : graph.depth[node]) + 0.5) * ROW_PX,
});
/** The widest node at a depth. */
const widestAt = (depth) => {
  let best = -1;
  for (let i = 0; i < n; i++) if (graph.depth[i] === depth && (best < 0 || inclusive(i) > inclusive(best))) best = i;
  return best;
};

const { check, finish } = checkRunner();
function assertEqual(actual, expected, what) {
  const a = JSON.stringify(actual);
  const b = JSON.stringify(expected);
  assert(a === b, `${what}:\n     page:   ${a}\n     native: ${b}`);
}

const server = await startServer({ root, port: 0 });
const browser = await launchChromium();

try {
  for (const ratio of [1, 2]) {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 }, deviceScaleFactor: ratio });
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    await page.goto(`${server.url}tests/bench/flame_page.html`);
    await page.waitForSelector('body[data-ready="true"]');
    const nodes = await page.evaluate(async (url) => {
      const { flame, open } = window.flamePage;
      const { data } = await open(url, {});
      flame.setData(data, 'Thread/Sample');
      flame.zoomTo(0);
      return data.frame.length;
    }, URL_PATH);
    const at = `(dpr ${ratio})`;
    // Helpers run in the page; each returns what the user would see.
    const tooltipAt = (p) =>
      page.evaluate(({ x, y }) => {
        window.flamePage.hover(x, y);
        const t = document.getElementById('tooltip');
        return t.hidden ? null : [...t.children].map((c) => c.textContent);
      }, p);
    const leave = () => page.evaluate(() => window.flamePage.canvas.dispatchEvent(new MouseEvent('mouseleave')));

    await check(`flame: the page's graph is the engine's ${at}`, async () => {
      assertEqual(nodes, n, 'node count');
    });

    await check(`flame: click on a frame zooms, the breadcrumb shows it and zooms out ${at}`, async () => {
      const node = widestAt(2);
      const p = pointOf(node);
      const r = await page.evaluate(({ x, y }) => {
        window.flamePage.click(x, y);
        const crumbs = [...document.querySelectorAll('#breadcrumb button')];
        return { zoomed: window.flamePage.flame.zoomed, crumbs: crumbs.map((b) => b.textContent), last: crumbs.at(-1).disabled };
      }, p);
      assertEqual(r.zoomed, node, 'zoomed node');
      assertEqual(r.crumbs, ['all', nameOf(graph.parent[node]), nameOf(node)], 'breadcrumb');
      assert(r.last, 'the zoomed crumb is disabled');
      // Zoomed: the node fills the width, so its cell's left end now hits it.
      const left = await page.evaluate(({ y }) => window.flamePage.flame.hitTest(2, y), p);
      assertEqual(left, node, 'hit at x = 2 css px when zoomed');
      const back = await page.evaluate(() => {
        document.querySelector('#breadcrumb button').click();
        return { zoomed: window.flamePage.flame.zoomed, crumbs: document.querySelectorAll('#breadcrumb button').length };
      });
      assertEqual(back, { zoomed: 0, crumbs: 1 }, 'after the "all" crumb');
    });

    await check(`flame: hover shows name, inclusive, exclusive and % ${at}`, async () => {
      for (const depth of [1, 3, 6]) {
        const node = widestAt(depth);
        const lines = await tooltipAt(pointOf(node));
        assertEqual(
          lines,
          [
            nameOf(node),
            // An amount in its unit: a count of CPU samples named for what it counts (web/src/ui/units.ts).
            `Inclusive: ${samples(inclusive(node))} (${percent(inclusive(node), graph.total)})`,
            `Exclusive: ${samples(graph.self[node])} (${percent(graph.self[node], graph.total)})`,
          ],
          `tooltip of the widest node at depth ${depth}`,
        );
      }
      await leave();
      assert((await page.evaluate(() => document.getElementById('tooltip').hidden)) === true, 'tooltip hidden on leave');
    });

    await check(`flame: search share equals the engine's inclusive share ${at}`, async () => {
      // Functions no other function name contains (case-insensitively), heaviest first.
      const names = top.functions.map((f) => f.name.toLowerCase());
      const unique = top.functions.filter((f) => names.filter((x) => x.includes(f.name.toLowerCase())).length === 1);
      assert(unique.length >= 3, 'three functions with unique names');
      for (const f of unique.slice(1, 4)) {
        const count = graph.frame.filter((fr, i) => i > 0 && graph.frames[fr] === f.name).length;
        const text = await page.evaluate((q) => {
          const input = document.getElementById('search');
          input.value = q;
          input.dispatchEvent(new Event('input'));
          return document.getElementById('search-result').textContent;
        }, f.name.toUpperCase());
        assertEqual(text, `${fmt(count)} ${count === 1 ? "frame matches" : "frames match"} · ${samples(f.inclusive)} (${percent(f.inclusive, top.total)})`, `search ${f.name}`);
      }
      const cleared = await page.evaluate(() => {
        window.flamePage.flame.search('');
        return document.getElementById('search-result').textContent;
      });
      assertEqual(cleared, '', 'cleared search');
    });

    await check(`flame: keyboard moves, zooms and zooms out ${at}`, async () => {
      await page.focus('#canvas');
      await page.keyboard.press('ArrowDown'); // icicle: the root's first child
      await page.keyboard.press('Enter');
      assertEqual(await page.evaluate(() => window.flamePage.flame.zoomed), 1, 'zoomed after ArrowDown, Enter');
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('ArrowRight');
      const label = await page.evaluate(() => window.flamePage.canvas.getAttribute('aria-label'));
      const firstChild = graph.parent[2] === 1 ? 2 : 1;
      // The next node of its depth row that is drawn: inside node 1's subtree (zoomed) and at
      // least half a css pixel wide at 1280 px; none → the focus stays.
      let end1 = 2;
      while (end1 < n && graph.depth[end1] > graph.depth[1]) end1++;
      const wide = (i) => ((graph.end[i] - graph.start[i]) / (graph.end[1] - graph.start[1])) * 1280 >= 0.5;
      const sibling = graph.depth.findIndex((d, i) => i > firstChild && i < end1 && d === graph.depth[firstChild] && wide(i));
      const expected = sibling >= 0 ? sibling : firstChild;
      assertEqual(label, `${nameOf(expected)}; Enter zooms, Escape zooms out`, 'focused node after ArrowDown, ArrowRight');
      await page.keyboard.press('Escape');
      assertEqual(await page.evaluate(() => window.flamePage.flame.zoomed), 0, 'zoomed after Escape');
      await leave();
    });

    await check(`flame: root at the bottom draws and hits each node at the mirrored row ${at}`, async () => {
      const height = (maxDepth + 1) * ROW_PX;
      // Nodes at least 4 css px wide, so that the middle of their cell is not a gap pixel.
      const probes = [0, widestAt(1), widestAt(4), widestAt(Math.floor((maxDepth * 3) / 4))];
      for (const node of probes) assert((inclusive(node) / graph.total) * WIDTH >= 4, `${nameOf(node)} is wide enough`);
      const r = await page.evaluate(
        ({ probes, ratio }) => {
          const { flame, canvas } = window.flamePage;
          const g = canvas.getContext('2d');
          const pixel = ({ x, y }) => Array.from(g.getImageData(Math.floor(x * ratio), Math.floor(y * ratio), 1, 1).data);
          const sample = () => probes.map((p) => ({ hit: flame.hitTest(p.x, p.y), pixel: pixel(p) }));
          flame.setRootAtBottom(false);
          const icicle = sample();
          flame.setRootAtBottom(true);
          const mirrored = probes.map((p) => ({ x: p.x, y: canvas.clientHeight - p.y }));
          const flameDown = mirrored.map((p) => ({ hit: flame.hitTest(p.x, p.y), pixel: pixel(p) }));
          const tip = (() => {
            window.flamePage.hover(mirrored[1].x, mirrored[1].y);
            return document.querySelector('#tooltip strong')?.textContent ?? null;
          })();
          canvas.dispatchEvent(new MouseEvent('mouseleave'));
          flame.setRootAtBottom(false);
          return { icicle, flameDown, tip, height: canvas.clientHeight };
        },
        { probes: probes.map((node) => pointOf(node)), ratio },
      );
      assertEqual(r.height, Math.max(height, 60), 'canvas height');
      for (const [k, node] of probes.entries()) {
        assertEqual(r.icicle[k].hit, node, `icicle hit of ${nameOf(node)}`);
        assertEqual(r.flameDown[k].hit, node, `flame hit of ${nameOf(node)} at the mirrored y`);
        assert(r.icicle[k].pixel[3] === 255, `${nameOf(node)} is drawn (icicle)`);
        assertEqual(r.flameDown[k].pixel, r.icicle[k].pixel, `pixel of ${nameOf(node)} at the mirrored y`);
      }
      assertEqual(r.tip, nameOf(probes[1]), 'tooltip at the mirrored y');
    });

    await check(`sandwich: callers and callees of ${METHOD} are the engine's ${at}`, async () => {
      const shown = await page.evaluate(async (method) => {
        const { sandwich, trace } = window.flamePage;
        await sandwich.show(trace(), {}, method);
        const rows = (kind) =>
          [...document.querySelectorAll(`.sandwich-tree.${kind} tbody tr[aria-level="1"]`)].map((tr) =>
            [...tr.cells].map((c) => c.textContent.replace(/^[\u25B8\u25BE]/, '')),
          );
        return {
          focus: document.querySelector('.sandwich-focus').textContent,
          callers: rows('callers'),
          callees: rows('callees'),
        };
      }, METHOD);
      const level1 = (g) => {
        const out = [];
        for (let i = 1; i < g.frame.length; i++) if (g.parent[i] === 0) out.push(i);
        out.sort((a, b) => g.end[b] - g.start[b] - (g.end[a] - g.start[a]));
        // Counts as numbers (their noun in the header), times and bytes in their unit.
        const cell = (v) => (g.unit === 'samples' ? fmt(v) : samples(v, g.unit));
        return out.map((i) => [g.frames[g.frame[i]], cell(g.end[i] - g.start[i]), percent(g.end[i] - g.start[i], g.total), cell(g.self[i])]);
      };
      assertEqual(shown.callers, level1(nativeSandwich.callers), 'callers');
      assertEqual(shown.callees, level1(nativeSandwich.callees), 'callees');
      assert(shown.callers[0][0] === 'Tizen.Applications.UI!Tizen.Applications.CoreBackend.UICoreBackend.OnCreateNative', 'the known caller');
      assert(shown.callees.some((r) => r[0] === 'HeartRateMonitor!HeartRateMonitor.App..ctor'), 'a known callee');
      assert(shown.focus.startsWith(`${METHOD} inclusive ${samples(nativeSandwich.callees.total, nativeSandwich.callees.unit)}, exclusive `), `focus line: ${shown.focus}`);
    });

    await check(`sandwich: click and Enter re-centre on a caller or callee, arrows move ${at}`, async () => {
      const r = await page.evaluate(async () => {
        const { sandwich, picks } = window.flamePage;
        picks.length = 0;
        const settled = () => new Promise((resolve) => {
          const poll = () => (document.querySelector('.sandwich[aria-busy]') ? setTimeout(poll, 10) : resolve());
          setTimeout(poll, 10);
        });
        const first = document.querySelector('.sandwich-tree.callers tbody tr[aria-level="1"]');
        const callerName = first.querySelector('.sandwich-label').textContent;
        first.click();
        await settled();
        const afterClick = sandwich.functionName;
        // Keyboard: focus the first callee row, move down, Enter.
        const row = document.querySelector('.sandwich-tree.callees tbody tr[tabindex="0"]');
        row.focus();
        row.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowDown', bubbles: true }));
        const focused = document.activeElement;
        const focusedName = focused.querySelector('.sandwich-label')?.textContent ?? null;
        focused.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
        await settled();
        const focusAfter = document.activeElement?.closest('.sandwich-tree.callees') !== null && document.activeElement.matches('tr[tabindex="0"]');
        return { callerName, afterClick, focusedName, afterEnter: sandwich.functionName, picks: [...picks], moved: focused !== row, focusAfter };
      });
      assertEqual(r.afterClick, r.callerName, 'centred on the clicked caller');
      assert(r.moved, 'ArrowDown moved the focus');
      assertEqual(r.afterEnter, r.focusedName, 'centred on the row Enter was pressed on');
      assertEqual(r.picks, [r.callerName, r.focusedName], 'onPick calls');
      assert(r.focusAfter, 'after Enter the keyboard focus is on the first callee row again');
    });

    await check(`sandwich: an absent function says so, clear() empties ${at}`, async () => {
      const r = await page.evaluate(async () => {
        const { sandwich, trace } = window.flamePage;
        await sandwich.show(trace(), {}, '<img src=x onerror=alert(1)>');
        const text = document.querySelector('.sandwich').textContent;
        const images = document.querySelectorAll('.sandwich img').length;
        sandwich.clear();
        return { text, images, after: document.querySelector('.sandwich').childElementCount };
      });
      assertEqual(r.text, '<img src=x onerror=alert(1)> does not occur in these stacks.', 'message (as text)');
      assertEqual(r.images, 0, 'no element from the name');
      assertEqual(r.after, 0, 'children after clear()');
    });

    await check(`no page errors ${at}`, async () => {
      assertEqual(errors, [], 'page errors');
    });
    await page.close();
  }
} finally {
  await browser.close();
  await server.close();
}

finish();
