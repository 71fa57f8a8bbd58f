// `nettrace-analyzer live` keeps a session's bytes in a file, not in memory: a
// fake-runtime session of the largest committed trace (HeartRateMonitor, 29.6 MB) grows the
// server's JS memory (heap + ArrayBuffers, after a GC, measured in the server process by
// memory_probe.mjs) by far less than the session, while a page reading /live/stream as it
// arrives, a page opening after the end, a range re-read, the download and the -o file all
// get the bytes sent, byte for byte; the private spool directory is gone at exit.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { root, testdata } from './helpers.mjs';
import { livePage, sessionOk, withFakeRuntime } from './fake_runtime.mjs';
// The tools write a size as the package's helper does (web/src/ui/units.ts; the native FormatBytes too).
const { formatBytes } = await import(join(root, 'dist/ui/units.js'));

const cli = join(root, 'dist/bin/nettrace-analyzer.mjs');
const probe = join(root, 'tests/node/memory_probe.mjs');
const trace = readFileSync(join(testdata, 'HeartRateMonitor.10068.nettrace'));

/** Sends the session's first 64 KiB, the rest when `release()` is called (honouring the
 *  socket's backpressure), and ends the stream on StopTracing. */
function heldSession() {
  let stream = null;
  let release;
  const released = new Promise((r) => (release = r));
  const answer = (req, socket) => {
    if (req[16] === 0x02 && req[17] === 0x01) {
      socket.end(sessionOk(42));
      stream.end();
      return;
    }
    stream = socket;
    socket.write(sessionOk(42));
    socket.write(trace.subarray(0, 65536));
    void released.then(async () => {
      for (let at = 65536; at < trace.length; at += 65536) {
        if (!socket.write(trace.subarray(at, Math.min(trace.length, at + 65536)))) await new Promise((r) => socket.once('drain', r));
      }
    });
  };
  return { answer, release: () => release() };
}

