// `nettrace-analyzer live` (web/src/live/live_server.ts) against a fake runtime (no dotnet):
// the session's bytes reach a page's /live/stream while it runs, exactly as the runtime sent
// them; the page's Stop sends StopTracing; the download and the -o file are those bytes too.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { root, testdata } from './helpers.mjs';
import { livePage, startLive, stopAware, until, withFakeRuntime } from './fake_runtime.mjs';
// The tools write a size as the package's helper does (web/src/ui/units.ts; the native FormatBytes too).
const { formatBytes } = await import(join(root, 'dist/ui/units.js'));

const trace = readFileSync(join(testdata, 'dotnet10/net10-gc-verbose.nettrace'));

test('live: the stream served equals what the runtime sent; Stop, download and -o give the same file', async () => {
  await withFakeRuntime(stopAware(trace, 300000, 42), async (dir, requests) => {
    const out = join(dir, 'live.nettrace');
    const live = startLive(dir, ['--pid', String(process.pid), '--profile', 'gc-verbose', '-o', out, '--port', '0']);
    try {
      const base = await live.url;
      // The page and its scripts come from the package; nothing outside it.
      const page = await fetch(base);
      assert.equal(page.status, 200);
      assert.match(await page.text(), /<nettrace-analyzer>/);
      assert.equal((await fetch(new URL('analyzer/live_controls.js', base))).status, 200);
      assert.equal((await fetch(new URL('engine/engine_worker.js', base))).status, 200);
      assert.equal((await fetch(new URL('engine/file_reader_worker.js', base))).status, 200);
      assert.equal((await fetch(new URL('nettrace_wasm.wasm', base))).headers.get('content-type'), 'application/wasm');
      assert.equal((await fetch(new URL('%2e%2e/package.json', base))).status, 404);
      const own = await livePage(base);
      const get = (path, init = {}) => fetch(new URL(path, base), { ...init, headers: { ...own.headers, ...init.headers } });
      assert.equal((await get('live/trace.nettrace')).status, 409, 'no download while it runs');

      await until(async () => (await (await get('live/info')).json()).sessionId === '42', 'the session');
      const stream = await fetch(new URL(`live/stream?token=${own.token}`, base));
      assert.equal(stream.headers.get('content-length'), null);
      const reader = stream.body.getReader();
      const received = [];
      let bytes = 0;
      // While the session runs (the runtime holds the rest until StopTracing), the page has
      // the first part already.
      while (bytes < 300000) {
        const { value, done } = await reader.read();
        assert.ok(!done, 'the stream ended before Stop');
        received.push(value);
        bytes += value.length;
      }
      assert.equal(bytes, 300000);
      assert.equal(requests.length, 1, 'no StopTracing yet');
      const stop = await own.stop();
      assert.equal(stop.status, 202);
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        received.push(value);
      }
      const served = Buffer.concat(received);
      assert.ok(served.equals(trace), `served ${served.length} bytes of ${trace.length}`);
      assert.equal(requests[1].subarray(16, 18).toString('hex'), '0201', 'the second request is StopTracing');

      await until(() => /session ended/.test(live.stderr()), 'the end line');
      const download = await fetch(new URL(`live/trace.nettrace?token=${own.token}`, base));
      assert.equal(download.status, 200);
      assert.match(download.headers.get('content-disposition'), /attachment; filename="pid-\d+-live\.nettrace"/);
      assert.ok(Buffer.from(await download.arrayBuffer()).equals(trace));
      // A page that opens after the end gets the whole session too.
      assert.ok(Buffer.from(await (await get('live/stream')).arrayBuffer()).equals(trace));
      assert.ok(readFileSync(out).equals(trace));
      const events = (await (await get('live/info')).json()).events;
      assert.match(live.stderr(), new RegExp(`session ended: ${events} events, ${formatBytes(trace.length)} \\(${trace.length} bytes\\), 0 dropped`));
    } finally {
      live.child.kill('SIGINT');
    }
    assert.equal(await live.exited, 0, live.stderr());
  });
});

test('live: usage without a process; an unknown process exits 1 with the message', async () => {
  await withFakeRuntime(() => {}, async (dir) => {
    const usage = startLive(dir, ['--port', '0']);
    assert.equal(await usage.exited, 2);
    assert.match(usage.stderr(), /^usage: nettrace-analyzer live \(--pid N \| --diagnostic-port PATH\)/);
    const missing = startLive(dir, ['--pid', '999999999', '--port', '0']);
    assert.equal(await missing.exited, 1);
    assert.match(missing.stderr(), /no process with pid 999999999\n$/);
  });
});
