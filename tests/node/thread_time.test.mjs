// Thread time against dotnet-trace convert (tests/oracle/README.md, speedscope.json.gz), on
// every committed trace with dotnet-trace's speedscope output, exactly (tests/oracle/thread_time.mjs):
// our `--weight traceevent-thread-time` intervals equal TraceEvent's rules applied to our events,
// and written as TraceEvent's speedscope writer writes them they give dotnet-trace's events —
// frames and times — after the named rules. Traces whose stacks TraceEvent builds with parts we
// do not build yet are listed in NOT_YET with the reason; the test checks that they still
// differ, so the list cannot outlive the gap.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { join } from 'node:path';
import { root, testdata, nativeTool } from './helpers.mjs';
import { expectedIntervals, groupPrefix, ourIntervals, theirEvents, THREAD_TIME_RULES, writeEvented } from '../oracle/thread_time.mjs';

const oracleDir = join(root, 'tests/data/oracle');

// Threads whose stacks TraceEvent builds with parts we do not build yet. Built: thread-pool
// work items (ThreadPool/Enqueue, /Dequeue: objver4's threads 8308 and 8340 are exact with
// them), start-stop activity group frames "(Activities)" / "Activity …"
// (core/analysis/stacks/start_stop_activities.h: net10-startup-streaming's thread 14404), and TPL
// tasks as activities (core/analysis/stacks/async_stitching.h, tpl_tasks.h): TaskScheduled,
// AwaitTaskContinuationScheduled and TaskWait/Send create them, TaskExecute/Start and
// TaskWait/Stop start them, TaskExecute/Stop ends them, AWAIT_TIME for awaited time —
// net10-cpu-async-http's threads 13909, 13911 and 13917 are exact with them, and 13926,
// which only runs tasks, files all its time under its tasks' creators as dotnet-trace does.
// TraceEvent's IsRecursiveTask compares frames by code address (two call sites in one method
// are two frames), and so do both our implementations (`nettrace stack`'s addresses): with
// names alone 13891 differed from event 1950 of dotnet-trace's profile. TraceEvent applies a
// start-stop Stop only at the next event that asks for an activity (DoStopIfNecessary), so
// an await created right after a Stop inherits the stopped activity: 13891 differed from event
// 29540 until both implementations deferred Stops — the await begun by TaskWait/Send at
// 899.70 ms (event 5272, on 13917, right after RequestHeaders/Stop) carries RequestHeaders,
// stopped before it began, so its time goes under the live activity when it ends (913.08 ms):
// "Activity Scenario" alone, the Request having stopped at 908.34 ms. The runtime's
// ExceptionCatch/Start and /Stop are start-stop activities too ("ExceptionHandling", whatever
// their activity id): the four net10-web-exceptions traces are exact with them; and a worker's
// ThreadPoolWorkerThread/Wait gives its thread a fresh task activity even where nothing is
// stitched: net10-order-flows and net10-order-flows-nettrace differed until it did.
const NOT_YET = {};

function traceFile(name) {
  for (const dir of [testdata, join(testdata, 'dotnet10'), join(testdata, 'truncated')]) {
    if (existsSync(join(dir, name))) return join(dir, name);
  }
  return null;
}

const names = existsSync(oracleDir) ? readdirSync(oracleDir).filter((d) => existsSync(join(oracleDir, d, 'speedscope.json.gz'))).sort() : [];
const used = new Set();

