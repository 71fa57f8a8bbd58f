// Browser check of the page's layout at 1024 × 768, 1400 × 900 and 1920 × 1080 px, in the
// full-page app (build/site) and in the <nettrace-analyzer> element as published (dist/, on
// the strict-CSP embedding page, the element filling the window), on real traces:
// - Flame graph tab (HeartRateMonitor's CPU samples): the flame graph's canvas shows over at
//   least 55 % of the window's height; Top functions' Total column (header and cells) lies in
//   the window, its numbers whole;
// - Summary (objver4: GC and JIT tables) and Diagnostics (net10-eventsource: exceptions,
//   contention, activities): every table's numeric columns lie in the window, no number cut;
// - every header button (tabs, Home, the Export menu) lies in the window (the element also at
//   1200 × 800);
// - no console error, no CSP violation.
// Then the page's wording (page_text_checks.mjs): units, names, messages, filters, weights.
// Writes screenshots to build/screenshots/layout-*.png. Prints "N passed, N failed" last.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { startServer } from '../../scripts/serve.mjs';
import { corpusTraces, root, runNative, testdata } from '../node/helpers.mjs';
import { assert, checkRunner, launchChromium } from './harness.mjs';
import { pageTextChecks } from './page_text_checks.mjs';

const CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; worker-src 'self'; connect-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'";
const SIZES = [[1024, 768], [1400, 900], [1920, 1080]];
/** The element also where its header once cut "Stacks CSV" off. */
const ELEMENT_SIZES = [...SIZES, [1200, 800]];
/** The share of the window's height the flame graph's canvas must show over. */
const FLAME_SHARE = 0.55;
const screenshots = join(root, 'build/screenshots');
mkdirSync(screenshots, { recursive: true });

const traces = corpusTraces();
const byName = (prefix) => traces.find((t) => t.name.startsWith(prefix)) ?? (() => { throw new Error(`no trace ${prefix}`); })();
const heart = byName('HeartRateMonitor');
const objver4 = byName('eventpipe-dotnetcore3.0-win-x64-objver4');
const eventsource = { name: 'net10-eventsource.nettrace', path: join(testdata, 'dotnet10', 'net10-eventsource.nettrace') };

const { check, finish } = checkRunner();
const site = await startServer({ root: join(root, 'build/site'), port: 0 });
const repo = await startServer({ root, port: 0, headers: { 'content-security-policy': CSP } });
const browser = await launchChromium();

/**
 * What breaks the layout in the analyzer under `hostSelector` (its shadow root), in the panel
 * shown: header buttons out of the window, numeric cells out of it or cut, the flame canvas's
 * share of the window. Runs in the page.
 */
