// Each kind of budget (docs/ci.md) passes and fails on committed .NET 10 traces at limits either
// side of the value the views print: the value is taken here from the view's own document
// (`nettrace gc`, `jit`, `exceptions`, `contention`, `threadpool`, `activities`, `flame`,
// `allocations`),
// not from `check`, and `check` must report it and judge max and min around it. The npm CLI
// prints the same verdicts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nativeTool, root, testdata } from './helpers.mjs';

const npmTool = join(root, 'dist/bin/nettrace-analyzer.mjs');
const t = (name) => join(testdata, 'dotnet10', `net10-${name}.nettrace`);
const dir = mkdtempSync(join(tmpdir(), 'verdict-budgets-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
const view = (command, trace, args = []) => {
  const r = spawnSync(nativeTool, [command, trace, ...args], { encoding: 'utf8', maxBuffer: 256 << 20 });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout);
};
const sum = (xs) => xs.reduce((a, b) => a + b, 0);
// The views' nearest-rank percentile (docs/views.md) of pauses in whole nanoseconds.
const nearestRank = (sorted, p) => sorted[Math.min(Math.max(Math.ceil(p * sorted.length - 1e-9), 1), sorted.length) - 1];

function gcValues(trace) {
  const { processes } = view('gc', trace);
  const totals = (k) => sum(processes.map((p) => p.totals[k]));
  const pauses = processes.flatMap((p) => p.gcs.filter((g) => g.isComplete).map((g) => Math.round(g.pauseMs * 1e6))).sort((a, b) => a - b);
  return {
    'gc.count': totals('count'),
    'gc.gen2Count': sum(processes.flatMap((p) => p.generations.filter((g) => g.generation === 2).map((g) => g.count))),
    'gc.pauseP50Ms': nearestRank(pauses, 0.5) / 1e6,
    'gc.pauseP99Ms': nearestRank(pauses, 0.99) / 1e6,
    'gc.pauseMaxMs': pauses.at(-1) / 1e6,
    'gc.pauseTotalMs': totals('totalPauseMs'),
    'gc.pausedPercent': (100 * totals('totalPauseMs')) / totals('processDurationMs'),
    'gc.allocatedMB': totals('totalAllocatedMB'),
    'gc.allocRateMBSec': totals('totalAllocatedMB') / (totals('processDurationMs') / 1000),
  };
}

// Per trace: [budget (metric and argument), the value the views give].
function cases() {
  const bgc = t('bgc-waits-mcj');
  const http = t('cpu-async-http');
  const web = t('web-exceptions');
  const sampled = t('alloc-sampled');
  const gc = gcValues(bgc);
  const contention = view('contention', bgc);
  const exceptions = view('exceptions', web);
  const top = exceptions.types.reduce((a, b) => (b.count > a.count ? b : a));
  const request = view('activities', http).names.find((n) => n.provider === 'System.Net.Http' && n.name === 'Request');
  // The default weight of CPU samples is dotnet-trace's thread time: its total in ns, a budget's in ms.
  const flame = view('flame', http);
  const total = flame.unit === 'nanoseconds' ? flame.total / 1e6 : flame.total;
  const pattern = 'System.Private.CoreLib!System.Threading.*';
  const matched = view('flame', http, ['--include-pats', pattern]).total;
  const threadTime = view('flame', http, ['--weight', 'thread-time', '--include-pats', pattern]).total;
  return [
    [bgc, [
      ...Object.entries(gc).map(([metric, value]) => [{ metric }, value]),
      [{ metric: 'jit.timeMs' }, sum(view('jit', bgc).processes.map((p) => p.totals.totalJitTimeMs))],
      [{ metric: 'contention.waitMs' }, (contention.lock.totalNs + contention.waitHandle.totalNs) / 1e6],
      [{ metric: 'contention.lockWaitMs' }, contention.lock.totalNs / 1e6],
    ]],
    [web, [
      [{ metric: 'exceptions.count' }, exceptions.count],
      [{ metric: 'exceptions.count', type: top.type }, top.count],
    ]],
    // .NET 10's AllocationSampled: the estimate `nettrace allocations` prints.
    [sampled, [[{ metric: 'allocations.sampledBytes' }, view('allocations', sampled).total.bytes]]],
    [http, [
      [{ metric: 'threadpool.starvationCount' }, view('threadpool', http).starvationAdjustments],
      [{ metric: 'activity.p50Ms', activity: 'System.Net.Http/Request' }, request.p50Ms],
      [{ metric: 'activity.p99Ms', activity: 'System.Net.Http/Request' }, request.p99Ms],
      [{ metric: 'activity.maxMs', activity: 'System.Net.Http/Request' }, request.maxMs],
      [{ metric: 'stacks.total' }, total],
      [{ metric: 'stacks.inclusivePercent', pattern }, (100 * matched) / flame.total],
      [{ metric: 'stacks.inclusiveMs', pattern, query: { weight: 'thread-time' } }, threadTime / 1e6],
    ]],
  ];
}

test('every budget kind passes and fails either side of the value its view computes', () => {
  const kinds = new Set();
  for (const [trace, budgets] of cases()) {
    // Per budget: max at the value and just below it, min at the value and just above it.
    const below = (v) => v - Math.max(Math.abs(v) * 1e-6, 1e-6);
    const above = (v) => v + Math.max(Math.abs(v) * 1e-6, 1e-6);
    const at = (v) => v + Math.abs(v) * 1e-12;  // the view's rounding to its printed decimals
    const file = { budgets: budgets.flatMap(([b, v]) => [
      { ...b, max: at(v) }, { ...b, max: below(v) }, { ...b, min: v - Math.abs(v) * 1e-12 }, { ...b, min: above(v) },
    ]) };
    const path = join(dir, 'budgets.json');
    writeFileSync(path, JSON.stringify(file));
    const r = spawnSync(nativeTool, ['check', trace, '--budget', path, '--format', 'json'], { encoding: 'utf8' });
    assert.equal(r.status, 1, r.stderr);  // the "below" and "above" budgets fail
    const { verdicts } = JSON.parse(r.stdout);
    assert.equal(verdicts.length, file.budgets.length);
    budgets.forEach(([b, v], i) => {
      const label = `${b.metric} ${b.type ?? b.activity ?? b.pattern ?? ''} on ${trace}: view ${v}`;
      const four = verdicts.slice(4 * i, 4 * i + 4);
      for (const verdict of four) {
        assert.ok(Math.abs(verdict.value - v) <= Math.abs(v) * 1e-9 + 1e-9, `${label}, check ${verdict.value}`);
      }
      assert.deepEqual(four.map((x) => x.verdict), ['pass', 'fail', 'pass', 'fail'], label);
      kinds.add(b.metric);
    });
    // The npm CLI (the engine in wasm) gives the same verdicts.
    const npm = spawnSync(process.execPath, [npmTool, 'check', trace, '--budget', path, '--format', 'json'], { encoding: 'utf8' });
    assert.equal(npm.status, 1, npm.stderr);
    assert.equal(npm.stdout, r.stdout);
  }
  // Every metric but the relative-only function ones.
  const schema = JSON.parse(spawnSync(nativeTool, ['schema', '--json'], { encoding: 'utf8' }).stdout);
  const all = schema.budgets.metrics.map((m) => m.name).filter((m) => !m.startsWith('functions.'));
  assert.deepEqual([...kinds].sort(), all.sort());
});

test('allocations.sampledBytes is missing, not zero, without AllocationSampled events', () => {
  // GC/AllocationTick's ticks are a biased sample, not the runtime's estimate (docs/allocations.md).
  const ticks = t('gc-verbose');
  assert.equal(view('allocations', ticks).source, 'GC/AllocationTick');
  const path = join(dir, 'sampled.json');
  writeFileSync(path, JSON.stringify({ budgets: [{ metric: 'allocations.sampledBytes', max: 1e12 }] }));
  const r = spawnSync(nativeTool, ['check', ticks, '--budget', path, '--format', 'json'], { encoding: 'utf8' });
  assert.equal(r.status, 1, r.stderr);
  const [verdict] = JSON.parse(r.stdout).verdicts;
  assert.equal(verdict.verdict, 'missing');
  assert.match(verdict.detail, /no AllocationSampled events/);
});

test('a byte count and a limit one byte under it read apart in the text report', () => {
  const sampled = t('alloc-sampled');
  const bytes = view('allocations', sampled).total.bytes;
  const path = join(dir, 'bytes.json');
  writeFileSync(path, JSON.stringify({ budgets: [{ metric: 'allocations.sampledBytes', max: bytes - 1 }] }));
  const r = spawnSync(nativeTool, ['check', sampled, '--budget', path], { encoding: 'utf8' });
  assert.equal(r.status, 1, r.stderr);
  assert.ok(r.stdout.includes(`${bytes} bytes > max ${bytes - 1} bytes`), r.stdout);
});
