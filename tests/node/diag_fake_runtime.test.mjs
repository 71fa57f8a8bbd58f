// `nettrace ps` / `nettrace collect` against a fake runtime: a Unix socket named like this
// Node process's diagnostics port (in a private TMPDIR) that answers with chosen replies —
// the situations a real .NET 10 runtime never produces on demand (an older runtime's
// UnknownCommand, other errors, a stream cut short). Needs no dotnet. Real replies come from
// tests/data/diag/ipc_capture.txt (captured from a .NET 10 runtime by tests/apps/IpcCapture).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nativeTool, root, runNative, testdata } from './helpers.mjs';
import { captured, error, runTool, streamThenEnd, withFakeRuntime } from './fake_runtime.mjs';
// The tools write a size as the package's helper does (web/src/ui/units.ts; the native FormatBytes too).
const { formatBytes } = await import(join(root, 'dist/ui/units.js'));

const trace = readFileSync(join(testdata, 'dotnet10/net10-gc-verbose.nettrace'));

test('an UnknownCommand makes collect retry with the next older CollectTracing, saying what is lost', async () => {
  await withFakeRuntime(
    (req, socket) => (req[17] === 0x05 ? socket.end(error(0x80131385)) : streamThenEnd(socket, 7, trace)),
    async (dir, requests) => {
      const out = join(dir, 'out.nettrace');
      const r = await runTool(dir, ['collect', '--pid', String(process.pid), '--profile', 'gc-collect', '-o', out]);
      assert.equal(r.status, 0, r.stderr);
      assert.match(r.stderr, /the runtime does not know CollectTracing4; retrying with CollectTracing3: custom rundown dropped \(no rundown\)\n/);
      assert.deepEqual(requests.map((q) => q[17]), [0x05, 0x04]);
      assert.equal(requests[1][20 + 8], 0, 'CollectTracing3 requestRundown = false');
      assert.equal(requests[1][20 + 9], 1, 'CollectTracing3 requestStackwalk = true');
      assert.ok(readFileSync(out).equals(trace), 'the file holds exactly the bytes streamed');
      const events = JSON.parse(runNative('summary', out).stdout).eventCount;
      assert.match(r.stderr, new RegExp(`wrote ${out}: ${events} events, ${formatBytes(trace.length)} \\(${trace.length} bytes\\), 0 dropped\\n$`));
    },
  );
});

test('another error is reported by its HRESULT name', async () => {
  await withFakeRuntime(
    (req, socket) => socket.end(error(0x80131384)),
    async (dir) => {
      const r = await runTool(dir, ['collect', '--pid', String(process.pid), '--profile', 'gc-verbose', '-o', join(dir, 'x.nettrace')]);
      assert.equal(r.status, 1);
      assert.equal(r.stderr, 'nettrace: CollectTracing2: the runtime answered BadEncoding (0x80131384)\n');
    },
  );
});

test('a stream cut short keeps every byte received and says where it stopped', async () => {
  const cut = trace.subarray(0, 200000);
  await withFakeRuntime(
    (req, socket) => streamThenEnd(socket, 9, cut),
    async (dir) => {
      const out = join(dir, 'cut.nettrace');
      const r = await runTool(dir, ['collect', '--pid', String(process.pid), '-o', out]);
      assert.equal(r.status, 3, r.stderr);
      assert.match(r.stderr, /nettrace: the stream ended early: truncated at offset \d+ .*; .*cut\.nettrace keeps the \d+ events read before that\n$/);
      assert.ok(readFileSync(out).equals(cut));
    },
  );
});

test('ps falls back from ProcessInfo3 to ProcessInfo2 and lists what the runtime says', async () => {
  await withFakeRuntime(
    (req, socket) => socket.end(req[17] === 0x08 ? error(0x80131385) : captured.runtime_process_info2),
    async (dir, requests) => {
      const r = await runTool(dir, ['ps', '--json']);
      assert.equal(r.status, 0, r.stderr);
      const list = JSON.parse(r.stdout);
      assert.equal(list.length, 1);
      assert.equal(list[0].pid, process.pid);
      assert.equal(list[0].name, 'IpcCapture');
      assert.equal(list[0].runtimeVersion, '10.0.12');
      assert.equal(list[0].os, 'Linux');
      assert.deepEqual(requests.map((q) => q[17]), [0x08, 0x04]);
    },
  );
});

test('Ctrl-C while waiting on --diagnostic-port ends the wait and removes the socket file', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'nettrace-port-'));
  try {
    const port = join(dir, 'port.sock');
    const child = spawn(nativeTool, ['collect', '--diagnostic-port', port, '-o', join(dir, 'x.nettrace')]);
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    while (!stderr.includes('waiting for a runtime')) await new Promise((r) => setTimeout(r, 20));
    assert.ok(existsSync(port));
    child.kill('SIGINT');
    const status = await new Promise((r) => child.on('close', r));
    assert.equal(status, 1);
    assert.match(stderr, /nettrace: interrupted while waiting for a runtime to connect\n$/);
    assert.ok(!existsSync(port), 'the listening socket file is removed');
    assert.ok(!existsSync(join(dir, 'x.nettrace')), 'no output file without a session');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
