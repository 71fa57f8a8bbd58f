// The A/B stack diff through the npm CLI and the package API (wasm) equals
// `nettrace diff` (native) byte for byte: a trace against itself, two different traces, two
// time ranges of one trace, JSON and folded, with a weight and a thread selection.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { root, runNative, testdata } from './helpers.mjs';

const { openTrace, diffStacks, diffStacksJson } = await import(join(root, 'dist/index.js'));
const bin = join(root, 'dist/bin/nettrace-analyzer.mjs');
const ASYNC = join(testdata, 'dotnet10/net10-cpu-async-http.nettrace');
const SENTRY = join(testdata, 'sentry-net6-profile-with-task.nettrace');
const PYROSCOPE = join(testdata, 'pyroscope-net5-single-thread.nettrace');

const runNpm = (args) => {
  const r = spawnSync(process.execPath, [bin, ...args], { maxBuffer: 256 * 1024 * 1024 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr.toString('utf8') };
};

const CASES = [
  [ASYNC, ASYNC, []],
  [ASYNC, ASYNC, ['--format', 'folded']],
  [ASYNC, ASYNC, ['--a-to', '1500', '--b-from', '1500', '--weight', 'thread-time']],
  [ASYNC, ASYNC, ['--a-to', '1500', '--b-from', '1500', '--format', 'folded', '--by-thread']],
  [SENTRY, ASYNC, ['-n', '25']],
  [SENTRY, ASYNC, ['--weight', 'traceevent-thread-time', '--by-thread']],
  [PYROSCOPE, SENTRY, ['--format', 'folded', '--weight', 'managed-thread-time']],
];

test('npm CLI diff equals the native tool byte for byte', () => {
  for (const [a, b, flags] of CASES) {
    const n = runNative('diff', a, [b, ...flags]);
    assert.equal(n.status, 0, n.stderr);
    assert.ok(n.stdout.length > 100);
    const w = runNpm(['diff', a, b, ...flags]);
    assert.equal(w.status, 0, w.stderr);
    assert.ok(w.stdout.equals(n.stdout), `${a} ${b} ${flags.join(' ')}`);
  }
});

test('diffStacks through the API equals the native JSON', async () => {
  const a = await openTrace(SENTRY);
  const b = await openTrace(ASYNC);
  try {
    const native = runNative('diff', SENTRY, [ASYNC, '--weight', 'thread-time', '--from', '0', '--to', '2500']);
    assert.equal(native.status, 0, native.stderr);
    const options = { query: { weight: 'thread-time', fromMs: 0, toMs: 2500 } };
    assert.equal((await diffStacksJson(a, b, options)) + '\n', native.stdout.toString('utf8'));
    const parsed = await diffStacks(a, b, options);
    assert.deepEqual(parsed, JSON.parse(native.stdout.toString('utf8')));
    assert.equal(parsed.tree.inclusiveA[0], parsed.baseline.total);
    assert.equal(parsed.tree.inclusiveB[0], parsed.comparison.total);
    // A against itself: every delta is zero.
    const same = await diffStacks(b, b);
    assert.ok(same.functions.length > 0);
    assert.ok(same.tree.delta.every((d) => d === 0));
    assert.ok(same.functions.every((f) => f.inclusiveDelta === 0 && f.exclusiveDelta === 0 && f.exclusiveA === f.exclusiveB));
  } finally {
    a.close();
    b.close();
  }
});
