// Start-stop activities against TraceEvent's own (tests/oracle/ActivityReport.cs): one rule for
// which events begin and end activities (core/events/start_stop_rule.h) and one engine that
// follows them (core/analysis/start_stop_activities.h) give both the activities view and the
// thread-time stacks' "(Activities)" / "Activity …" frames.
// - activities.json: `nettrace activities` lists exactly TraceEvent's StartStopActivityComputer
//   activities, in its order: task, activity id, creator (our parent), start time and thread,
//   duration and the thread of the Stop that ended it.
// - activity-time.json: our thread time (`flame --weight traceevent-thread-time`, as `nettrace
//   export --format speedscope` writes it) puts exactly TraceEvent's nanoseconds under
//   "(Activities)" and under each "Activity …" frame, and has as many distinct activity frames.
//   TraceEvent's samples without a thread frame (UNKNOWN_ASYNC) are not in dotnet-trace's
//   speedscope output (StackSourceWriterHelper ignores them) and not built by us: the oracle
//   counts them apart ("withoutThreadNs"); every other sample is compared.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { root, nativeTool, runNative, testdata } from './helpers.mjs';
import { ourIntervals } from '../oracle/thread_time.mjs';

const oracleDir = join(root, 'tests/data/oracle');
const ms6 = (v) => Number(Number(v).toFixed(6));

function traceFile(name) {
  for (const dir of [testdata, join(testdata, 'dotnet10'), join(testdata, 'truncated')]) if (existsSync(join(dir, name))) return join(dir, name);
  return null;
}
const withFile = (file) => readdirSync(oracleDir).filter((d) => existsSync(join(oracleDir, d, file)) && traceFile(d)).sort();

test('the oracle pairs activities on the new traces: ExceptionHandling, Order/Phase/Step, Metrics Collection', () => {
  const has = (name, task) => JSON.parse(readFileSync(join(oracleDir, name, 'activities.json'), 'utf8')).activities.some((a) => a.task === task);
  assert.ok(has('net10-web-exceptions.nettrace', 'ExceptionHandling'));
  for (const task of ['Order', 'Phase', 'Step', 'Collection']) assert.ok(has('net10-order-flows.nettrace', task), task);
});

for (const name of withFile('activities.json')) {
  test(`activities view = TraceEvent's StartStopActivityComputer: ${name}`, () => {
    const theirs = JSON.parse(readFileSync(join(oracleDir, name, 'activities.json'), 'utf8')).activities;
    const r = runNative('activities', traceFile(name));
    assert.equal(r.status, 0, r.stderr);
    const ours = JSON.parse(r.stdout.toString('utf8'));
    assert.equal(ours.count, theirs.length);
    assert.equal(ours.listed, Math.min(theirs.length, 10000));
    let values = 0;
    ours.activities.forEach((a, i) => {
      const t = theirs[i];
      const mine = { task: a.name, id: a.id, creator: a.parent, startMs: a.startMs, startTid: a.startThread, durationMs: a.durationMs, stopTid: a.stopThread };
      const expected = { task: t.task, id: t.id, creator: t.creator, startMs: ms6(t.startMs), startTid: t.startTid,
        durationMs: t.stopMs === null ? null : ms6(t.durationMs), stopTid: t.stopTid };
      assert.deepEqual(mine, expected, `${name} activity ${i}`);
      values += 7;
    });
    const finished = theirs.filter((t) => t.stopMs !== null).length;
    assert.equal(ours.finished, finished);
    console.log(`  ${name}: ${theirs.length} activities (${finished} finished), ${values} values equal`);
  });
}

for (const name of withFile('activity-time.json')) {
  test(`thread time under activities = TraceEvent's: ${name}`, () => {
    const theirs = JSON.parse(readFileSync(join(oracleDir, name, 'activity-time.json'), 'utf8'));
    const frames = new Map();
    let total = 0, activities = 0;
    for (const list of ourIntervals(nativeTool, traceFile(name)).values()) {
      for (const { frames: f, ns } of list) {
        total += ns;
        if (f[0] === '(Activities)') activities += ns;
        for (const a of new Set(f.filter((x) => x.startsWith('Activity ')))) {
          const v = frames.get(a) ?? { samples: 0, ns: 0 };
          v.samples++, v.ns += ns;
          frames.set(a, v);
        }
      }
    }
    assert.equal(total, theirs.totalNs, 'total');
    assert.equal(activities, theirs.activitiesNs, 'under (Activities)');
    assert.equal(total - activities, theirs.nonActivitiesNs, 'under (Non-Activities)');
    assert.equal(frames.size, theirs.distinctFrames, 'distinct activity frames');
    const expected = Object.fromEntries(theirs.frames.map((f) => [f.name, { samples: f.samples, ns: f.ns }]));
    assert.deepEqual(Object.fromEntries([...frames].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))), expected);
    console.log(`  ${name}: ${theirs.activitiesNs} of ${theirs.totalNs} ns under activities, ${theirs.distinctFrames} activity frames; ` +
      `left out (no thread frame, UNKNOWN_ASYNC): ${theirs.withoutThreadSamples} samples, ${theirs.withoutThreadNs} ns`);
  });
}
