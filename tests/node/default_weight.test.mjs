// One default weight everywhere: for CPU samples, what `dotnet-trace convert` shows (TraceEvent's
// thread time, `traceevent-thread-time`); for other events the engine's "auto" (bytes for
// GC/AllocationTick, else a count). The native CLI (top, flame, export), the npm CLI and the JS
// API's topFunctions({}) give, with no weight named, what they give with that weight named.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { openAsBlob } from 'node:fs';
import { join } from 'node:path';
import { root, runNative, testdata } from './helpers.mjs';

const bin = join(root, 'dist/bin/nettrace-analyzer.mjs');
const { openTrace } = await import(join(root, 'dist/index.js'));
const CPU = ['pyroscope-net5-single-thread.nettrace', 'dotnet10/net10-cpu-async-http.nettrace'];
const native = (command, trace, args) => runNative(command, join(testdata, trace), args).stdout.toString('utf8');
const npm = (command, trace, args) =>
  spawnSync(process.execPath, [bin, command, join(testdata, trace), ...args], { maxBuffer: 1 << 28 }).stdout.toString('utf8');

for (const trace of CPU) {
  test(`CPU samples default to dotnet-trace's thread time in every consumer: ${trace}`, async () => {
    const named = ['--weight', 'traceevent-thread-time'];
    const top = native('top', trace, named);
    assert.equal(JSON.parse(top).unit, 'nanoseconds');
    assert.equal(native('top', trace, []), top, 'native top');
    assert.equal(native('flame', trace, ['--format', 'folded']), native('flame', trace, ['--format', 'folded', ...named]), 'native flame');
    assert.equal(npm('top', trace, []), npm('top', trace, named), 'npm CLI top');
    assert.deepEqual(JSON.parse(npm('top', trace, [])), JSON.parse(top), 'npm CLI top = native top');
    const handle = await openTrace(await openAsBlob(join(testdata, trace)));
    try {
      assert.deepEqual(await handle.topFunctions({}, 20), await handle.topFunctions({ weight: 'traceevent-thread-time' }, 20), 'topFunctions({})');
      assert.deepEqual(await handle.topFunctions({}, 20), JSON.parse(top), 'topFunctions({}) = native top');
    } finally {
      handle.close?.();
    }
  });
}

test('other events keep the engine\'s "auto": allocated bytes for GC/AllocationTick', () => {
  const trace = 'dotnet10/net10-gc-verbose.nettrace';
  const args = ['--event', 'GC/AllocationTick'];
  assert.equal(native('top', trace, args), native('top', trace, [...args, '--weight', 'bytes']));
  assert.equal(JSON.parse(native('top', trace, args)).unit, 'bytes');
});
