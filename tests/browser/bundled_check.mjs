// The npm package bundled by Vite into a consumer's app (scripts/pack_check.sh builds it):
// the app's page opens a trace File with openTrace() in headless Chromium. Checks that the
// bundler found the .wasm and the engine worker (both located relative to the module) and
// that the summary equals the native one; and mountAnalyzer() from 'nettrace-analyzer/element'
// shows the same trace with its stylesheet (analyzer.css, also located relative to the module).
// A trace of 32 MiB or more must be read through the file reader worker the engine worker
// starts (web/src/engine/off_thread_blob.ts): the bundler must have emitted that one too.
//   node tests/browser/bundled_check.mjs APP_DIST_DIR TRACE EXPECTED_SUMMARY_JSON_FILE
import { readFileSync, statSync } from 'node:fs';
import { startServer } from '../../scripts/serve.mjs';
import { launchChromium } from './harness.mjs';

const [site, trace, expectedFile] = process.argv.slice(2);
const expected = readFileSync(expectedFile, 'utf8').trim();
const server = await startServer({ root: site, port: 0 });
const browser = await launchChromium();
let failed = false;
try {
  const page = await browser.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  const workers = [];
  page.on('worker', (w) => workers.push(w.url()));
  await page.goto(server.url);
  await page.setInputFiles('#file', trace);
  await page.waitForSelector('#result[data-done="1"]', { state: 'attached', timeout: 60_000 });
  const got = await page.evaluate(() => window.__result);
  if (!got.ok) throw new Error(got.error);
  if (got.summaryJson !== expected) throw new Error('the bundled app summary differs from the native one');
  if (got.events !== 3) throw new Error(`events page of ${got.events}`);
  if (got.viewerEvents !== JSON.parse(expected).eventCount) throw new Error(`mountAnalyzer() showed ${got.viewerEvents} events`);
  if (!got.styled) throw new Error('the analyzer stylesheet was not bundled or not applied');
  if (errors.length) throw new Error(`page errors: ${errors.join('; ')}`);
  const big = statSync(trace).size >= 32 * 1024 * 1024;
  if (big && !workers.some((u) => u.includes('file_reader_worker'))) throw new Error(`no file reader worker among ${workers.join(', ')}`);
  console.log(`consumer: the Vite-bundled app opened ${trace.split('/').pop()} in Chromium (worker${big ? ', file reader worker' : ''} + wasm found by the bundler), and so did mountAnalyzer() (with its stylesheet)`);
} catch (e) {
  console.error(`bundled_check: ${e.message}`);
  failed = true;
} finally {
  await browser.close();
  await server.close();
}
process.exit(failed ? 1 : 0);