function measure(hostSelector) {
  const root = document.querySelector(hostSelector).shadowRoot;
  const vw = document.documentElement.clientWidth;
  const vh = document.documentElement.clientHeight;
  const problems = [];
  const shown = (el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
  const inWindow = (r) => r.left >= -0.5 && r.right <= vw + 0.5;
  const name = (el) => (el.textContent || el.getAttribute('aria-label') || el.id).trim().slice(0, 40);
  for (const el of root.querySelectorAll('header button, header summary')) {
    if (!shown(el)) continue;
    const r = el.getBoundingClientRect();
    if (!inWindow(r) || r.top < 0 || r.bottom > vh) problems.push(`header "${name(el)}" at x ${r.left.toFixed(0)}-${r.right.toFixed(0)}, window ${vw}`);
  }
  const panel = root.querySelector('[role="tabpanel"]:not([hidden])');
  let numeric = 0;
  for (const table of panel.querySelectorAll('table')) {
    if (!shown(table)) continue;
    const caption = table.caption?.textContent.slice(0, 40) ?? table.className;
    for (const cell of [...table.querySelectorAll('th.num, tr:nth-child(-n+25) > td.num')]) {
      if (!shown(cell)) continue;
      numeric++;
      const r = cell.getBoundingClientRect();
      if (!inWindow(r)) problems.push(`"${caption}": numeric cell "${name(cell)}" at x ${r.left.toFixed(0)}-${r.right.toFixed(0)}, window ${vw}`);
      if (cell.tagName === 'TD' && cell.scrollWidth > cell.clientWidth + 1) problems.push(`"${caption}": "${name(cell)}" is cut (${cell.scrollWidth} > ${cell.clientWidth} px)`);
    }
  }
  const result = { problems, numeric, vw, vh };
  const canvas = root.getElementById('g-canvas');
  if (panel.id === 'view-flame') {
    const box = root.getElementById('g-canvas-box').getBoundingClientRect();
    const c = canvas.getBoundingClientRect();
    result.flameShare = Math.max(0, Math.min(c.bottom, box.bottom, vh) - Math.max(c.top, box.top, 0)) / vh;
    const total = root.querySelector('#g-top thead th:nth-child(3)');
    const totals = [...root.querySelectorAll('#g-top tbody tr:nth-child(-n+25) td:nth-child(3)')];
    result.topTotal = total === null ? null : { header: total.textContent, cells: totals.length };
    for (const cell of [total, ...totals]) {
      if (cell === null) continue;
      const r = cell.getBoundingClientRect();
      if (!inWindow(r) || r.top < 0 || (cell === total && r.bottom > vh)) problems.push(`Top functions' Total "${name(cell)}" at x ${r.left.toFixed(0)}-${r.right.toFixed(0)}, y ${r.top.toFixed(0)}`);
    }
  }
  return result;
}

/** The checks of one view (`tab`) of one trace at one size, in the app or the element. */
async function checkView(page, where, hostSelector, [width, height], tab, trace) {
  const click = (selector) => page.click(where === 'app' ? selector : `${hostSelector} >> ${selector}`);
  await click(`#tab-${tab}`);
  if (tab === 'flame') {
    await page.waitForFunction((host) => {
      const root = document.querySelector(host).shadowRoot;
      return Number(root.getElementById('g-canvas-box').dataset.nodes ?? 0) > 1 && root.querySelector('#g-top tbody tr') !== null;
    }, hostSelector, { timeout: 30_000 });
  } else if (tab === 'diagnostics') {
    await page.waitForFunction((host) => document.querySelector(host).shadowRoot.getElementById('diagnostics-box').dataset.ready === 'true', hostSelector, { timeout: 30_000 });
  } else {
    await page.waitForFunction((host) => document.querySelector(host).shadowRoot.querySelector('.jit-view, .gc-view') !== null, hostSelector, { timeout: 30_000 });
  }
  await page.waitForTimeout(150); // a resize observer's redraw
  const m = await page.evaluate(measure, hostSelector);
  await page.screenshot({ path: join(screenshots, `layout-${where}-${tab}-${width}.png`) });
  const at = `${where} ${width}×${height} ${tab} of ${trace.name}`;
  assert(m.vw === width && m.vh === height, `${at}: the window is ${m.vw}×${m.vh}`);
  assert(m.problems.length === 0, `${at}:\n       ${m.problems.join('\n       ')}`);
  assert(m.numeric > 0, `${at}: no numeric column measured`);
  if (tab === 'flame') {
    assert(m.flameShare >= FLAME_SHARE, `${at}: the flame graph shows over ${(m.flameShare * 100).toFixed(1)} % of the window's height (at least ${FLAME_SHARE * 100} %)`);
    assert(m.topTotal !== null && m.topTotal.header.startsWith('Total') && m.topTotal.cells > 5, `${at}: Top functions' Total: ${JSON.stringify(m.topTotal)}`);
  }
  return m;
}

/** A page at `size` that reports console errors and CSP violations into `errors`. */
async function newPage([width, height], errors) {
  const page = await browser.newPage({ viewport: { width, height } });
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  return page;
}

const VIEWS = [['flame', heart], ['summary', objver4], ['diagnostics', eventsource]];

try {
  for (const size of ELEMENT_SIZES) {
    if (SIZES.includes(size)) await check(`app at ${size.join('×')}: flame graph ≥ ${Math.round(FLAME_SHARE * 100)} % of the height; header buttons, numeric columns and Top functions' Total in the window`, async () => {
      const errors = [];
      const page = await newPage(size, errors);
      try {
        const shares = [];
        for (const [tab, trace] of VIEWS) {
          await page.goto('about:blank');
          await page.goto(site.url);
          await page.setInputFiles('#file', trace.path);
          await page.waitForSelector('#result[data-state="done"]', { timeout: 60_000 });
          const m = await checkView(page, 'app', 'nettrace-analyzer', size, tab, trace);
          if (m.flameShare !== undefined) shares.push(m.flameShare);
        }
        console.log(`     flame graph: ${(shares[0] * 100).toFixed(1)} % of the window's height`);
        assert(errors.length === 0, `console errors:\n  ${errors.join('\n  ')}`);
      } finally {
        await page.close();
      }
    });

    await check(`element (strict CSP) at ${size.join('×')}: the same, filling the window`, async () => {
      const errors = [];
      const page = await newPage(size, errors);
      try {
        await page.goto(`${repo.url}tests/browser/embed_page.html`);
        await page.waitForFunction(() => document.getElementById('embedded').shadowRoot?.getElementById('drop') != null);
        // The element fills the window (the host page's own content stays under it).
        await page.evaluate(() => Object.assign(document.getElementById('box').style, { position: 'fixed', inset: '0', width: '100vw', height: '100vh', zIndex: '1' }));
        const shares = [];
        let loads = 0;
        for (const [tab, trace] of VIEWS) {
          await page.setInputFiles('#host-file', trace.path);
          loads++;
          await page.waitForFunction((n) => window.__events.filter((e) => e.type === 'load').length >= n, loads, { timeout: 60_000 });
          const m = await checkView(page, 'element', '#embedded', size, tab, trace);
          if (m.flameShare !== undefined) shares.push(m.flameShare);
        }
        console.log(`     flame graph: ${(shares[0] * 100).toFixed(1)} % of the window's height`);
        const violations = await page.evaluate(() => window.__violations);
        assert(violations.length === 0, `CSP violations: ${violations.join(', ')}`);
        assert(errors.length === 0, `console errors:\n  ${errors.join('\n  ')}`);
      } finally {
        await page.close();
      }
    });
  }

  await pageTextChecks({ browser, site, check, assert, byName, runNative, testdata, root });
} finally {
  await browser.close();
  await site.close();
  await repo.close();
}

finish();
