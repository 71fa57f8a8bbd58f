// Exports that carry the analysis, on the committed traces:
// - speedscope "evented" for thread time: speedscope's schema and its file-format facts
//   (frames shared, events balanced and monotonic per profile, unit milliseconds), opening on
//   the busiest thread, and per thread exactly the events TraceEvent's speedscope writer
//   (tests/oracle/thread_time.mjs writeEvented, which gives dotnet-trace's files) writes for
//   our thread-time intervals, whose nanoseconds are our traceevent-thread-time weights;
// - folded stacks root first, also for an inverted view;
// - Chrome trace: each finished activity of `nettrace activities` one duration of the same
//   start and length, each GC of `nettrace gc` a duration with its pause and suspension;
// - the npm CLI writes these files byte for byte as the native tool does.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { nativeTool, root, runNative, testdata } from './helpers.mjs';
import { validate } from './json_schema.mjs';
import { expectedIntervals, writeEvented } from '../oracle/thread_time.mjs';

const schema = JSON.parse(readFileSync(join(root, 'node_modules/speedscope/dist/release/file-format-schema.json'), 'utf8'));
const out = mkdtempSync(join(tmpdir(), 'exports-analysis-'));
const oracleDir = join(root, 'tests/data/oracle');

function traceFile(name) {
  for (const dir of [testdata, join(testdata, 'dotnet10'), join(testdata, 'truncated')]) {
    if (existsSync(join(dir, name))) return join(dir, name);
  }
  return null;
}

function exportFile(trace, format, args, file) {
  const r = runNative('export', trace, ['--format', format, ...args, '-o', file]);
  assert.ok(r.status === 0 || r.status === 1, r.stderr);  // 1: a truncated trace, exported as read
  return readFileSync(file, 'utf8');
}

// Traces with dotnet-trace's thread-time file (the thread-time oracle's set).
const threadTimeTraces = existsSync(oracleDir)
  ? readdirSync(oracleDir).filter((d) => existsSync(join(oracleDir, d, 'speedscope.json.gz'))).sort()
  : [];

for (const name of threadTimeTraces) {
  test(`speedscope evented thread time: ${name}`, () => {
    const trace = traceFile(name);
    assert.ok(trace, `${name}: no unpacked trace under build/native/testdata`);
    const file = join(out, `${name}.speedscope.json`);
    // The stacks as selected: dotnet-trace's root frames are speedscope_dotnet_trace.test.mjs's.
    const doc = JSON.parse(exportFile(trace, 'speedscope', ['--weight', 'traceevent-thread-time', '--no-dotnet-trace-frames'], file));
    assert.deepEqual(validate(schema, doc), []);
    const names = doc.shared.frames.map((f) => f.name);
    assert.equal(new Set(names).size, names.length, 'each frame once in shared.frames');
    const expected = expectedIntervals(nativeTool, trace);
    assert.deepEqual(doc.profiles.map((p) => /^Thread \((\d+)\)$/.exec(p.name)[1]).sort(),
      [...expected.keys()].filter((t) => expected.get(t).length).sort());
    // The busiest thread: the largest sum of traceevent-thread-time weights (sampled export).
    const sampled = JSON.parse(runNative('flame', trace, ['--weight', 'traceevent-thread-time', '--format', 'speedscope']).stdout);
    const totals = new Map(sampled.profiles.map((p) => [p.name, p.weights.reduce((a, b) => a + b, 0)]));
    const most = Math.max(...totals.values());
    assert.equal(totals.get(doc.profiles[doc.activeProfileIndex].name), most);
    assert.equal(doc.profiles.findIndex((p) => totals.get(p.name) === most), doc.activeProfileIndex, 'the first busiest');
    for (const p of doc.profiles) {
      const tid = /^Thread \((\d+)\)$/.exec(p.name)[1];
      assert.equal(p.type, 'evented');
      assert.equal(p.unit, 'milliseconds');
      // Balanced and monotonic: each close ends the innermost open frame, times never go back.
      const open = [];
      let at = -Infinity;
      for (const e of p.events) {
        assert.ok(e.frame >= 0 && e.frame < names.length);
        assert.ok(e.at >= at, `${p.name}: time goes back at ${e.at}`);
        at = e.at;
        if (e.type === 'O') open.push(e.frame);
        else assert.equal(open.pop(), e.frame, `${p.name}: close of a frame that is not the innermost open one`);
      }
      assert.equal(open.length, 0, `${p.name}: frames left open`);
      assert.equal(p.startValue, p.events[0].at);
      assert.equal(p.endValue, p.events[p.events.length - 1].at);
      // Exactly TraceEvent's writer over our intervals (the thread-time oracle shows those
      // intervals' ns are our weights and the writer's output is dotnet-trace's file).
      const ours = p.events.map((e) => [e.type, names[e.frame], e.at]);
      assert.deepEqual(ours, writeEvented(expected.get(tid), []), `${name} ${p.name}`);
    }
  });
}

