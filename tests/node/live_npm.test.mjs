// The npm CLI's `ps` and `collect` (web/src/live: Node sockets, the protocol through the wasm
// engine) against the native tool's, on the same fake runtime (tests/node/fake_runtime.mjs):
// the same requests byte for byte, the same file, the same exit status and the same stderr
// (the tool name aside; the timing figures of the live lines masked). Then the API: a
// session's counts grow while the stream arrives, and aborting the signal sends StopTracing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nativeTool, root, runNative, testdata } from './helpers.mjs';
import { captured, error, ok, runTool, sessionOk, streamThenEnd, withFakeRuntime } from './fake_runtime.mjs';
// The tools write a size as the package's helper does (web/src/ui/units.ts; the native FormatBytes too).
const { formatBytes } = await import(join(root, 'dist/ui/units.js'));

const npmTool = [process.execPath, join(root, 'dist/bin/nettrace-analyzer.mjs')];
const trace = readFileSync(join(testdata, 'dotnet10/net10-gc-verbose.nettrace'));

/** stderr with the tool's name, the elapsed seconds and the rates masked; periodic lines dropped. */
function normalize(stderr, dir) {
  return stderr
    .replaceAll(dir, 'DIR')
    .replace(/^nettrace(-analyzer)?: /gm, 'P: ')
    .replace(/^P: [\d.]+ s {2}events.*\n/gm, '')
    .replace(/^P: end [\d.]+ s {2}(events \d+ {2}[\d.]+ [KMG]?B) {2}events\/s \d+ {2}(dropped \d+)$/gm, 'P: end $1  $2')
    // The usage text names the tool (and is indented to its name).
    .replace(/^usage: nettrace(-analyzer)? collect [^]*$/, 'USAGE');
}

/**
 * Runs the native tool, then the npm one, against fresh fake runtimes answering with
 * `answer`; checks they agree and @returns the npm run with its requests and output file.
 */
async function bothAgree(answer, args, outName) {
  const runs = [];
  for (const tool of [undefined, npmTool]) {
    await withFakeRuntime(answer, async (dir, requests) => {
      const argv = args.map((a) => (a === 'OUT' ? join(dir, outName) : a === 'PID' ? String(process.pid) : a));
      const r = await runTool(dir, argv, tool);
      let file = null;
      try {
        file = readFileSync(join(dir, outName ?? 'none'));
      } catch {}
      runs.push({ ...r, stdout: r.stdout.replaceAll(dir, 'DIR'), stderr: normalize(r.stderr, dir), requests: requests.map((q) => q.toString('hex')), file });
    });
  }
  const [native, npm] = runs;
  assert.equal(npm.status, native.status, `exit status\nnative: ${native.stderr}\nnpm: ${npm.stderr}`);
  assert.equal(npm.stderr, native.stderr);
  assert.equal(npm.stdout, native.stdout);
  assert.deepEqual(npm.requests, native.requests, 'the same requests, byte for byte');
  assert.deepEqual(npm.file, native.file, 'the same output file');
  return { native, npm };
}

test('collect: an UnknownCommand falls back as the native tool does; the same file and lines', async () => {
  const { npm } = await bothAgree(
    (req, socket) => (req[17] === 0x05 ? socket.end(error(0x80131385)) : streamThenEnd(socket, 7, trace)),
    ['collect', '--pid', 'PID', '--profile', 'gc-collect', '-o', 'OUT'],
    'out.nettrace',
  );
  assert.equal(npm.status, 0);
  assert.ok(npm.file.equals(trace));
  assert.match(npm.stderr, /^P: the runtime does not know CollectTracing4; retrying with CollectTracing3: custom rundown dropped \(no rundown\)\n/);
  const events = JSON.parse(runNative('summary', join(testdata, 'dotnet10/net10-gc-verbose.nettrace')).stdout).eventCount;
  assert.match(npm.stderr, new RegExp(`P: wrote DIR/out.nettrace: ${events} events, ${formatBytes(trace.length)} \\(${trace.length} bytes\\), 0 dropped\\n$`));
});

test('collect: a refusal is reported by its HRESULT name, no file', async () => {
  const { npm } = await bothAgree((req, socket) => socket.end(error(0x80131384)), ['collect', '--pid', 'PID', '--profile', 'gc-verbose', '-o', 'OUT'], 'x.nettrace');
  assert.equal(npm.status, 1);
  assert.equal(npm.stderr, 'P: CollectTracing2: the runtime answered BadEncoding (0x80131384)\n');
  assert.equal(npm.file, null);
});

