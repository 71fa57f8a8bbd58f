#!/usr/bin/env node
// Takes the README's screenshot, docs/screenshot.png: the built app (build/site) in headless
// Chromium with a real CPU-sample trace opened through its file picker, on the Flame graph tab
// (thread time, Top functions beside it). Run after scripts/build.sh; the PNG is written as
// Chromium draws it (1280 x 800 CSS pixels), then recompressed by optipng when installed.
//
//   node scripts/screenshot.mjs [TRACE] [OUT]
//     TRACE  default build/native/testdata/dotnet10/net10-cpu-async-http.nettrace
//     OUT    default docs/screenshot.png
import { spawnSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer } from './serve.mjs';
import { launchChromium } from '../tests/browser/harness.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const trace = process.argv[2] ?? join(root, 'build/native/testdata/dotnet10/net10-cpu-async-http.nettrace');
const out = process.argv[3] ?? join(root, 'docs/screenshot.png');

const server = await startServer({ root: join(root, 'build/site'), port: 0 });
const browser = await launchChromium();
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 }, colorScheme: 'light' });
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  await page.goto(server.url);
  await page.setInputFiles('#file', trace);
  await page.waitForFunction(() => document.querySelector('nettrace-analyzer')?.shadowRoot
    ?.getElementById('result')?.dataset.state === 'done', null, { timeout: 60_000 });
  await page.click('#tab-flame');
  await page.waitForFunction(() => {
    const r = document.querySelector('nettrace-analyzer').shadowRoot;
    return Number(r.getElementById('g-canvas-box')?.dataset.nodes ?? 0) > 1 && !/Computing/.test(r.getElementById('g-message').textContent);
  }, null, { timeout: 60_000 });
  await page.mouse.move(0, 0);
  await page.screenshot({ path: out });
  if (errors.length) throw new Error(`the page reported errors: ${errors.join('; ')}`);
} finally {
  await browser.close();
  await server.close();
}
if (spawnSync('optipng', ['-quiet', '-o2', out]).error) console.log('optipng is not installed: the PNG is as Chromium wrote it');
console.log(`wrote ${out} (${statSync(out).size} bytes)`);