test('speedscope export of counts stays sampled; flame --format speedscope stays sampled', () => {
  const trace = join(testdata, 'only_managed_samples.nettrace');
  const doc = JSON.parse(exportFile(trace, 'speedscope', ['--weight', 'count'], join(out, 'count.speedscope.json')));
  assert.ok(doc.profiles.every((p) => p.type === 'sampled' && p.unit === 'none'));
  const flame = JSON.parse(runNative('flame', trace, ['--weight', 'thread-time', '--format', 'speedscope']).stdout);
  assert.ok(flame.profiles.every((p) => p.type === 'sampled' && p.unit === 'nanoseconds'));
});

test('speedscope evented thread-time (pyroscope style): each interval ends at its sample', () => {
  const trace = join(testdata, 'pyroscope-net5-single-thread.nettrace');
  const doc = JSON.parse(exportFile(trace, 'speedscope', ['--weight', 'thread-time', '--no-dotnet-trace-frames'], join(out, 'tt.speedscope.json')));
  assert.deepEqual(validate(schema, doc), []);
  const summary = JSON.parse(runNative('summary', trace).stdout);
  const toMs = (ts) => ((ts - summary.trace.syncTimeTicks) * 1000.0) / summary.trace.tickFrequency;
  const samples = runNative('events', trace, ['--name', 'Thread/Sample', '--limit', '1000000000']).stdout.toString()
    .split('\n').filter(Boolean).map((l) => JSON.parse(l));
  // The first open is at the thread's first sample: the interval [s0, s1] is s1's.
  const p = doc.profiles[doc.activeProfileIndex];
  const tid = /^Thread \((\d+)\)$/.exec(p.name)[1];
  const first = samples.find((e) => String(e.threadId) === tid);
  assert.equal(Math.round(p.events[0].at * 1e6), Math.round(toMs(first.timestamp) * 1e6));
});

test('folded stacks are root first, also inverted', () => {
  for (const name of ['HeartRateMonitor.10068.nettrace', 'pyroscope-net5-single-thread.nettrace']) {
    const trace = join(testdata, name);
    for (const weight of ['count', 'traceevent-thread-time']) {
      const plain = runNative('flame', trace, ['--format', 'folded', '--weight', weight]).stdout.toString();
      const inverted = runNative('flame', trace, ['--format', 'folded', '--weight', weight, '--inverted']).stdout.toString();
      assert.ok(plain.length > 0);
      assert.equal(inverted, plain, `${name} ${weight}`);
      // Root first: the thread-time leaves end each line.
      if (weight !== 'count') assert.ok(plain.split('\n').filter(Boolean).every((l) => /;(CPU_TIME|UNMANAGED_CODE_TIME) \d+$|^(CPU_TIME|UNMANAGED_CODE_TIME) \d+$/.test(l)));
    }
  }
});

// "12.345678" and "12345.678" are the same nanoseconds: compare digits, the point aside.
const digits = (s) => s.replace('.', '').replace(/^(-?)0+(?=\d)/, '$1');
const fixed = (v, n) => v.toFixed(n);

