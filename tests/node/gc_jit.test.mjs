// GC and JIT statistics against TraceEvent's own analyses: on every committed
// trace whose runtime.json (tests/data/oracle/<trace>/) has GCs or jitted methods, each GC's
// number, generation, type, reason, induced, start, duration, pause start and pause (to the
// microsecond), suspension, heap size before and after, promoted bytes, per-generation sizes
// after and pinned objects — and the GCStats totals — equal TraceEvent's; each jitted
// method's name, module, thread, start, JIT time, IL and native size, tier, R2R, thread kind
// and version equal TraceJittedMethod's, and the JITStats totals likewise.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { root, testdata, runNative } from './helpers.mjs';
import { compareGcJit } from '../oracle/gc_jit.mjs';

const oracleDir = join(root, 'tests/data/oracle');

function tracesByName() {
  const out = new Map();
  const walk = (dir) => {
    for (const f of readdirSync(dir)) {
      const p = join(dir, f);
      if (statSync(p).isDirectory()) {
        if (f !== 'oracle') walk(p);
      } else if (/\.(nettrace|netperf)$/.test(f)) out.set(f, p);
    }
  };
  walk(testdata);
  return out;
}

const json = (command, trace, args = []) => JSON.parse(runNative(command, trace, args).stdout.toString('utf8'));

const withRuntime = readdirSync(oracleDir)
  .filter((d) => existsSync(join(oracleDir, d, 'runtime.json')))
  .map((d) => ({ name: d, runtime: JSON.parse(readFileSync(join(oracleDir, d, 'runtime.json'), 'utf8')) }))
  .filter(({ runtime }) =>
    runtime.processes.some((p) => p.hasRuntime && ((Array.isArray(p.gcs) && p.gcs.length) || (Array.isArray(p.jitMethods) && p.jitMethods.length))));

test('the committed traces with GCs or jitted methods are all compared', () => {
  // Twelve traces have GCs (1 to 478 each; the two heap-dump recordings the GCs their dumps
  // induce), three have jitted methods (54, 150 and 492).
  assert.deepEqual(withRuntime.map((t) => t.name).sort(), [
    'HeartRateMonitor.10068.nettrace',
    'dotnet-trace-netcore3.0-preview-truncated.nettrace',
    'eventpipe-dotnetcore3.0-win-x64-objver4.nettrace',
    'heapgraphs-big.nettrace',
    'heapgraphs-small.nettrace',
    'net10-alloc-sampled.nettrace',
    'net10-bgc-waits-mcj.nettrace',
    'net10-gc-verbose.nettrace',
    'net10-servergc-instruments-default.nettrace',
    'net10-servergc-instruments-gcverbose.nettrace',
    'net10-startup-at-exit.nettrace',
    'net10-startup-streaming.nettrace',
  ]);
});