function compare(name) {
  const trace = traceFile(name);
  assert.ok(trace, `${name}: no unpacked trace under build/native/testdata`);
  const ruleHits = {};
  const hit = (r) => (ruleHits[r] = (ruleHits[r] ?? 0) + 1);
  const eventsFile = join(oracleDir, name, 'events.jsonl.gz');
  const delivered = existsSync(eventsFile)
    ? gunzipSync(readFileSync(eventsFile)).toString('utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l))
    : null;
  const expected = expectedIntervals(nativeTool, trace);
  const judged = delivered ? expectedIntervals(nativeTool, trace, delivered, hit) : expected;
  const ours = ourIntervals(nativeTool, trace);
  const strip = (list) => list.map(({ frames, ns }) => ({ frames, ns }));
  // Step 1: the engine's intervals are TraceEvent's rules applied to our events.
  for (const tid of new Set([...expected.keys(), ...ours.keys()])) {
    assert.deepEqual(strip(ours.get(tid) ?? []), strip(expected.get(tid) ?? []), `${name} thread ${tid}: our intervals`);
  }
  // And with stitching off (--no-stitch-async), the same rules without activities.
  const plain = expectedIntervals(nativeTool, trace, null, () => {}, false);
  const oursPlain = ourIntervals(nativeTool, trace, ['--no-stitch-async']);
  for (const tid of new Set([...plain.keys(), ...oursPlain.keys()])) {
    assert.deepEqual(strip(oursPlain.get(tid) ?? []), strip(plain.get(tid) ?? []), `${name} thread ${tid}: our intervals without stitching`);
  }
  const stitched = [...ours.values()].flat().filter((i) => i.frames.includes('STARTING TASK')).length;
  // Step 2: written as dotnet-trace writes them, they are dotnet-trace's file.
  const frameNames = new Set([...ours.values()].flatMap((l) => l.flatMap((i) => i.frames)));
  const theirs = theirEvents(join(oracleDir, name, 'speedscope.json.gz'), frameNames, hit);
  const differences = [];
  const differing = [];
  let events = 0;
  for (const tid of new Set([...judged.keys(), ...theirs.keys()])) {
    const their = theirs.get(tid) ?? [];
    const mine = judged.has(tid) ? writeEvented(judged.get(tid), groupPrefix(tid), their.splits) : [];
    events += their.length;
    const n = Math.max(mine.length, their.length);
    for (let i = 0; i < n; i++) {
      if (JSON.stringify(mine[i]) !== JSON.stringify(their[i])) {
        differing.push(tid);
        differences.push(`thread ${tid} event ${i} of ${their.length} (ours ${mine.length}): ours ${JSON.stringify(mine[i])}, dotnet-trace ${JSON.stringify(their[i])}`);
        break;
      }
    }
  }
  return { threads: theirs.size, events, ruleHits, differences, differing: differing.sort(), stitched };
}

for (const name of names) {
  test(`thread time vs dotnet-trace convert: ${name}`, () => {
    const report = compare(name);
    for (const r of Object.keys(report.ruleHits)) used.add(r);
    const hits = Object.entries(report.ruleHits).map(([r, n]) => `${r} ${n}`).join(', ');
    console.log(`  ${name}: ${report.threads} threads, ${report.events} events of dotnet-trace; ${report.differences.length} threads differ; ${report.stitched} stitched intervals; rules: ${hits || 'none'}`);
    const known = NOT_YET[name]?.threads ?? [];
    if (known.length) console.log(`    not yet equal: threads ${known.join(', ')} (${NOT_YET[name].reason})`);
    // Exactly the listed threads differ: a listed thread that equals dotnet-trace now fails too.
    assert.deepEqual(report.differing, [...known].sort(), report.differences.filter((d) => !known.includes(/^thread (\d+)/.exec(d)[1])).join('\n') || 'a listed thread equals dotnet-trace now');
  });
}

// The flame graph says whether it stitched, and why it could not (core/analysis/stacks/async_stitching.h).
test('asyncStitching: on, off, unavailable with the reason', () => {
  const state = (name, ...options) => {
    const r = spawnSync(nativeTool, ['flame', traceFile(name), '--weight', 'traceevent-thread-time', ...options], { maxBuffer: 2 ** 30 });
    return JSON.parse(r.stdout.toString()).asyncStitching;
  };
  const objver4 = 'eventpipe-dotnetcore3.0-win-x64-objver4.nettrace';
  assert.deepEqual(state(objver4), { state: 'on' });
  assert.deepEqual(state(objver4, '--no-stitch-async'), { state: 'off' });
  assert.deepEqual(state(objver4, '--no-stitch-async', '--stitch-async'), { state: 'on' });
  // TPL task events alone (no thread-pool work events) are stitched.
  assert.deepEqual(state('net10-cpu-async-http.nettrace'), { state: 'on' });
  assert.equal(state('net10-cpu-async-http.nettrace', '--no-stitch-async').state, 'off');
  assert.equal(state('net10-startup-streaming.nettrace').state, 'on');
  const none = state('pyroscope-net5-single-thread.nettrace');
  assert.equal(none.state, 'unavailable');
  assert.match(none.reason, /^the trace has no thread-pool work events .* and no TPL task events .*Threading keyword \(0x10000\) at verbose level/);
  // Other weights say nothing about stitching.
  const r = spawnSync(nativeTool, ['flame', traceFile(objver4), '--weight', 'thread-time'], { maxBuffer: 2 ** 30 });
  assert.equal(JSON.parse(r.stdout.toString()).asyncStitching, undefined);
});

test('every thread-time rule explains something in a committed trace', { concurrency: false }, () => {
  assert.ok(names.length > 0, 'no speedscope.json.gz baselines');
  assert.deepEqual(Object.keys(THREAD_TIME_RULES).filter((r) => !used.has(r)), []);
});