test('Chrome trace: activities and GCs as durations equal to `nettrace activities` and `nettrace gc`', () => {
  let activityCount = 0;
  let pauseCount = 0;
  for (const name of ['net10-cpu-async-http.nettrace', 'net10-eventsource.nettrace', 'net10-gc-verbose.nettrace']) {
    const trace = traceFile(name);
    assert.ok(trace, name);
    const text = exportFile(trace, 'chrome', [], join(out, `${name}.chrome.json`));
    const doc = JSON.parse(text);
    const spans = doc.traceEvents.filter((e) => e.ph === 'X');
    // Activities: the finished ones, each exactly one duration of its start and length.
    const activities = JSON.parse(runNative('activities', trace, ['--format', 'json']).stdout);
    assert.equal(activities.listed, activities.count, 'every activity listed');
    const want = activities.activities.filter((a) => a.durationMs !== null)
      .map((a) => [a.provider, a.name, String(a.startThread), digits(fixed(a.startMs, 6)), digits(fixed(a.durationMs, 6))]).sort();
    const got = spans.filter((e) => e.cat !== 'GC')
      .map((e) => [e.cat, e.name, String(e.tid), digits(fixed(e.ts, 3)), digits(fixed(e.dur, 3))]).sort();
    assert.deepEqual(got, want, `${name} activities`);
    activityCount += want.length;
    // GCs: each GC, its pause and its suspension.
    const gc = JSON.parse(runNative('gc', trace, ['--format', 'json']).stdout);
    const gcs = gc.processes.flatMap((p) => p.gcs);
    const gcSpans = new Map(spans.filter((e) => e.cat === 'GC').map((e) => [e.name, e]));
    for (const g of gcs) {
      const whole = gcSpans.get(`GC #${g.number}`);
      assert.ok(whole, `GC #${g.number}`);
      assert.equal(digits(fixed(whole.dur, 3)), digits(fixed(g.durationMs, 6)));
      if (g.pauseMs > 0) {
        const pause = gcSpans.get(`GC pause #${g.number}`);
        assert.equal(digits(fixed(pause.ts, 3)), digits(fixed(g.pauseStartMs, 6)));
        assert.equal(digits(fixed(pause.dur, 3)), digits(fixed(g.pauseMs, 6)));
        pauseCount++;
      }
    }
    assert.equal(gcSpans.size, gcs.length + gcs.filter((g) => g.pauseMs > 0).length + gcs.filter((g) => g.pauseMs > 0 && g.suspendMs > 0).length);
  }
  assert.ok(activityCount > 0, 'activities compared');
  assert.ok(pauseCount > 0, 'GC pauses compared');
});

test('the npm CLI writes the evented speedscope and the Chrome trace as the native tool does', () => {
  const bin = join(root, 'dist/bin/nettrace-analyzer.mjs');
  const trace = traceFile('eventpipe-dotnetcore3.0-win-x64-objver4.nettrace');
  for (const [format, ...args] of [['speedscope', '--weight', 'traceevent-thread-time'], ['speedscope', '--weight', 'wait-time'], ['chrome']]) {
    const native = exportFile(trace, format, args, join(out, 'native.out'));
    const npmFile = join(out, 'npm.out');
    const r = spawnSync(process.execPath, [bin, 'export', trace, '--format', format, ...args, '-o', npmFile], { maxBuffer: 1 << 28 });
    assert.equal(r.status, 0, r.stderr.toString());
    assert.ok(readFileSync(npmFile, 'utf8') === native, `export ${format} ${args} differs from native`);
  }
});

// RFC 4180 lines → fields (quoted fields may hold commas and doubled quotes; ours no line breaks).
function csvFields(line) {
  const out = [];
  let i = 0;
  for (;;) {
    let field = '';
    if (line[i] === '"') {
      for (i++; ; i++) {
        if (line[i] === '"' && line[i + 1] === '"') field += '"', i++;
        else if (line[i] === '"') { i++; break; } else field += line[i];
      }
    } else {
      while (i < line.length && line[i] !== ',') field += line[i++];
    }
    out.push(field);
    if (i >= line.length) return out;
    i++;  // the comma
  }
}

// The decoded fields of `nettrace events` as the CSV's columns: structs spread into
// "Field.Member" (an unnamed field adds no prefix); [column, cell] with the cell as
// PayloadValue::ToString shows strings, numbers and booleans, null for arrays and DateTimes
// (presence only).
function flatten(fields, prefix = '', out = []) {
  for (const [name, value] of fields) {
    const col = prefix === '' ? name : name === '' ? prefix : `${prefix}.${name}`;
    // A struct spreads; a DateTime ({"$dateTime", "$fileTime"}) is one value.
    const struct = value !== null && typeof value === 'object' && !Array.isArray(value) && !Object.keys(value).some((k) => k.startsWith('$'));
    if (struct) flatten(Object.entries(value), col, out);
    else if (typeof value === 'number') out.push([col, value]);
    else out.push([col, typeof value === 'string' ? value : typeof value === 'boolean' ? String(value) : null]);
  }
  return out;
}
const payloadCells = (e) => flatten(e.payload.fields.map((f) => [f.name, f.value]));
// A number's cell is the same double (its text may use an exponent: 3.09e-05, -0); other cells equal.
function sameCell(cell, want) {
  return typeof want === 'number' ? cell !== '' && Object.is(Number(cell), want) : cell === want;
}