async function until(condition, what, ms = 60000) {
  const end = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

// The npm CLI under the memory probe, in TMPDIR `dir`: its stderr so far, its exit code (a promise), and
// `memory()`, which asks the probe (SIGUSR2) for one more measurement and returns it.
function spawnProbed(args, dir) {
  const child = spawn(process.execPath, ['--expose-gc', '--import', probe, cli, ...args], { env: { ...process.env, TMPDIR: dir } });
  const run = { child, stderr: '' };
  child.stderr.on('data', (d) => (run.stderr += d));
  run.exited = new Promise((resolve) => child.on('close', resolve));
  const lines = () => run.stderr.match(/^memory (.*)$/gm) ?? [];
  run.memory = async () => {
    const seen = lines().length;
    child.kill('SIGUSR2');
    await until(() => lines().length > seen, 'the memory line');
    return JSON.parse(lines().at(-1).slice('memory '.length));
  };
  return run;
}

test('live: a 29.6 MB session leaves the server\'s memory bounded; every reader gets the bytes sent', { timeout: 180000 }, async (t) => {
  const session = heldSession();
  await withFakeRuntime(session.answer, async (dir) => {
    const out = join(dir, 'live.nettrace');
    const run = spawnProbed(['live', '--pid', String(process.pid), '-o', out, '--port', '0'], dir);
    const { child, exited, memory } = run;
    try {
      await until(() => /serving http/.test(run.stderr), 'the server');
      const base = /serving (http:\/\/127\.0\.0\.1:\d+\/)/.exec(run.stderr)[1];
      const own = await livePage(base);
      const get = (path, init = {}) => fetch(new URL(path, base), { ...init, headers: { ...own.headers, ...init.headers } });
      const info = async () => (await get('live/info')).json();
      await until(async () => (await info()).bytes === 65536, 'the first bytes');
      const spools = readdirSync(dir).filter((f) => f.startsWith('nettrace-live-'));
      assert.equal(spools.length, 1, 'one private spool directory in TMPDIR');
      const before = await memory();

      // A page following the session from its start, reading as the bytes arrive.
      const following = get('live/stream').then(async (r) => {
        assert.equal(r.headers.get('accept-ranges'), 'bytes');
        return Buffer.from(await r.arrayBuffer());
      });
      session.release();
      await until(async () => (await info()).bytes === trace.length, 'the whole session', 120000);
      assert.equal((await own.stop()).status, 202);
      await until(() => /session ended/.test(run.stderr), 'the end line', 120000);
      const served = await following;
      assert.ok(served.equals(trace), `the following page got ${served.length} bytes of ${trace.length}`);

      const after = await memory();
      const grew = (k) => after[k] - before[k];
      const jsGrowth = grew('heapUsed') + grew('arrayBuffers');
      t.diagnostic(`session ${trace.length} B; growth: heapUsed ${grew('heapUsed')} B, arrayBuffers ${grew('arrayBuffers')} B, external ${grew('external')} B, rss ${grew('rss')} B`);
      // The bound: a tenth of the session (the old server kept it twice: 2x the session).
      assert.ok(jsGrowth < trace.length / 10, `JS memory grew by ${jsGrowth} B for a session of ${trace.length} B`);

      // A page that opens after the end, a range re-read (event details), the download, -o.
      assert.ok(Buffer.from(await (await get('live/stream')).arrayBuffer()).equals(trace));
      const range = await get('live/stream', { headers: { range: 'bytes=1000000-1099999' } });
      assert.equal(range.status, 206);
      assert.equal(range.headers.get('content-range'), `bytes 1000000-1099999/${trace.length}`);
      assert.ok(Buffer.from(await range.arrayBuffer()).equals(trace.subarray(1000000, 1100000)));
      const beyond = await get('live/stream', { headers: { range: `bytes=${trace.length}-${trace.length + 10}` } });
      assert.equal(beyond.status, 416);
      await beyond.arrayBuffer();
      const download = await get('live/trace.nettrace');
      assert.equal(Number(download.headers.get('content-length')), trace.length);
      assert.ok(Buffer.from(await download.arrayBuffer()).equals(trace));
      assert.ok(readFileSync(out).equals(trace));
      assert.ok(existsSync(join(dir, spools[0])));
      child.kill('SIGINT'); // the session has ended: Ctrl-C quits
    } finally {
      if (child.exitCode === null && child.signalCode === null && !/nettrace-analyzer: session ended/.test(run.stderr)) child.kill('SIGKILL');
    }
    assert.equal(await exited, 0, run.stderr);
    assert.deepEqual(readdirSync(dir).filter((f) => f.startsWith('nettrace-live-')), [], 'the spool directory is removed at exit');
  });
});

test('collect -o: a 29.6 MB session is written through to the file, not kept in memory', { timeout: 180000 }, async (t) => {
  const session = heldSession();
  await withFakeRuntime(session.answer, async (dir) => {
    const out = join(dir, 'collect.nettrace');
    const run = spawnProbed(['collect', '--pid', String(process.pid), '-o', out], dir);
    const { child, exited, memory } = run;
    const size = () => (existsSync(out) ? readFileSync(out).length : 0);
    try {
      await until(() => size() === 65536, 'the first bytes in the file');
      const before = await memory();
      session.release();
      await until(() => size() === trace.length, 'the whole session in the file', 120000);
      const after = await memory();
      const grew = (k) => after[k] - before[k];
      const jsGrowth = grew('heapUsed') + grew('arrayBuffers');
      t.diagnostic(`session ${trace.length} B; growth: heapUsed ${grew('heapUsed')} B, arrayBuffers ${grew('arrayBuffers')} B, external ${grew('external')} B, rss ${grew('rss')} B`);
      assert.ok(jsGrowth < trace.length / 10, `JS memory grew by ${jsGrowth} B for a session of ${trace.length} B`);
      child.kill('SIGINT'); // StopTracing: the fake runtime ends the stream
      assert.equal(await exited, 0, run.stderr);
      assert.ok(readFileSync(out).equals(trace));
      assert.match(run.stderr, new RegExp(`wrote ${out.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: \\d+ events, ${formatBytes(trace.length)} \\(${trace.length} bytes\\), 0 dropped`));
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  });
});
