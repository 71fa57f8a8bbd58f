// Browser test of the embeddable analyzer: tests/browser/embed_page.html, served with the strict
// Content-Security-Policy of the issue on EVERY response (so the engine worker runs under it
// too), next to page CSS that would clash. Checks: the element fills its container; page CSS
// does not leak in and the analyzer's does not leak out; open(File) reads a corpus trace
// (summary = native CLI), the views work (events, flame graph); `load`, `error` (code + offset
// + partial summary) and `selection` (timeline brush) events; the `src` attribute;
// mountAnalyzer() on a plain <div>; no CSP violation and no page error. Writes a screenshot.
// Prints "N passed, N failed" last; exits non-zero on any failure.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { startServer } from '../../scripts/serve.mjs';
import { corpusTraces, root, runNative, testdata } from '../node/helpers.mjs';
import { assert, checkRunner, launchChromium } from './harness.mjs';

const CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; worker-src 'self'; connect-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'";
const screenshots = join(root, 'build/screenshots');
mkdirSync(screenshots, { recursive: true });

const { check, finish } = checkRunner();

const traces = corpusTraces();
const hrm = traces.find((t) => t.name.startsWith('HeartRateMonitor'));
const cut = traces.find((t) => t.truncated);
const sample = traces.find((t) => t.name.startsWith('only_managed_samples'));
const nativeCount = (path) => JSON.parse(runNative('summary', path).stdout.toString('utf8')).eventCount;

const server = await startServer({ root, port: 0, headers: { 'content-security-policy': CSP } });
const browser = await launchChromium();
const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
const pageErrors = [];
page.on('pageerror', (e) => pageErrors.push(String(e)));
page.on('console', (m) => {
  if (m.type() === 'error') pageErrors.push(m.text());
});
const inShadow = (selector) => `#embedded >> ${selector}`;
const eventsOf = (type) => page.evaluate((t) => window.__events.filter((e) => e.type === t), type);
const waitForEvent = (type, count) =>
  page.waitForFunction(([t, n]) => window.__events.filter((e) => e.type === t).length >= n, [type, count], { timeout: 60_000 });

