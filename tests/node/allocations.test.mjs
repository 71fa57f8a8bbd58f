// Allocation profiles through the package API (wasm) and the npm CLI: `allocations` and the
// alloc-bytes / alloc-objects weights equal the native tool's output, and on the recordings of
// known allocations (tests/data/dotnet10/MANIFEST.md, net10-allocations*) each call site's
// known bytes lie in the interval the API returns. A GC/AllocationTick trace keeps TraceEvent's
// amounts under the same names.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { openAsBlob } from 'node:fs';
import { join } from 'node:path';
import { root, runNative, testdata } from './helpers.mjs';

const { openTrace } = await import(join(root, 'dist/index.js'));
const bin = join(root, 'dist/bin/nettrace-analyzer.mjs');
const KNOWN = ['dotnet10/net10-allocations.nettrace', 'dotnet10/net10-allocations-nettrace.nettrace'];
const TICKS = 'dotnet10/net10-gc-verbose.nettrace';
// The scenario's call sites: objects × size (MANIFEST, "What the program does").
const SITES = [
  ['MakePoints', 4000000, 40],
  ['MakeSmallSamples', 104000, 984],
  ['MakeLargeSamples', 2000, 100024],
  ['MakeStrings', 500000, 224],
  ['MakeNodes', 300000, 32],
];

const COLUMNS = ['frame', 'parent', 'depth', 'start', 'end', 'self', 'count'];
const asNativeJson = (g) => ({ unit: g.unit, total: g.total, frames: g.frameNames, ...Object.fromEntries(COLUMNS.map((k) => [k, Array.from(g[k])])) });
const withoutDetails = (g) => {
  const { frameDetails: _, ...rest } = g;
  return rest;
};

test('allocations: the API equals the native tool, and the known bytes lie in its intervals', async () => {
  for (const name of [...KNOWN, TICKS]) {
    const path = join(testdata, name);
    const trace = await openTrace(await openAsBlob(path));
    try {
      for (const format of ['json', 'csv']) {
        const r = runNative('allocations', path, ['--format', format]);
        assert.equal(r.status, 0, r.stderr);
        const mine = await trace.eventView('allocations', format);
        assert.equal(format === 'json' ? mine + '\n' : mine, r.stdout.toString('utf8'), `${name} ${format}`);
      }
      const view = await trace.allocations();
      for (const [weight, extra] of [['alloc-bytes', {}], ['alloc-objects', {}], ['alloc-bytes', { typeAsRoot: true }]]) {
        const g = await trace.flameGraph({ weight, ...extra });
        const args = ['--weight', weight, ...(extra.typeAsRoot ? ['--type-as-root'] : [])];
        assert.deepEqual(asNativeJson(g), withoutDetails(JSON.parse(runNative('flame', path, args).stdout)), `${name} ${args}`);
      }
      const top = await trace.topFunctions({ weight: 'alloc-bytes' }, 1000);
      if (name === TICKS) {
        assert.equal(view.source, 'GC/AllocationTick');
        assert.equal(view.total.objects, null);
        const bytes = await trace.flameGraph({ event: 'GC/AllocationTick', weight: 'bytes' });
        assert.equal(top.total, bytes.total);
        assert.equal(view.total.bytes, bytes.total);
        continue;
      }
      assert.equal(view.source, 'AllocationSampled');
      assert.equal(top.unit, 'bytes');
      for (const [method, objects, size] of SITES) {
        const row = view.functions.find((f) => f.name === `TraceScenarios!TraceScenarios.AllocationScenario.${method}`);
        assert.ok(row, `${name} ${method}`);
        const known = objects * size;
        const where = `${name} ${method}: ${row.bytes} [${row.bytesLow}, ${row.bytesHigh}] vs ${known}`;
        assert.ok(row.bytesLow <= known && known <= row.bytesHigh, where);
        assert.ok(row.bytesLow <= row.bytes && row.bytes <= row.bytesHigh, where);
        // The alloc-bytes weight gives the call site the view's estimate.
        const fn = top.functions.find((f) => f.name === row.name);
        assert.ok(fn && Math.abs(fn.inclusive - row.bytes) <= 1, where);
      }
      for (const t of view.types) {
        const fn = top.functions.find((f) => f.name === `Type ${t.type}`);
        assert.ok(fn && Math.abs(fn.inclusive - t.bytes) <= 1, `${name} Type ${t.type}`);
      }
    } finally {
      trace.close();
    }
  }
});

test('allocations: the npm CLI prints what the native tool prints', () => {
  const path = join(testdata, KNOWN[0]);
  for (const args of [['allocations'], ['allocations', '--format', 'csv'], ['top', '--weight', 'alloc-objects']]) {
    const npm = spawnSync(process.execPath, [bin, args[0], path, ...args.slice(1)], { maxBuffer: 1 << 28 });
    assert.equal(npm.status, 0, npm.stderr.toString());
    assert.equal(npm.stdout.toString('utf8'), runNative(args[0], path, args.slice(1)).stdout.toString('utf8'), args.join(' '));
  }
});