test('collect: a stream cut short keeps every byte and says where it stopped (exit 3)', async () => {
  const cut = trace.subarray(0, 200000);
  const { npm } = await bothAgree((req, socket) => streamThenEnd(socket, 9, cut), ['collect', '--pid', 'PID', '-o', 'OUT'], 'cut.nettrace');
  assert.equal(npm.status, 3);
  assert.ok(npm.file.equals(cut));
  assert.match(npm.stderr, /P: the stream ended early: truncated at offset \d+ \(0x[0-9a-f]+\): .*; DIR\/cut\.nettrace keeps the \d+ events read before that\n$/);
});

// A runtime that streams the first part, then waits for StopTracing on a second connection
// before it sends the rest (the rundown) and ends the stream.
function stopAware(first) {
  let stream = null;
  return (req, socket) => {
    if (req[16] === 0x02 && req[17] === 0x01) {
      socket.end(sessionOk(42));
      stream.end(trace.subarray(first));
    } else {
      stream = socket;
      socket.write(sessionOk(42));
      socket.write(trace.subarray(0, first));
    }
  };
}

test('collect --duration: StopTracing on a second connection, then the rest of the stream', async () => {
  const { npm } = await bothAgree(stopAware(300000), ['collect', '--pid', 'PID', '--providers', 'Microsoft-Windows-DotNETRuntime:0x1:5', '--duration', '300ms', '-o', 'OUT'], 'd.nettrace');
  assert.equal(npm.status, 0);
  assert.ok(npm.file.equals(trace));
  assert.equal(npm.requests.length, 2);
  assert.equal(npm.requests[1].slice(32, 36), '0201', 'the second request is StopTracing');
  assert.match(npm.stderr, /P: stopping the session \(StopTracing\); waiting for the rundown\n/);
});

test('collect: usage, a bad duration, no such process', async () => {
  for (const args of [['collect', '--pid', 'PID'], ['collect', '--pid', 'PID', '--duration', '5x', '-o', 'OUT'], ['collect', '--pid', '999999999', '-o', 'OUT']]) {
    const { npm } = await bothAgree(() => {}, args, 'none.nettrace');
    assert.ok(npm.status === 1 || npm.status === 2, npm.stderr);
  }
});

test('ps and ps --json print what the native tool prints (ProcessInfo3 → 2 fallback)', async () => {
  for (const args of [['ps'], ['ps', '--json']]) {
    const { npm } = await bothAgree((req, socket) => socket.end(req[17] === 0x08 ? error(0x80131385) : captured.runtime_process_info2), args);
    assert.equal(npm.status, 0);
    assert.match(npm.stdout, /IpcCapture/);
  }
});

test('API: collect() counts grow while the stream arrives; aborting sends StopTracing; the trace finishes', async () => {
  const { collect } = await import(join(root, 'dist/live/index.js'));
  let stream = null;
  let stopped = 0;
  const grown = [];
  await withFakeRuntime(
    (req, socket) => {
      if (req[17] === 0x01) {
        stopped++;
        socket.end(sessionOk(5));
        stream.end(trace.subarray(300000));
        return;
      }
      stream = socket;
      socket.write(sessionOk(5));
    },
    async (dir) => {
      const saved = process.env.TMPDIR;
      process.env.TMPDIR = dir;
      try {
        const controller = new AbortController();
        const chunks = [];
        const live = await collect({ pid: process.pid, profile: 'gc-verbose', signal: controller.signal, onChunk: (b) => chunks.push(Buffer.from(b)) });
        assert.equal(live.sessionId, '5');
        // Feed the stream (333862 bytes) in three steps of 100000 and read the counts after each.
        for (const end of [100000, 200000, 300000]) {
          stream.write(trace.subarray(end - 100000, end));
          while (live.bytes < end) await new Promise((r) => setTimeout(r, 10));
          grown.push(live.eventCount);
          assert.equal(live.summary().eventCount, live.eventCount);
        }
        controller.abort();
        const t = await live.trace;
        assert.equal(stopped, 1);
        assert.equal(t.error, null);
        assert.ok(Buffer.concat(chunks).equals(trace), 'onChunk saw every byte in order');
        const want = JSON.parse(runNative('summary', join(testdata, 'dotnet10/net10-gc-verbose.nettrace')).stdout).eventCount;
        assert.equal(t.eventCount, want);
        assert.equal(live.eventCount, want);
        t.close();
      } finally {
        if (saved === undefined) delete process.env.TMPDIR;
        else process.env.TMPDIR = saved;
      }
    },
  );
  assert.ok(grown[0] > 0 && grown[1] > grown[0] && grown[2] > grown[1], `counts while running: ${grown}`);
});

