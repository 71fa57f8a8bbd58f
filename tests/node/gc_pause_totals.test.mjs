// One definition of GC pause time, TraceEvent's: the Summary's pauses by generation (the page's
// "GC pause time" tile and table) are TraceEvent's GCStats per generation (runtime.json,
// gcGenerations: complete GCs, TraceGC.PauseDurationMSec summed over the trace's processes),
// and so equal the GC view's totals (`nettrace gc`), on every committed trace with GCs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { root, testdata, runNative, traceFilesUnder } from './helpers.mjs';

const oracleDir = join(root, 'tests/data/oracle');
const traces = new Map(traceFilesUnder(testdata).map((p) => [basename(p), p]));
const withGcs = readdirSync(oracleDir)
  .filter((d) => existsSync(join(oracleDir, d, 'runtime.json')) && traces.has(d))
  .map((d) => ({ name: d, runtime: JSON.parse(readFileSync(join(oracleDir, d, 'runtime.json'), 'utf8')) }))
  .filter(({ runtime }) => runtime.processes.some((p) => Array.isArray(p.gcs) && p.gcs.length));

test('the traces with GCs are compared', () => {
  assert.ok(withGcs.length >= 10, `${withGcs.length} traces`);
});

const micro = (v) => Number(v).toFixed(6);

for (const { name, runtime } of withGcs) {
  test(`summary GC pauses = TraceEvent's GCStats per generation = the GC view's: ${name}`, () => {
    const summary = JSON.parse(runNative('summary', traces.get(name)).stdout.toString('utf8'));
    const gc = JSON.parse(runNative('gc', traces.get(name)).stdout.toString('utf8'));
    const theirs = [0, 1, 2].map((g) => ({ count: 0, total: 0 }));
    const views = [0, 1, 2].map((g) => ({ count: 0, total: 0 }));
    for (const p of runtime.processes.filter((x) => x.hasRuntime && Array.isArray(x.gcGenerations))) {
      for (const { generation, stats } of p.gcGenerations) {
        theirs[generation].count += stats.count;
        theirs[generation].total += Number(stats.totalPauseTimeMSec);
      }
    }
    for (const p of gc.processes) for (const g of p.generations) views[g.generation].count += g.count, views[g.generation].total += g.totalPauseMs;
    // Rule truncated-tail (tests/oracle/gc_jit.mjs): from a trace TraceEvent reads only with
    // ContinueOnError we have GCs after its last event; gc_jit.test.mjs compares those totals.
    const truncated = JSON.parse(readFileSync(join(oracleDir, name, 'meta.json'), 'utf8')).continueOnError === true;
    for (let g = 0; g < 3; g++) {
      const ours = summary.runtime.gc.generations[g];
      if (!truncated) {
        assert.equal(ours.pauses, theirs[g].count, `gen${g} complete GCs`);
        assert.equal(micro(ours.totalPauseMs), micro(theirs[g].total), `gen${g} pause total`);
      }
      assert.equal(ours.pauses, views[g].count, `gen${g}: the GC view's count`);
      assert.equal(micro(ours.totalPauseMs), micro(views[g].total), `gen${g}: the GC view's total`);
    }
  });
}
