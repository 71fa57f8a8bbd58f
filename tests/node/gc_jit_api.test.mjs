// GC and JIT statistics through the wasm engine (JS API `trace.gc()`, `trace.jit()`,
// `trace.runtimeStatsText()`) and the npm CLI (`nettrace-analyzer gc|jit`) equal the native
// CLI's output byte for byte, JSON and CSV, on every committed trace.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, openAsBlob, readdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { corpusTraces, root, runNative, testdata } from './helpers.mjs';

const { openTrace } = await import(join(root, 'dist/index.js'));
const bin = join(root, 'dist/bin/nettrace-analyzer.mjs');
// The corpus and the .NET 10 traces (tests/data/dotnet10).
const dotnet10 = join(testdata, 'dotnet10');
const traces = [
  ...corpusTraces(),
  ...(existsSync(dotnet10) ? readdirSync(dotnet10).filter((f) => /\.(nettrace|netperf)$/.test(f)).sort() : []).map((f) => ({
    name: `dotnet10/${f}`,
    path: join(dotnet10, f),
  })),
];

for (const t of traces) {
  test(`gc and jit, wasm and npm CLI equal the native CLI: ${t.name}`, async () => {
    const trace = await openTrace(await openAsBlob(t.path), { keepPartial: true });
    try {
      for (const kind of ['gc', 'jit']) {
        for (const format of ['json', 'csv']) {
          const native = runNative(kind, t.path, ['--format', format]).stdout.toString('utf8');
          const wasm = await trace.runtimeStatsText(kind, format);
          assert.equal(wasm + (format === 'json' ? '\n' : ''), native, `${kind} ${format} (wasm)`);
          const npm = spawnSync(process.execPath, [bin, kind, t.path, '--format', format], { maxBuffer: 256 * 1024 * 1024 });
          assert.equal(npm.stdout.toString('utf8'), native, `${kind} ${format} (npm CLI)`);
        }
        const typed = kind === 'gc' ? await trace.gc() : await trace.jit();
        assert.deepEqual(typed, JSON.parse(runNative(kind, t.path).stdout.toString('utf8')));
      }
    } finally {
      trace.close();
    }
  });
}

test('the corpus has GCs and jitted methods to compare', async () => {
  let gcs = 0, methods = 0;
  for (const t of traces) {
    gcs += JSON.parse(runNative('gc', t.path).stdout.toString('utf8')).processes.reduce((n, p) => n + p.gcs.length, 0);
    methods += JSON.parse(runNative('jit', t.path).stdout.toString('utf8')).processes.reduce((n, p) => n + p.methods.length, 0);
  }
  assert.equal(gcs, 1006);  // 1,005 in TraceEvent's runtime.json files, plus the truncated trace's last (rule truncated-tail)
  assert.equal(methods, 693);  // 204, and net10-bgc-waits-mcj's 489 (427 on the multicore-JIT thread)
});
