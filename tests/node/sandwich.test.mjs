// trace.sandwich(query, functionName) through the package API (wasm, typed columns) equals
// `nettrace sandwich FILE FUNCTION` (native, JSON): for every complete corpus trace with
// stacks, the sandwich of its three heaviest functions, inverted and per-thread selections
// included, and of a function that is not in the trace.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, openAsBlob, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { corpusTraces, root, runNative } from './helpers.mjs';

const { openTrace } = await import(join(root, 'dist/index.js'));
const complete = corpusTraces().filter((t) => !t.truncated && runNative('summary', t.path).status === 0);
const COLUMNS = ['frame', 'parent', 'depth', 'start', 'end', 'self', 'count'];

/** A FlameGraphData in the native JSON's shape (typed arrays → arrays, frameNames → frames). */
const asNativeJson = (g) => ({
  unit: g.unit,
  total: g.total,
  frames: g.frameNames,
  ...(g.frameDetails ? { frameDetails: g.frameDetails } : {}),
  ...Object.fromEntries(COLUMNS.map((k) => [k, Array.from(g[k])])),
});

test('sandwich equals the native tool', async () => {
  let compared = 0;
  for (const t of complete) {
    const trace = await openTrace(await openAsBlob(t.path));
    try {
      const top = await trace.topFunctions({}, 3);
      const names = [...top.functions.map((f) => f.name), 'No.Such.Function'];
      for (const name of names) {
        for (const [query, flags] of [[{}, []], [{ inverted: true }, ['--inverted']], [{ groupByThread: true }, ['--by-thread']]]) {
          const s = await trace.sandwich(query, name);
          const r = runNative('sandwich', t.path, [name, ...flags]);
          assert.equal(r.status, 0, r.stderr);
          const n = JSON.parse(r.stdout);
          assert.equal(s.function, n.function);
          assert.ok(s.callers.frame instanceof Uint32Array && s.callees.start instanceof Float64Array);
          assert.deepEqual(asNativeJson(s.callers), n.callers, `${t.name} ${name} callers ${flags}`);
          assert.deepEqual(asNativeJson(s.callees), n.callees, `${t.name} ${name} callees ${flags}`);
          compared++;
        }
      }
      const missing = await trace.sandwich({}, 'No.Such.Function');
      assert.equal(missing.callers.total, 0);
      assert.equal(missing.callees.frame.length, 1);
    } finally {
      trace.close();
    }
  }
  assert.ok(compared > 0);
});

// Frame details (a JIT'd method's optimization level) exist in Linux-profiler traces only:
// the typed columns carry them as the native JSON does, in the flame graph and the sandwich.
test('flame graph and sandwich columns carry frame details as the native JSON does', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'frame-details-'));
  try {
    const path = join(dir, 'universal.nettrace');
    assert.equal(runNative('write-sample-universal', path).status, 0);
    const trace = await openTrace(await openAsBlob(path));
    try {
      const g = await trace.flameGraph({ event: 'cpu' });
      const n = JSON.parse(runNative('flame', path, ['--event', 'cpu']).stdout);
      assert.ok(n.frameDetails?.some((d) => d !== ''), 'the sample has frames with details');
      assert.deepEqual(asNativeJson(g), n);
      const top = JSON.parse(runNative('top', path, ['--event', 'cpu', '-n', '1']).stdout).functions[0].name;
      const s = await trace.sandwich({ event: 'cpu' }, top);
      const ns = JSON.parse(runNative('sandwich', path, [top, '--event', 'cpu']).stdout);
      assert.deepEqual(asNativeJson(s.callers), ns.callers);
      assert.deepEqual(asNativeJson(s.callees), ns.callees);
    } finally {
      trace.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