for (const [name, event, provider] of [['net10-gc-verbose.nettrace', 'GC/Start', ''], ['net10-gc-verbose.nettrace', 'GC/AllocationTick', ''],
  ['net10-eventsource.nettrace', 'Note', 'TraceScenarios-Activities'], ['net10-eventsource.nettrace', 'Order', 'TraceScenarios-SelfDescribing'], ['HeartRateMonitor.10068.nettrace', 'GC/RestartEEStop', 'Microsoft-Windows-DotNETRuntime']]) {
  test(`CSV of one event type has its payload fields as columns: ${name} ${event}`, () => {
    const trace = traceFile(name);
    const type = event;
    assert.ok(type, 'an event type');
    const eventsArgs = ['--name', type, '--limit', '1000000000', ...(provider ? ['--provider', provider] : [])];
    const events = runNative('events', trace, eventsArgs).stdout.toString().split('\n').filter(Boolean).map((l) => JSON.parse(l));
    assert.ok(events.length > 0, `${type}: events`);
    const file = join(out, `${name}.${type.replace('/', '_')}.csv`);
    const text = exportFile(trace, 'csv', ['--event', type, ...(provider ? ['--provider', provider] : [])], file);
    const lines = text.split('\n');
    assert.equal(lines.pop(), '');
    const header = csvFields(lines.shift());
    assert.deepEqual(header.slice(0, 5), ['TimeMs', 'Provider', 'Event', 'ThreadId', 'StackId']);
    const names = [...new Set(events.flatMap((e) => payloadCells(e).map(([c]) => c)))];
    assert.deepEqual(header.slice(5), names, 'columns: every field name, in order of first appearance');
    assert.equal(lines.length, events.length);
    // The stack ids are those of the stacks CSV (and of the every-event CSV).
    const all = exportFile(trace, 'csv', [], join(out, 'all.csv')).split('\n');
    const stackOfRow = new Map();
    events.forEach((e) => stackOfRow.set(e.index, csvFields(all[e.index + 1])[4]));
    let compared = 0;
    lines.forEach((line, i) => {
      const cells = csvFields(line);
      const e = events[i];
      assert.equal(cells.length, header.length);
      assert.deepEqual(cells.slice(1, 4), [e.provider, e.name, String(e.threadId)]);
      assert.equal(cells[4], stackOfRow.get(e.index));
      for (const [column, want] of payloadCells(e)) {
        const cell = cells[5 + names.indexOf(column)];
        if (want === null) assert.notEqual(cell, '');
        else assert.ok(sameCell(cell, want), `${type} event ${e.index} field ${column}: ${cell} is not ${want}`), compared++;
      }
    });
    assert.ok(compared > 0);
  });
}

test('the npm CLI writes the payload CSV as the native tool does', () => {
  const bin = join(root, 'dist/bin/nettrace-analyzer.mjs');
  const trace = traceFile('net10-gc-verbose.nettrace');
  for (const type of ['GC/Start', 'GC/AllocationTick']) {
    const native = exportFile(trace, 'csv', ['--event', type], join(out, 'native.csv'));
    const npmFile = join(out, 'npm.csv');
    const r = spawnSync(process.execPath, [bin, 'export', trace, '--format', 'csv', '--event', type, '-o', npmFile], { maxBuffer: 1 << 28 });
    assert.equal(r.status, 0, r.stderr.toString());
    assert.ok(readFileSync(npmFile, 'utf8') === native, `csv --event ${type} differs from native`);
  }
});

test('Chrome trace: each event\'s args are its decoded payload fields (`nettrace events`)', () => {
  let compared = 0;
  for (const name of ['net10-gc-verbose.nettrace', 'net10-eventsource.nettrace', 'eventpipe-dotnetcore3.0-win-x64-objver4.nettrace']) {
    const trace = traceFile(name);
    const doc = JSON.parse(exportFile(trace, 'chrome', [], join(out, `${name}.args.json`)));
    const instants = doc.traceEvents.filter((e) => e.ph === 'i');
    const events = runNative('events', trace, ['--limit', '1000000000']).stdout.toString().split('\n').filter(Boolean).map((l) => JSON.parse(l));
    assert.equal(instants.length, events.length, name);
    events.forEach((e, i) => {
      const c = instants[i];
      assert.deepEqual([c.cat, c.name, c.tid], [e.provider, e.name, e.threadId]);
      const cells = payloadCells(e);
      if (cells.length === 0) return assert.equal(c.args, undefined);
      const seen = new Set();
      const want = cells.filter(([k]) => !seen.has(k) && seen.add(k));
      assert.deepEqual(Object.keys(c.args).sort(), want.map(([k]) => k).sort(), `${name} event ${e.index}`);
      for (const [k, v] of want) if (v !== null) assert.ok(sameCell(c.args[k], v), `${name} event ${e.index} ${k}: ${c.args[k]} is not ${v}`), compared++;
    });
  }
  assert.ok(compared > 1000, `${compared} fields compared`);
});
