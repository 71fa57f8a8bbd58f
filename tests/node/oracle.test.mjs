// Differential tests against TraceEvent (tests/oracle/README.md): on every committed trace
// with a reference baseline, every event TraceEvent delivers — name, thread, time, every
// payload field, every stack frame — equals ours, and the per-type counts equal TraceEvent's.
// A difference passes only where a named rule of tests/oracle/rules.mjs explains it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { gunzipSync } from 'node:zlib';
import { join, relative } from 'node:path';
import { root, testdata, nativeTool } from './helpers.mjs';
import { loadOracle, loadOurs, compareEvents, RULES } from '../oracle/differential.mjs';

const oracleDir = join(root, 'tests/data/oracle');

// Traces our reader does not read yet, and why. The test checks that it still refuses them,
// so this list cannot outlive the gap.
const NOT_READ = {};

// Unpacked traces by file name (any folder of build/native/testdata but the oracle's own).
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

// `Provider/Event, count` of counts.txt; TraceEvent's keys under rule opcode-name, as the event
// comparison applies it.
function countLines(text, fromTraceEvent) {
  const out = new Map();
  for (const line of text.split('\n').filter(Boolean)) {
    const [key, count] = line.split(', ');
    const k = !fromTraceEvent
      ? key
      : key
          .replace(/\/Transfer$/, '/Send')
          .replace(/\/240$/, '/Receive');
    out.set(k, (out.get(k) ?? 0) + Number(count));
  }
  return out;
}

// Per-thread thread-time totals against dotnet-trace's speedscope output (TraceEvent's
// SampleProfilerThreadTimeComputer). Equal in float32 (rule: TraceEvent keeps each sample's
// metric as a float) except on the threads listed here, each with its reason.
const COMPUTER =
  "TraceEvent's thread-time computer also ends a sample's interval at the thread's GC/AllocationTick, TPL and " +
  'EventSource events and adds AWAIT_TIME / UNKNOWN_ASYNC time for tasks (async stitching, a separate issue); we ' +
  "weigh each sample by the time since the thread's previous sample, as pyroscope does (its folded files match ours exactly)";
const THREAD_TIME_NOT_YET_EQUAL = {
  'HeartRateMonitor.10068.nettrace': { reason: COMPUTER, threads: ['10068'] },
  'only_managed_samples.nettrace': { reason: COMPUTER, threads: ['1464011'] },
  'pyroscope-net5-single-thread.nettrace': { reason: COMPUTER, threads: ['1411342'] },
  'sentry-net6-profile-with-task.nettrace': { reason: COMPUTER, threads: ['25632', '8088', '38228', '26136'] },
  'eventpipe-dotnetcore3.0-win-x64-objver4.nettrace': {
    reason: COMPUTER,
    threads: ['12272', '12248', '10848', '8076', '8340', '11936', '11828', '8308', '2288', '12052'],
  },
  'net10-cpu-async-http.nettrace': { reason: COMPUTER, threads: ['13891', '13909', '13911', '13912', '13917', '13924', '13926', '13959'] },
  'net10-startup-streaming.nettrace': { reason: COMPUTER, threads: ['14404', '14438'] },
  'net10-servergc-instruments-default.nettrace': { reason: COMPUTER, threads: ['10114', '10124', '10125', '10126', '9018', '9116'] },
  'net10-order-flows-env.nettrace': { reason: COMPUTER, threads: ['8961', '8978', '8979', '9045', '9046'] },
  'net10-order-flows-nettrace.nettrace': { reason: COMPUTER, threads: ['12884', '12895', '12898', '12899', '12907'] },
  'net10-order-flows-tasks.nettrace': { reason: COMPUTER, threads: ['7426', '7558', '7559', '7564', '7589', '7643', '7644'] },
  'net10-order-flows.nettrace': { reason: COMPUTER, threads: ['8431', '8512', '8514', '8515'] },
  'net10-web-exceptions-clrevents.nettrace': { reason: COMPUTER, threads: ['28073', '28105', '28108', '28115', '28118', '28123', '28124', '28125', '28127', '28128', '28129'] },
  'net10-web-exceptions-env.nettrace': { reason: COMPUTER, threads: ['29732', '29753', '29754', '29756', '29763', '29764', '29766', '29769', '29771', '29772'] },
  'net10-web-exceptions-nettrace.nettrace': { reason: COMPUTER, threads: ['30926', '30944', '30945', '30946', '30947', '30948', '30950', '30956', '30958', '30961'] },
  'net10-web-exceptions.nettrace': { reason: COMPUTER, threads: ['26134', '26178', '26182', '26183', '26185', '26189', '26191', '26193', '26194', '26195', '26196', '26198'] },
  'dotnet-trace-netcore3.0-preview-truncated.nettrace': {
    reason: 'rule truncated-tail: dotnet-trace stops before the EventBlock the file ends in, we count its samples',
    threads: ['513532', '514512', '515628', '516004', '516124', '516264', '516272', '516308', '516360', '516828', '517200', '517204', '518956', '519052', '519432'],
  },
};

