// Browser check of who `nettrace-analyzer live` answers (web/src/live/local_guard.ts), in
// Chromium against a fake runtime (no dotnet): a page of another origin (a second local server
// on another port) tries a no-cors POST of Stop, a Stop with a guessed token, and reads of the
// session's data — all refused or unreadable, the session keeps running; a page whose host name
// resolves to 127.0.0.1 (DNS rebinding, made with Chromium's --host-resolver-rules) gets 403 for
// everything; then the live page's own Stop ends the session.
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { testdata } from '../node/helpers.mjs';
import { livePage, startLive, stopAware, until, withFakeRuntime } from '../node/fake_runtime.mjs';
import { CHROMIUM_ARGS } from './harness.mjs';

const trace = readFileSync(join(testdata, 'dotnet10/net10-gc-verbose.nettrace'));

/** Another site: any path is a blank page of its own origin. */
async function otherSite() {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><title>another site</title><p>another site');
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${server.address().port}/`, close: () => new Promise((r) => server.close(r)) };
}

/** Ctrl-C until `live` exits (the first stops a running session, the next quits), then a kill. */
async function quit(live) {
  for (const signal of ['SIGINT', 'SIGINT', 'SIGKILL']) {
    live.child.kill(signal);
    const exited = await Promise.race([live.exited.then(() => true), new Promise((r) => setTimeout(() => r(false), 5000))]);
    if (exited) return;
  }
}

export async function liveGuardChecks({ check, assert }) {
  await check('live server: another origin and a rebinding host are refused, the session keeps running; the page\'s Stop works', async () => {
    await withFakeRuntime(stopAware(trace, 65536, 9), async (dir, requests) => {
      const live = startLive(dir, ['--pid', String(process.pid), '--port', '0']);
      const other = await otherSite();
      // evil.example resolves to this machine, as a rebinding attacker's DNS would make it.
      const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: [...CHROMIUM_ARGS, '--host-resolver-rules=MAP evil.example 127.0.0.1'] });
      try {
        const base = await live.url;
        const port = new URL(base).port;
        const own = await livePage(base);
        const info = async () => (await fetch(new URL('live/info', base), { headers: own.headers })).json();
        await until(async () => (await info()).sessionId === '9', 'the session');

        // Another site's page: what a script there can do to the live server.
        const page = await browser.newPage();
        // What the page sent to the live server (it sees no answer).
        const sent = [];
        page.on('request', (r) => void (r.url().startsWith(base) && sent.push(`${r.method()} ${new URL(r.url()).pathname}`)));
        await page.goto(other.url);
        const tried = await page.evaluate(async (live) => {
          const outcome = (p) => p.then((r) => (r.type === 'opaque' ? 'opaque' : `${r.status}`), (e) => `rejected: ${e.name}`);
          return {
            // The request the issue names: the browser sends it; its answer is opaque, or
            // withheld (Cross-Origin-Resource-Policy: same-origin).
            noCors: await outcome(fetch(`${live}live/stop`, { method: 'POST', mode: 'no-cors' })),
            noCorsForm: await outcome(fetch(`${live}live/stop`, { method: 'POST', mode: 'no-cors', body: 'stop', headers: { 'content-type': 'text/plain' } })),
            // A custom header needs a preflight the server does not grant.
            guessedToken: await outcome(fetch(`${live}live/stop`, { method: 'POST', headers: { 'x-nettrace-token': 'guess' } })),
            readInfo: await outcome(fetch(`${live}live/info`)),
            readPage: await outcome(fetch(live)),
            readStream: await outcome(fetch(`${live}live/stream`)),
          };
        }, base);
        for (const k of ['noCors', 'noCorsForm']) assert(tried[k] === 'opaque' || tried[k].startsWith('rejected'), `${k}: ${tried[k]}`);
        for (const k of ['guessedToken', 'readInfo', 'readPage', 'readStream']) assert(tried[k].startsWith('rejected'), `${k}: ${tried[k]}`);
        // The no-cors Stops did leave the browser: the server itself refused them (below).
        assert(sent.filter((a) => a === 'POST /live/stop').length >= 2, `sent: ${sent.join(', ')}`);
        console.log(`     another origin's requests: ${sent.join(', ')} → ${JSON.stringify(tried)}`);
        await new Promise((r) => setTimeout(r, 300));
        assert(requests.length === 1, `a StopTracing reached the runtime (${requests.length} requests)`);
        assert((await info()).ended === false, 'the session stopped');
        assert(!/stopping the session/.test(live.stderr()), live.stderr());

        // A rebinding page: same-origin with itself, so it could read whatever it is served.
        const rebound = await page.goto(`http://evil.example:${port}/`);
        assert(rebound.status() === 403, `the page for Host evil.example: ${rebound.status()}`);
        const body = await page.evaluate(() => document.body.textContent);
        assert(!body.includes(own.token) && /answers only http:\/\/127\.0\.0\.1/.test(body), body);
        const fromRebound = await page.evaluate(async () => {
          const status = (path, init) => fetch(path, init).then((r) => r.status, (e) => `rejected: ${e.name}`);
          return [await status('/live/info'), await status('/live/stream'), await status('/live/stop', { method: 'POST' })];
        });
        assert(fromRebound.every((s) => s === 403), `the rebinding page's requests: ${fromRebound}`);
        assert(requests.length === 1 && (await info()).ended === false, 'the session keeps running');
        await page.close();

        // The live page itself: its Stop ends the session.
        const livePageTab = await browser.newPage();
        await livePageTab.goto(base);
        await livePageTab.waitForSelector('body[data-live="running"]', { timeout: 30_000 });
        await livePageTab.click('[data-role="stop"]');
        await livePageTab.waitForSelector('body[data-live="ended"]', { timeout: 30_000 });
        assert(requests.length === 2 && requests[1].subarray(16, 18).toString('hex') === '0201', 'the page\'s Stop sent StopTracing');
        const href = await livePageTab.getAttribute('[data-role="download"]', 'href');
        const downloaded = Buffer.from(await (await fetch(new URL(href, base))).arrayBuffer());
        assert(downloaded.equals(trace), 'the page\'s download link serves the session');
        await livePageTab.close();
      } finally {
        await browser.close();
        await other.close();
        await quit(live);
      }
    });
  });
}
