// A heap snapshot of a running .NET 10 process (web/src/live/heap_snapshot.ts): the program of
// tests/apps/HeapGraphs, snapshotted through the JS API and through `nettrace-analyzer live`'s
// POST /live/heap-snapshot. Its own types (module HeapGraphs) have the counts and sizes of the
// committed snapshot of the same program, the written file is the bytes served, and the native
// `nettrace heap` reads it as the wasm reader does. Needs dotnet: skipped with one line without.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nativeTool, root, runAsync, testdata } from './helpers.mjs';
import { livePage, startLive } from './fake_runtime.mjs';

const hasDotnet = spawnSync('dotnet', ['--version']).status === 0;
const skip = hasDotnet ? false : 'dotnet not found: the live heap snapshot is not taken (the committed snapshots carry the reader\'s checks)';
const app = join(root, 'build/apps/bin/HeapGraphs/Release/net10.0/HeapGraphs.dll');
const ownTypes = (snapshot) => snapshot.types.filter((t) => t.module.endsWith('HeapGraphs.dll')).map((t) => [t.name, t.count, t.size]).sort();

/** Runs the program in `dir` (its TMPDIR: the diagnostics socket goes there) until "ready PID". */
async function startProgram(dir) {
  if (!existsSync(app)) assert.equal(spawnSync('dotnet', ['build', join(root, 'tests/apps/HeapGraphs'), '-c', 'Release', '-nologo', '-v', 'q']).status, 0, 'dotnet build HeapGraphs');
  const child = spawn('dotnet', [app], { env: { ...process.env, TMPDIR: dir }, stdio: ['pipe', 'pipe', 'inherit'] });
  const pid = await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const m = /^ready (\d+)$/m.exec(out);
      if (m) resolve(Number(m[1]));
    });
    child.on('close', () => reject(new Error(`HeapGraphs exited: ${out}`)));
  });
  return { pid, end: () => child.stdin.end('exit\n') };
}

test('a heap snapshot of a running process: its own types as in the committed snapshot, through the API and the live page', { skip, timeout: 300_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'live-heap-'));
  const program = await startProgram(dir);
  const committed = JSON.parse((await runAsync(nativeTool, ['heap', join(testdata, 'heap', 'heapgraphs-small.nettrace')])).stdout);
  try {
    process.env.TMPDIR = dir; // findDiagnosticSocket looks in this process's TMPDIR
    const { takeHeapSnapshot } = await import(join(root, 'dist/live/index.js'));
    const { openHeap } = await import(join(root, 'dist/index.js'));
    const { bytes, ended } = await takeHeapSnapshot({ pid: program.pid });
    assert.ok(ended, 'the heap dump did not end within the timeout');
    const heap = await openHeap(bytes);
    const snapshot = heap.snapshot();
    heap.close();
    assert.equal(snapshot.source, 'nettrace');
    assert.ok(ownTypes(snapshot).length >= 8, `own types: ${JSON.stringify(ownTypes(snapshot))}`);
    assert.deepEqual(ownTypes(snapshot), ownTypes(committed));

    // The npm CLI: heap-snapshot --pid N -o OUT.
    const cliOut = join(dir, 'cli.nettrace');
    const cli = await new Promise((resolve) => {
      const child = spawn(process.execPath, [join(root, 'dist/bin/nettrace-analyzer.mjs'), 'heap-snapshot', '--pid', String(program.pid), '-o', cliOut], { env: { ...process.env, TMPDIR: dir } });
      let stderr = '';
      child.stderr.on('data', (d) => (stderr += d));
      child.on('close', (status) => resolve({ status, stderr }));
    });
    assert.equal(cli.status, 0, cli.stderr);
    assert.deepEqual(ownTypes(JSON.parse((await runAsync(nativeTool, ['heap', cliOut])).stdout)), ownTypes(committed));

    // The live page's button: the server takes one, answers its bytes and writes them as a file.
    const out = join(dir, 'live.nettrace');
    const live = startLive(dir, ['--pid', String(program.pid), '--providers', 'Microsoft-Windows-DotNETRuntime:0x1:4', '-o', out, '--port', '0']);
    try {
      const base = await live.url;
      const own = await livePage(base);
      const refused = await fetch(new URL('live/heap-snapshot', base), { method: 'POST' });
      assert.equal(refused.status, 403, 'a snapshot without the page\'s token');
      const r = await fetch(new URL('live/heap-snapshot', base), { method: 'POST', headers: { ...own.headers, origin: own.origin } });
      assert.equal(r.status, 200, await r.clone().text());
      const served = Buffer.from(await r.arrayBuffer());
      const file = decodeURIComponent(r.headers.get('x-nettrace-heap-file'));
      assert.equal(file, join(dir, `pid-${program.pid}-heap-1.nettrace`));
      assert.ok(readFileSync(file).equals(served), 'the file written is not the bytes served');
      const native = await runAsync(nativeTool, ['heap', file]);
      assert.equal(native.status, 0, native.stderr);
      assert.deepEqual(ownTypes(JSON.parse(native.stdout)), ownTypes(committed));
      const npm = await runAsync(process.execPath, [join(root, 'dist/bin/nettrace-analyzer.mjs'), 'heap', file]);
      assert.ok(npm.stdout.equals(native.stdout), 'the npm CLI reads the live snapshot as the native one');
      await own.stop();
    } finally {
      // Ctrl-C stops a session still running, and quits once it has ended.
      for (let i = 0; i < 20 && live.child.exitCode === null; i++) {
        live.child.kill('SIGINT');
        await Promise.race([live.exited, new Promise((r) => setTimeout(r, 500))]);
      }
    }
  } finally {
    program.end();
    rmSync(dir, { recursive: true, force: true });
  }
});
