// Our speedscope export opened by the real speedscope app (the `speedscope` npm package's
// release build) in headless Chromium: it must import the file without an error and show
// our profiles. Exit status and a final "N passed, N failed" line, like run.mjs.
import { cpSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from '../../scripts/serve.mjs';
import { root, runNative, testdata } from '../node/helpers.mjs';
import { launchChromium } from './harness.mjs';

const site = mkdtempSync(join(tmpdir(), 'speedscope-app-'));
cpSync(join(root, 'node_modules/speedscope/dist/release'), site, { recursive: true });
const traces = ['only_managed_samples.nettrace', 'HeartRateMonitor.10068.nettrace'];
for (const name of traces) {
  const r = runNative('export', join(testdata, name), ['--format', 'speedscope', '-o', join(site, `${name}.json`)]);
  if (r.status !== 0) throw new Error(r.stderr);
}
mkdirSync(join(root, 'build/screenshots'), { recursive: true });

const server = await startServer({ root: site, port: 0 });
const browser = await launchChromium();
let passed = 0, failed = 0;
try {
  for (const name of traces) {
    const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    try {
      const profileUrl = `${server.url}${name}.json`;
      await page.goto(`${server.url}index.html#profileURL=${encodeURIComponent(profileUrl)}`);
      // speedscope titles the document with the imported file's name once it has loaded.
      await page.waitForFunction((n) => document.title.includes(n), name, { timeout: 30_000 });
      const text = await page.evaluate(() => document.body.innerText);
      if (/something went wrong|unrecognized format|failed to/i.test(text)) throw new Error(`speedscope says: ${text.slice(0, 200)}`);
      if (!/Thread \(\d+\)/.test(text)) throw new Error('no "Thread (id)" profile shown');
      if (errors.length) throw new Error(errors.join('\n'));
      await page.screenshot({ path: join(root, `build/screenshots/speedscope-${name}.png`) });
      console.log(`ok: speedscope imports ${name}`);
      passed++;
    } catch (e) {
      console.log(`FAILED: speedscope import of ${name}: ${e.message}`);
      failed++;
    }
    await page.close();
  }
} finally {
  await browser.close();
  await server.close();
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