try {
  await page.goto(`${server.url}tests/browser/embed_page.html`);
  await page.waitForFunction(() => document.getElementById('embedded').shadowRoot?.getElementById('drop') !== null);

  await check('the element and a mountAnalyzer() div are sized by their containers', async () => {
    const sizes = await page.evaluate(() =>
      ['embedded', 'mount-box'].map((id) => {
        const r = document.getElementById(id).getBoundingClientRect();
        return [Math.round(r.width), Math.round(r.height)];
      }),
    );
    assert(JSON.stringify(sizes) === '[[900,600],[700,500]]', `sizes ${JSON.stringify(sizes)}`);
  });

  await check('page CSS does not reach into the analyzer, the analyzer\'s does not leak out', async () => {
    // Let the analyzer's stylesheet (a <link> in the shadow root) apply.
    await page.waitForFunction(() => getComputedStyle(document.getElementById('embedded').shadowRoot.getElementById('tabs')).display === 'none');
    const got = await page.evaluate(() => {
      const shadow = document.getElementById('embedded').shadowRoot;
      const inside = getComputedStyle(shadow.getElementById('choose'));
      const header = getComputedStyle(shadow.querySelector('header'));
      const host = getComputedStyle(document.getElementById('host-button'));
      return {
        insideFont: inside.fontFamily,
        insideBackground: inside.backgroundColor,
        insidePadding: inside.paddingTop,
        insideColor: getComputedStyle(shadow.querySelector('.intro')).color,
        headerMargin: header.marginTop,
        headerBorder: header.borderTopStyle,
        tabsDisplay: getComputedStyle(shadow.getElementById('tabs')).display,
        hostFont: host.fontFamily,
        hostBackground: host.backgroundColor,
        hostPadding: host.paddingTop,
        hostMutedColor: getComputedStyle(document.querySelector('h1.muted')).color,
        hostDropBorder: getComputedStyle(document.querySelector('p.drop')).borderTopColor,
      };
    });
    assert(!/comic/i.test(got.insideFont), `page font leaked in: ${got.insideFont}`);
    assert(got.insideBackground !== 'rgb(0, 128, 0)' && got.insidePadding !== '40px', `page button style leaked in: ${JSON.stringify(got)}`);
    assert(got.insideColor !== 'rgb(255, 0, 0)', `page colour inherited into the analyzer: ${got.insideColor}`);
    assert(got.headerMargin === '0px' && got.headerBorder !== 'dotted', `page box rules leaked in: ${JSON.stringify(got)}`);
    assert(got.tabsDisplay === 'none', 'hidden parts of the analyzer show');
    assert(/comic/i.test(got.hostFont) && got.hostBackground === 'rgb(0, 128, 0)' && got.hostPadding === '40px', `the page's own button changed: ${JSON.stringify(got)}`);
    assert(got.hostMutedColor === 'rgb(0, 0, 255)' && got.hostDropBorder === 'rgb(255, 0, 255)', `analyzer CSS leaked out: ${JSON.stringify(got)}`);
  });

  await check('open(File) under the strict CSP: load event, summary = native, views work', async () => {
    await page.setInputFiles('#host-file', hrm.path);
    await waitForEvent('load', 1);
    const [load] = await eventsOf('load');
    assert(load.detail.name === hrm.name && load.detail.eventCount === nativeCount(hrm.path), `load ${JSON.stringify(load.detail)}`);
    assert((await page.evaluate(() => document.getElementById('embedded').summary.eventCount)) === load.detail.eventCount, 'element.summary');
    await page.click(inShadow('#tab-events'));
    await page.waitForFunction(() => document.getElementById('embedded').shadowRoot.getElementById('event-scroller').dataset.total !== undefined);
    const total = Number(await page.getAttribute(inShadow('#event-scroller'), 'data-total'));
    assert(total === load.detail.eventCount, `event table ${total}`);
    await page.click(inShadow('#tab-flame'));
    await page.waitForFunction(() => Number(document.getElementById('embedded').shadowRoot.getElementById('g-canvas-box').dataset.nodes ?? 0) > 1, null, { timeout: 30_000 });
    await page.click(inShadow('#tab-summary'));
  });

  await check('a brush on the timeline sends a selection event with the range', async () => {
    const box = await page.locator(inShadow('#timeline-canvas')).boundingBox();
    assert(box !== null && box.width > 100, 'timeline canvas not laid out');
    await page.mouse.move(box.x + box.width * 0.25, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.5, box.y + box.height / 2, { steps: 5 });
    await page.mouse.up();
    await waitForEvent('selection', 1);
    const selection = (await eventsOf('selection')).at(-1).detail;
    assert(selection.kind === 'range' && selection.fromMs < selection.toMs, `selection ${JSON.stringify(selection)}`);
    assert(!(await page.locator(inShadow('#range-chip')).isHidden()), 'the range chip shows');
  });

  await check('a truncated trace sends an error event with code, offset and the partial summary', async () => {
    await page.setInputFiles('#host-file', cut.path);
    await waitForEvent('error', 1);
    const error = (await eventsOf('error'))[0].detail;
    assert(error.code === 'truncated' && Number.isInteger(error.offset) && error.partial > 0, `error ${JSON.stringify(error)}`);
    const status = await page.textContent(inShadow('#status'));
    assert(status.includes(`at byte offset ${error.offset.toLocaleString('en-US')}`), `status ${status}`);
  });

  await check('the src attribute opens a trace from a URL', async () => {
    const url = `/${join('build/native/testdata', sample.name)}`;
    assert(sample.path === join(testdata, sample.name), 'sample path');
    await page.evaluate((u) => document.getElementById('embedded').setAttribute('src', u), url);
    await waitForEvent('load', 2);
    const load = (await eventsOf('load'))[1].detail;
    assert(load.name === sample.name && load.eventCount === nativeCount(sample.path), `load ${JSON.stringify(load)}`);
  });

  await check('mountAnalyzer(div).open(blob) reads a trace in that div', async () => {
    await page.evaluate(async (u) => {
      const blob = await (await fetch(u)).blob();
      await window.__mounted.open(blob, 'sample.nettrace');
    }, `/${join('build/native/testdata', sample.name)}`);
    await waitForEvent('mounted-load', 1);
    const [load] = await eventsOf('mounted-load');
    assert(load.detail.eventCount === nativeCount(sample.path), `mounted ${JSON.stringify(load)}`);
    const headline = await page.textContent('#mount-box >> #headline');
    assert(headline.includes('sample.nettrace'), `mounted headline ${headline}`);
    await page.screenshot({ path: join(screenshots, 'embedded-strict-csp.png'), fullPage: true });
  });

  await check('removed, the element ends its engine; put back, one drop opens one trace', async () => {
    const before = (await eventsOf('load')).length;
    const gone = await page.evaluate(async () => {
      const element = document.getElementById('embedded');
      const box = element.parentElement;
      element.remove();
      await new Promise((r) => setTimeout(r, 50));
      const trace = element.trace;
      box.append(element);
      return trace;
    });
    assert(gone === null, 'the removed element still holds its trace');
    // Put back, the element mounts a new analyzer, which opens its src again (its engine worker
    // is started ahead, so that load ends quickly): wait for it before the drop.
    await waitForEvent('load', before + 1);
    await page.evaluate(async (u) => {
      const bytes = await (await fetch(u)).arrayBuffer();
      const transfer = new DataTransfer();
      transfer.items.add(new File([bytes], 'dropped.nettrace'));
      document.getElementById('embedded').dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }));
    }, `/${join('build/native/testdata', sample.name)}`);
    await waitForEvent('load', before + 2);
    await page.waitForTimeout(500); // a listener left by the destroyed analyzer would load it again
    const loads = (await eventsOf('load')).slice(before + 1);
    assert(loads.length === 1 && loads[0].detail.name === 'dropped.nettrace', `loads after the drop: ${JSON.stringify(loads)}`);
  });

  await check('no CSP violation and no page error', async () => {
    const violations = await page.evaluate(() => window.__violations);
    assert(violations.length === 0, `CSP violations: ${violations.join(', ')}`);
    assert(pageErrors.length === 0, `page errors:\n  ${pageErrors.join('\n  ')}`);
  });
} finally {
  await browser.close();
  await server.close();
}

finish();