const traces = tracesByName();
for (const { name, runtime } of withRuntime) {
  test(`GC and JIT statistics equal TraceEvent's: ${name}`, () => {
    const trace = traces.get(name);
    assert.ok(trace, `${name} is not unpacked under build/native/testdata`);
    const meta = JSON.parse(readFileSync(join(oracleDir, name, 'meta.json'), 'utf8'));
    const truncated = meta.continueOnError === true;
    // The time of the last event TraceEvent delivered (rule truncated-tail).
    // The time of the last event TraceEvent delivered (rule truncated-tail), and of each
    // process's last GC/HeapStats (GCStats.ProcessDuration's end).
    let lastDeliveredMs = -Infinity;
    const lastHeapStatsMs = new Map();
    const lines = gunzipSync(readFileSync(join(oracleDir, name, 'events.jsonl.gz'))).toString('utf8').trimEnd().split('\n');
    for (const line of lines) {
      const e = JSON.parse(line);
      lastDeliveredMs = Math.max(lastDeliveredMs, Number(e.ms));
      if (e.p === 'Microsoft-Windows-DotNETRuntime' && e.n === 'GC/HeapStats') lastHeapStatsMs.set(e.pid, Math.max(lastHeapStatsMs.get(e.pid) ?? -Infinity, Number(e.ms)));
    }
    const { differences, compared, rules } = compareGcJit(runtime, json('gc', trace), json('jit', trace), { truncated, lastDeliveredMs, lastHeapStatsMs });
    // The one trace TraceEvent reads only in part: its last GC (#2150) starts after the last
    // event TraceEvent delivered (its SuspendEEStart); everywhere else no rule applies.
    // The Server GC traces' GC.Collect(2, GCCollectionMode.Aggressive): reason 17, InducedAggressive.
    const expectedRules = {
      'dotnet-trace-netcore3.0-preview-truncated.nettrace': { 'truncated-tail': 1 },
      'net10-servergc-instruments-default.nettrace': { 'reason-beyond-traceevent': 1 },
      'net10-servergc-instruments-gcverbose.nettrace': { 'reason-beyond-traceevent': 1 },
    };
    assert.deepEqual(rules, expectedRules[name] ?? {});
    const theirGcs = runtime.processes.reduce((n, p) => n + (Array.isArray(p.gcs) ? p.gcs.length : 0), 0);
    const theirMethods = runtime.processes.reduce((n, p) => n + (Array.isArray(p.jitMethods) ? p.jitMethods.length : 0), 0);
    assert.deepEqual(differences.slice(0, 20), []);
    assert.equal(compared.gcs, theirGcs);
    assert.equal(compared.methods, theirMethods);
    // % time paused checked wherever the trace has complete GCs (not under truncated-tail).
    const withGcs = runtime.processes.filter((p) => p.hasRuntime && Array.isArray(p.gcs) && p.gcs.some((g) => g.isComplete)).length;
    assert.equal(compared.pausedPercent ?? 0, rules['truncated-tail'] ? 0 : withGcs);
  });
}

test('gc and jit CSV: one line per GC / method, as the JSON', () => {
  const trace = traces.get('net10-gc-verbose.nettrace');
  const csv = runNative('gc', trace, ['--format', 'csv']).stdout.toString('utf8').trimEnd().split('\n');
  const gcs = json('gc', trace).processes.flatMap((p) => p.gcs);
  assert.equal(csv.length, 1 + gcs.length);
  assert.equal(csv[1].split(',').slice(1, 5).join(','), `${gcs[0].number},${gcs[0].generation},${gcs[0].type},${gcs[0].reason}`);
  const streaming = traces.get('net10-startup-streaming.nettrace');
  const jitCsv = runNative('jit', streaming, ['--format', 'csv']).stdout.toString('utf8').trimEnd().split('\n');
  assert.equal(jitCsv.length, 1 + json('jit', streaming).processes.flatMap((p) => p.methods).length);
});

// The recorded program's background GCs and multicore JIT (MANIFEST.md "net10-bgc-waits-mcj"):
// exactly 3 GCs of type BackgroundGC (gen 2, AllocSmall, not induced), and methods compiled on
// the multicore-JIT background thread — both as TraceEvent says (the comparison above), and
// present, so that comparison is not vacuous.
test('background GCs and multicore-JIT methods: the program\'s, as TraceEvent: net10-bgc-waits-mcj', () => {
  const name = 'net10-bgc-waits-mcj.nettrace';
  const trace = traces.get(name);
  const gcs = json('gc', trace).processes.flatMap((p) => p.gcs);
  const bgcs = gcs.filter((g) => g.type === 'BackgroundGC');
  assert.deepEqual(bgcs.map((g) => [g.generation, g.reason, g.isInduced, g.isComplete]), Array(3).fill([2, 'AllocSmall', false, true]));
  const theirs = withRuntime.find((t) => t.name === name).runtime.processes.find((p) => p.hasRuntime);
  assert.equal(theirs.gcs.filter((g) => g.type === 'BackgroundGC').length, 3);
  const jit = json('jit', trace).processes[0];
  const mcj = jit.methods.filter((m) => m.thread === 'MulticoreJitBackground');
  assert.ok(mcj.length > 0);
  assert.equal(jit.totals.countBackgroundMultiCoreJit, mcj.length);
  assert.equal(theirs.jitMethods.filter((m) => m.thread === 'MulticoreJitBackground').length, mcj.length);
  // One thread compiled them all (the thread of the player's JITTHREAD event).
  assert.equal(new Set(mcj.map((m) => m.threadId)).size, 1);
  const csv = runNative('jit', trace, ['--format', 'csv']).stdout.toString('utf8');
  assert.equal(csv.split('\n').filter((l) => l.includes(',MulticoreJitBackground,')).length, mcj.length);
});