// Thread id → total weight: dotnet-trace's evented profiles (time covered by an open frame).
function speedscopeThreadTotals(path) {
  const doc = JSON.parse(gunzipSync(readFileSync(path)).toString('utf8'));
  const out = new Map();
  for (const p of doc.profiles) {
    let depth = 0, total = 0, start = 0;
    for (const e of p.events) {
      if (e.type === 'O') {
        if (depth++ === 0) start = e.at;
      } else if (--depth === 0) total += e.at - start;
    }
    out.set(/^Thread \((\d+)\)/.exec(p.name)[1], total);
  }
  return out;
}

function ourThreadTimeTotals(trace) {
  // A truncated trace exits 1 after printing what was read before the fault: use that.
  const folded = spawnSync(nativeTool, ['flame', trace, '--by-thread', '--weight', 'thread-time', '--format', 'folded'], {
    maxBuffer: 2 ** 30,
  }).stdout.toString('utf8');
  const out = new Map();
  for (const line of folded.split('\n').filter(Boolean)) {
    const tid = /^Thread \((\d+)\)/.exec(line)[1];
    out.set(tid, (out.get(tid) ?? 0) + Number(line.slice(line.lastIndexOf(' ') + 1)) / 1e6);
  }
  return out;
}

const traces = tracesByName();
const names = existsSync(oracleDir) ? readdirSync(oracleDir).filter((d) => statSync(join(oracleDir, d)).isDirectory()).sort() : [];
const summary = [];

for (const name of names) {
  test(`TraceEvent vs ours: ${name}`, () => {
    const trace = traces.get(name);
    assert.ok(trace, `${name} has a baseline in tests/data/oracle but no trace in tests/data`);
    const oracle = loadOracle(join(oracleDir, name));
    if (NOT_READ[name]) {
      const ours = loadOurs(nativeTool, trace);
      assert.equal(ours.events.length, 0, `${name} is read now: remove it from NOT_READ and compare it`);
      summary.push(`${name}: not compared — ${NOT_READ[name]}`);
      return;
    }
    assert.ok(oracle.events, `${name}: no events.jsonl.gz (TraceEvent: ${oracle.error ?? 'no error'})`);
    const ours = loadOurs(nativeTool, trace);
    const report = compareEvents(oracle, ours);
    const theirCounts = countLines(oracle.counts, true);
    // Rule truncated-tail: on a trace TraceEvent stopped reading earlier, the counts of the
    // events both read (our own counts line holds the tail too).
    const ourCounts = report.ruleHits['truncated-tail'] ? report.deliveredCounts : countLines(ours.counts, false);
    const countDiffs = [...new Set([...theirCounts.keys(), ...ourCounts.keys()])]
      .filter((k) => theirCounts.get(k) !== ourCounts.get(k))
      .map((k) => `${k}: ours ${ourCounts.get(k) ?? 0}, TraceEvent ${theirCounts.get(k) ?? 0}`);
    const hits = Object.entries(report.ruleHits).map(([r, n]) => `${r} ${n}`).join(', ');
    summary.push(
      `${name}: ${report.events} events, ${report.fields} fields, ${report.stacks} stacks (${report.frames} frames) ` +
        `compared; ${report.differenceCount ?? 0} differ; rules: ${hits || 'none'}`,
    );
    assert.deepEqual(countDiffs, [], `per-type counts differ:\n  ${countDiffs.join('\n  ')}`);
    assert.equal(report.differenceCount ?? 0, 0, `${report.differenceCount} differences, the first:\n  ${report.differences.join('\n  ')}`);
  });
}

for (const name of names.filter((n) => existsSync(join(oracleDir, n, 'speedscope.json.gz')) && !NOT_READ[n])) {
  test(`thread time per thread vs dotnet-trace convert: ${name}`, () => {
    const theirs = speedscopeThreadTotals(join(oracleDir, name, 'speedscope.json.gz'));
    const ours = ourThreadTimeTotals(traces.get(name));
    const differing = [...new Set([...theirs.keys(), ...ours.keys()])]
      .filter((tid) => Math.fround(ours.get(tid) ?? 0) !== Math.fround(theirs.get(tid) ?? 0))
      .sort();
    const known = [...(THREAD_TIME_NOT_YET_EQUAL[name]?.threads ?? [])].sort();
    summary.push(`${name}: thread time on ${theirs.size} threads, ${theirs.size - differing.length} equal, ${differing.length} listed as not yet equal`);
    assert.deepEqual(differing, known, `threads whose thread time differs from dotnet-trace's:\n` +
      differing.map((t) => `  ${t}: ours ${ours.get(t)} ms, dotnet-trace ${theirs.get(t)} ms`).join('\n'));
  });
}

test('every named rule explains something in a committed trace, and the table', { concurrency: false }, () => {
  console.log(summary.map((s) => `  ${s}`).join('\n'));
  const used = new Set(summary.flatMap((s) => [...s.matchAll(/([a-z-]+) \d+/g)].map((m) => m[1])));
  const unused = Object.keys(RULES).filter((r) => !used.has(r));
  assert.deepEqual(unused, [], `rules that no committed trace needs any more: ${unused.join(', ')}`);
  assert.ok(names.length > 0, `no baselines in ${relative(root, oracleDir)}`);
});
