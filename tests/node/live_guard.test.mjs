// Who `nettrace-analyzer live` answers (web/src/live/local_guard.ts), with real HTTP requests
// against a fake runtime (no dotnet): a request for another Host (DNS rebinding) is refused,
// whatever it asks; a Stop from another origin, or without the session's token, is refused
// and the session keeps running; the session's data needs the token; the page's own Stop
// works. And the static server of `npm start` (scripts/serve.mjs) answers only its own Host
// and Origin.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testdata } from './helpers.mjs';
import { livePage, startLive, stopAware, until, withFakeRuntime } from './fake_runtime.mjs';
import { startServer } from '../../scripts/serve.mjs';

const trace = readFileSync(join(testdata, 'dotnet10/net10-gc-verbose.nettrace'));

/** A request with exactly these headers (fetch() sets Host itself): {status, body}. */
function raw(base, path, { method = 'GET', headers = {} } = {}) {
  const url = new URL(path, base);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path: url.pathname + url.search, method, headers }, (res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode, body, headers: res.headers }));
    });
    req.on('error', reject);
    req.end();
  });
}

test('live: another Host, another origin or no token is refused; the session keeps running; the page\'s Stop works', async () => {
  await withFakeRuntime(stopAware(trace, 65536, 42), async (dir, requests) => {
    const live = startLive(dir, ['--pid', String(process.pid), '--port', '0']);
    try {
      const base = await live.url;
      const port = new URL(base).port;
      const own = await livePage(base);
      const info = async () => JSON.parse((await raw(base, 'live/info', { headers: { host: `127.0.0.1:${port}`, ...own.headers } })).body);
      await until(async () => (await info()).sessionId === '42', 'the session');

      // DNS rebinding: the browser sends the attacker's host name. Nothing is served to it,
      // not the page (its token), not the session's data, not Stop, even with the token.
      const rebound = { host: `evil.example:${port}` };
      for (const [path, method] of [['/', 'GET'], ['live/info', 'GET'], ['live/stream', 'GET'], ['live/trace.nettrace', 'GET'], ['analyzer/live_controls.js', 'GET'], ['live/stop', 'POST']]) {
        const r = await raw(base, path, { method, headers: { ...rebound, ...own.headers, origin: `http://evil.example:${port}` } });
        assert.equal(r.status, 403, `${method} ${path} for Host evil.example`);
        assert.match(r.body, new RegExp(`this server answers only http://127\\.0\\.0\\.1:${port}/`));
        assert.doesNotMatch(r.body, new RegExp(own.token));
      }
      for (const host of [`127.0.0.1:${Number(port) + 1}`, '127.0.0.1', `localhost.evil.example:${port}`]) {
        assert.equal((await raw(base, '/', { headers: { host } })).status, 403, `Host ${host}`);
      }
      // No Host at all: Node's server refuses it before it reaches ours (400).
      const hostless = await new Promise((resolve) => {
        const req = request({ host: '127.0.0.1', port, path: '/', setHost: false }, (res) => resolve(res.statusCode));
        req.end();
      });
      assert.equal(hostless, 400);
      // localhost names this server too.
      assert.equal((await raw(base, '/', { headers: { host: `localhost:${port}` } })).status, 200);

      // Another site's page: a no-cors POST (no custom header, its own Origin) is refused; so
      // is one that somehow had the token. The runtime got no StopTracing.
      const evil = 'http://evil.example';
      const stops = [
        { origin: evil },
        { origin: evil, ...own.headers },
        { origin: 'null', ...own.headers },
        { origin: `http://127.0.0.1:${Number(port) + 1}`, ...own.headers }, // another local server
        {}, // no Origin (not a browser's page), no token
        own.headers, // the token but no Origin
        { origin: own.origin }, // the page's origin without the token
        { origin: own.origin, 'x-nettrace-token': own.token.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')) }, // a wrong token
      ];
      for (const headers of stops) {
        const r = await raw(base, 'live/stop', { method: 'POST', headers: { host: `127.0.0.1:${port}`, 'content-type': 'text/plain', ...headers } });
        assert.equal(r.status, 403, `Stop with ${JSON.stringify(headers)}: ${r.body}`);
      }
      // Reading the session's data from another origin, or without the token.
      for (const [path, headers] of [['live/info', { origin: evil, ...own.headers }], ['live/info', {}], ['live/stream', {}], ['live/stream?token=wrong', {}], ['live/trace.nettrace', {}]]) {
        const r = await raw(base, path, { headers: { host: `127.0.0.1:${port}`, ...headers } });
        assert.equal(r.status, 403, `GET ${path} with ${JSON.stringify(headers)}`);
      }
      // A GET cannot stop it either.
      assert.equal((await raw(base, 'live/stop', { headers: { host: `127.0.0.1:${port}`, ...own.headers } })).status, 403);
      assert.equal((await raw(base, 'live/stop', { headers: { host: `127.0.0.1:${port}`, origin: own.origin, ...own.headers } })).status, 405);
      await new Promise((r) => setTimeout(r, 200));
      assert.equal(requests.length, 1, 'no StopTracing reached the runtime');
      const running = await info();
      assert.equal(running.ended, false, 'the session keeps running');
      assert.match(live.stderr(), /session 42 on pid/);
      assert.doesNotMatch(live.stderr(), /stopping the session/);

      // Every answer forbids framing (a framed page's Stop could be clicked through it).
      const page = await raw(base, '/', { headers: { host: `127.0.0.1:${port}` } });
      assert.equal(page.headers['x-frame-options'], 'DENY');
      assert.match(page.headers['content-security-policy'], /frame-ancestors 'none'/);
      assert.equal(page.headers['cross-origin-resource-policy'], 'same-origin');

      // The page's own Stop, with its origin and token.
      const stop = await own.stop();
      assert.equal(stop.status, 202);
      await until(() => /session ended/.test(live.stderr()), 'the end line');
      assert.equal(requests[1].subarray(16, 18).toString('hex'), '0201', 'the page\'s Stop sent StopTracing');
      const download = await fetch(new URL(`live/trace.nettrace?token=${own.token}`, base));
      assert.ok(Buffer.from(await download.arrayBuffer()).equals(trace));
    } finally {
      live.child.kill('SIGINT');
    }
    assert.equal(await live.exited, 0, live.stderr());
  });
});

test('serve.mjs: another Host or another Origin is refused; its own page is served', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'serve-guard-'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>own</title>');
  const served = await startServer({ root: dir, port: 0 });
  try {
    const port = new URL(served.url).port;
    assert.equal((await raw(served.url, '/', { headers: { host: `127.0.0.1:${port}` } })).status, 200);
    assert.equal((await raw(served.url, '/', { headers: { host: `localhost:${port}` } })).status, 200);
    assert.equal((await raw(served.url, '/', { headers: { host: `127.0.0.1:${port}`, origin: `http://127.0.0.1:${port}` } })).status, 200);
    const rebound = await raw(served.url, '/', { headers: { host: `evil.example:${port}` } });
    assert.equal(rebound.status, 403);
    assert.doesNotMatch(rebound.body, /own/);
    assert.equal((await raw(served.url, '/', { headers: { host: `127.0.0.1:${port}`, origin: 'http://evil.example' } })).status, 403);
  } finally {
    await served.close();
  }
});