// Against a real .NET 10 process (tests/apps/TraceScenarios): the npm collect and the native
// collect, both sessions open for the whole run, give the same per-type counts.
const app = join(root, 'build/apps/bin/TraceScenarios/Release/net10.0/TraceScenarios.dll');
const dotnet = spawnSync('dotnet', ['--version']).status === 0;
test('a real process: npm collect and native collect give the same per-type counts', { skip: !dotnet && 'skipped: dotnet not found (the fake-runtime tests above still run)' }, async () => {
  if (!existsSync(app)) assert.equal(spawnSync('dotnet', ['build', join(root, 'tests/apps/TraceScenarios'), '-c', 'Release', '-nologo', '-v', 'q']).status, 0);
  const dir = mkdtempSync(join(tmpdir(), 'nettrace-live-npm-'));
  const env = { ...process.env, TMPDIR: dir };
  const started = (child) => new Promise((resolve, reject) => {
    let err = '';
    child.stderr.on('data', (d) => { err += d; if (/session \d+ on pid/.test(err)) resolve(); });
    child.on('close', (code) => reject(new Error(`the collector exited (${code}) before its session started:\n${err}`)));
  });
  const ended = (child) => new Promise((resolve) => child.on('close', resolve));
  const program = spawn('dotnet', [app, 'run', 'gc,exceptions', '--wait-session'], { env });
  try {
    let out = '';
    let programErr = '';
    program.stdout.on('data', (d) => (out += d));
    program.stderr.on('data', (d) => (programErr += d));
    // Waits for a condition while the program runs: a program that dies (a scenario that
    // throws) fails the test instead of leaving it waiting forever.
    const until = async (what, ready) => {
      while (!ready()) {
        assert.equal(program.exitCode, null, `the program exited (${program.exitCode}) before ${what}:\n${programErr}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    };
    await until('its diagnostic port', () => readdirSync(dir).some((f) => f.startsWith(`dotnet-diagnostic-${program.pid}-`)));
    // The npm session first, without the control source the program waits for; then the
    // native one with it: the scenarios run while both are open.
    const npm = spawn(npmTool[0], [npmTool[1], 'collect', '--pid', String(program.pid), '--profile', 'gc-verbose', '-o', join(dir, 'npm.nettrace')], { env });
    await started(npm);
    const native = spawn(nativeTool, ['collect', '--pid', String(program.pid), '--profile', 'gc-verbose', '--providers', 'TraceScenarios-Control', '-o', join(dir, 'native.nettrace')], { env });
    await started(native);
    await until('scenarios-done', () => out.includes('scenarios-done'));
    const done = [ended(npm), ended(native)];
    npm.kill('SIGINT');
    native.kill('SIGINT');
    assert.deepEqual(await Promise.all(done), [0, 0]);
    const counts = (f) => runNative('counts', join(dir, f)).stdout.toString().split('\n').filter((l) => l && !l.startsWith('TraceScenarios-Control/')).join('\n');
    const ours = counts('npm.nettrace');
    assert.ok(ours.split('\n').length > 5, ours);
    // Two sessions on one process see the same program, but not the same moments: the types
    // whose counts depend on the sessions themselves are compared by presence only, named:
    // ProcessInfo (the runtime writes one per session start it sees), GC/AllocationTick
    // (every ~100 KB allocated, the session machinery's allocations included) and the GC
    // handle events (EventSource and EventPipe create and free handles of their own).
    const timing = /^(Microsoft-DotNETCore-EventPipe\/ProcessInfo|Microsoft-Windows-DotNETRuntime\/GC\/(AllocationTick|SetGCHandle|DestoryGCHandle)), \d+$/;
    const exact = (text) => text.split('\n').map((l) => l.replace(/, \d+$/, (c) => (timing.test(l) ? ', (timing)' : c))).join('\n');
    assert.equal(exact(ours), exact(counts('native.nettrace')));
  } finally {
    program.kill();
    rmSync(dir, { recursive: true, force: true });
  }
});
