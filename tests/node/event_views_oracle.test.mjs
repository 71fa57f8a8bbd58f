// The event views against TraceEvent's own view of the same traces
// (tests/data/oracle/<trace>/events.jsonl.gz and stacks.jsonl.gz, tests/oracle/README.md):
// every exception, wait, activity and counter sample the views show equals the event TraceEvent
// decoded — its time (ms, 6 decimals), thread, activity ids and payload values. Frame names are
// compared without their signature (TraceEvent's stack names keep "(int32)"; ours, PerfView's
// flame-graph names, do not).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { root, runNative, testdata } from './helpers.mjs';

const oracleDir = join(root, 'tests/data/oracle');
const lines = (path) => gunzipSync(readFileSync(path)).toString('utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
const oracle = (name) => ({ events: lines(join(oracleDir, name, 'events.jsonl.gz')), stacks: lines(join(oracleDir, name, 'stacks.jsonl.gz')) });
const view = (command, name) => {
  const r = runNative(command, join(testdata, 'dotnet10', name));
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout.toString('utf8'));
};
const fields = (e) => Object.fromEntries(e.f.map((f) => [f.n, f.v]));
const RUNTIME = 'Microsoft-Windows-DotNETRuntime';
// TraceEvent's ms: 6 decimals, trailing zeros left out; ours: 6 decimals.
const ms6 = (v) => Number(v.toFixed(6));
const noSignature = (frame) => frame.replace(/\(.*$/, '');

for (const name of ['net10-eventsource.nettrace', 'net10-startup-streaming.nettrace', 'net10-startup-at-exit.nettrace', 'net10-ipc.netperf']) {
  test(`exceptions view = TraceEvent's Exception/Start events: ${name}`, () => {
    const { events, stacks } = oracle(name);
    const throws = events.filter((e) => e.p === RUNTIME && e.n === 'Exception/Start');
    const v = view('exceptions', name);
    assert.equal(v.count, throws.length);
    const expected = new Map();
    for (const e of throws) {
      const f = fields(e);
      const t = expected.get(f.ExceptionType) ?? { count: 0, messages: [], methods: new Map() };
      t.count++;
      if (t.messages.length < 5 && !t.messages.includes(f.ExceptionMessage)) t.messages.push(f.ExceptionMessage);
      const method = noSignature(stacks[e.s].find((frame) => !frame.startsWith('System.Private.CoreLib!System.Runtime.EH.')));
      t.methods.set(method, (t.methods.get(method) ?? 0) + 1);
      expected.set(f.ExceptionType, t);
    }
    assert.equal(v.types.length, expected.size);
    for (const t of v.types) {
      const x = expected.get(t.type);
      assert.ok(x, t.type);
      assert.equal(t.count, x.count, t.type);
      assert.deepEqual(t.messages, x.messages, t.type);
      assert.deepEqual(Object.fromEntries(t.throwingMethods.map((m) => [m.method, m.count])), Object.fromEntries(x.methods), t.type);
    }
    // Caught: TraceEvent's ExceptionCatch/Start events, one per throw here, naming the catching method.
    const catches = events.filter((e) => e.p === RUNTIME && e.n === 'ExceptionCatch/Start');
    assert.equal(v.caught, catches.length);
    const catchMethods = new Set(catches.map((e) => fields(e).MethodName));
    for (const t of v.types) for (const m of t.catchingMethods) assert.ok(catchMethods.has(m.method), m.method);
  });
}

for (const name of ['net10-eventsource.nettrace', 'net10-startup-streaming.nettrace', 'net10-startup-at-exit.nettrace']) {
  test(`contention view = TraceEvent's Contention/Start and Stop events: ${name}`, () => {
    const { events } = oracle(name);
    const starts = events.filter((e) => e.p === RUNTIME && e.n === 'Contention/Start');
    const stops = events.filter((e) => e.p === RUNTIME && e.n === 'Contention/Stop');
    const v = view('contention', name);
    assert.equal(v.list.length, starts.length);
    v.list.forEach((w, i) => {
      const start = fields(starts[i]);
      const stop = stops.find((s) => s.tid === starts[i].tid && Number(s.ms) >= Number(starts[i].ms));
      assert.equal(ms6(w.timeMs), Number(starts[i].ms));
      assert.equal(w.thread, starts[i].tid);
      assert.equal(w.owner, Number(start.LockOwnerThreadID));
      assert.equal(BigInt(w.lockId), BigInt(start.LockID)); // ours hex, TraceEvent's value decimal
      assert.equal(w.durationNs, Math.round(Number(fields(stop).DurationNs)));
    });
  });
}

test("activities view = TraceEvent's Start/Stop events and activity ids: net10-eventsource", () => {
  const { events } = oracle('net10-eventsource.nettrace');
  const v = view('activities', 'net10-eventsource.nettrace');
  const ours = v.activities.filter((a) => a.provider === 'TraceScenarios-Activities');
  const starts = events.filter((e) => e.p === 'TraceScenarios-Activities' && e.op === 1);
  const stops = events.filter((e) => e.p === 'TraceScenarios-Activities' && e.op === 2);
  assert.equal(ours.length, starts.length);
  assert.equal(starts.length, 28);
  for (const a of ours) {
    const start = starts.find((e) => e.act === a.id && Number(e.ms) === ms6(a.startMs));
    assert.ok(start, `${a.name} ${a.id} at ${a.startMs}`);
    assert.equal(`${a.name}/Start`, start.n);
    assert.equal(a.relatedId, start.rel);
    assert.equal(a.startThread, start.tid);
    const stop = stops.find((e) => e.act === a.id && Number(e.ms) >= Number(start.ms));
    assert.equal(a.stopThread, stop.tid);
    assert.equal(`${a.name}/Stop`, stop.n);
  }
});

// What dotnet-counters shows for each published payload (Microsoft.Diagnostics.Monitoring.EventPipe
// TraceEventExtensions): a Counter's / ObservableCounter's rate, an UpDownCounter's /
// ObservableUpDownCounter's value, a gauge's lastValue, an EventCounter's Mean or Increment; a
// histogram's count here (dotnet-counters shows its quantiles). NaN where the payload has none.
function shownByDotnetCounters(e) {
  const n = (t) => (t === '' || t === undefined || t === null ? NaN : Number(t));
  if (e.n === 'EventCounters') {
    const p = e.f[0].v.Payload;
    return p.CounterType === 'Sum' ? n(p.Increment) : n(p.Mean);
  }
  const f = fields(e);
  if (e.n === 'CounterRateValuePublished') return n(f.rate);
  if (e.n === 'UpDownCounterRateValuePublished') return n(f.value);
  if (e.n === 'GaugeValuePublished') return n(f.lastValue);
  return n(f.count);
}

for (const traceName of ['net10-counters.nettrace', 'net10-servergc-instruments-gcverbose.nettrace', 'net10-servergc-instruments-default.nettrace'])
test(`counters view = TraceEvent's EventCounters and Metrics payloads, shown as dotnet-counters shows them: ${traceName}`, () => {
  const { events } = oracle(traceName);
  const v = view('counters', traceName);
  const key = (provider, name, tags) => `${provider}/${name}[${tags}]`;
  const series = new Map(v.series.map((s) => [key(s.provider, s.name, s.tags), s]));
  const seen = new Map();
  const next = (k) => {
    const s = series.get(k);
    assert.ok(s, k);
    const i = seen.get(k) ?? 0;
    seen.set(k, i + 1);
    return [s, s.samples[i]];
  };
  let compared = 0;
  for (const e of events) {
    if (e.n === 'EventCounters') {
      const p = e.f[0].v.Payload;
      const [s, x] = next(key(e.p, p.Name, ''));
      assert.equal(ms6(x.timeMs), Number(e.ms));
      assert.equal(s.displayName, p.DisplayName);
      assert.equal(s.units, p.DisplayUnits);
      assert.equal(x.intervalSec, Number(p.IntervalSec));
      if (p.CounterType === 'Sum') assert.equal(x.increment, Number(p.Increment));
      // An interval without a measurement has Min/Max ±Infinity: null in our JSON (JSON has none).
      else for (const k of ['Mean', 'Min', 'Max', 'Count']) assert.equal(x[k.toLowerCase()], Number.isFinite(Number(p[k])) ? Number(p[k]) : null, `${p.Name} ${k}`);
      compared++;
    } else if (e.p === 'System.Diagnostics.Metrics' && e.n.endsWith('ValuePublished')) {
      const f = fields(e);
      const [s, x] = next(key(f.meterName, f.instrumentName, f.tags));
      assert.equal(ms6(x.timeMs), Number(e.ms));
      assert.equal(s.units, f.unit);
      if (e.n === 'GaugeValuePublished') assert.equal(x.value, Number(f.lastValue));
      else if (e.n === 'HistogramValuePublished') {
        assert.equal(x.count, Number(f.count));
        assert.equal(x.sum, Number(f.sum));
        assert.equal(x.quantiles.map((q) => `${q.quantile}=${q.value}`).join(';'), f.quantiles);
      } else {
        // An empty text (an observable counter's first rate): no value, null in our JSON.
        const orNull = (t) => (t === '' ? null : Number(t));
        assert.equal(x.rate, orNull(f.rate));
        assert.equal(x.value, orNull(f.value));
      }
      compared++;
    }
  }
  for (const [k, n] of seen) assert.equal(series.get(k).samples.length, n, k);
  assert.equal(seen.size, v.series.length);
  assert.ok(compared > 50, `${compared} samples compared`);
  // Each series' shown member and last value: dotnet-counters' for TraceEvent's last payload.
  const lastEvent = new Map();
  for (const e of events) {
    if (e.n === 'EventCounters') lastEvent.set(key(e.p, e.f[0].v.Payload.Name, ''), e);
    else if (e.p === 'System.Diagnostics.Metrics' && e.n.endsWith('ValuePublished')) {
      const f = fields(e);
      lastEvent.set(key(f.meterName, f.instrumentName, f.tags), e);
    }
  }
  for (const s of v.series) {
    const k = key(s.provider, s.name, s.tags);
    const shown = shownByDotnetCounters(lastEvent.get(k));
    assert.equal(s.last, Number.isNaN(shown) ? null : shown, `${k} last`);
    for (const x of s.samples) assert.ok(s.shown in x, `${k}: ${s.shown} in every sample`);
  }
});

// The Server GC recording's instruments (MANIFEST.md "instruments"): the values the program
// gave them, as dotnet-counters shows them.
test('counters view: every System.Diagnostics.Metrics instrument kind with its known values', () => {
  const v = view('counters', 'net10-servergc-instruments-gcverbose.nettrace');
  const s = (name) => v.series.find((x) => x.provider === 'TraceScenarios.Instruments' && x.name === name);
  assert.deepEqual(['requests', 'in-flight', 'bytes-sent', 'connections', 'temperature', 'queue-depth', 'latency'].map((n) => [n, s(n).kind, s(n).shown]), [
    ['requests', 'rate', 'rate'], ['in-flight', 'updown', 'value'], ['bytes-sent', 'rate', 'rate'], ['connections', 'updown', 'value'],
    ['temperature', 'gauge', 'value'], ['queue-depth', 'gauge', 'value'], ['latency', 'histogram', 'count']]);
  assert.equal(s('requests').total, 210);  // Counter: Add(t), t = 1..20
  assert.equal(s('in-flight').last, 40);  // UpDownCounter: +3 then −1 per tick: its value, not its last change
  assert.equal(s('in-flight').samples.at(-1).value, 40);
  assert.equal(s('bytes-sent').samples[0].rate, null);  // ObservableCounter: no rate before its second observation
  assert.equal(s('bytes-sent').samples.at(-1).value, 20000);
  assert.equal(s('connections').last, 10);  // ObservableUpDownCounter: 10 + (20 mod 4)
  assert.equal(s('temperature').last, 30);  // ObservableGauge: 20 + 0.5·20
  assert.equal(s('queue-depth').last, 6);  // Gauge: 20 mod 7
  const latency = s('latency').samples;
  assert.deepEqual([latency.reduce((n, x) => n + x.count, 0), latency.reduce((n, x) => n + x.sum, 0)], [40, 630]);
});

// The thread pool view: every hill-climbing adjustment is TraceEvent's
// ThreadPoolWorkerThreadAdjustment/Adjustment (time, reason by name, new worker count, thread),
// the worker series is the changes of ActiveWorkerThreadCount/RetiredWorkerThreadCount of
// TraceEvent's ThreadPoolWorkerThread/Start|Stop|Wait in time order, and the program's forced
// starvation shows as ≥ 2 injections with reason Starvation (MANIFEST.md "threadpool").
test("threadpool view = TraceEvent's ThreadPool events: net10-cpu-async-http", () => {
  const { events } = oracle('net10-cpu-async-http.nettrace');
  const v = view('threadpool', 'net10-cpu-async-http.nettrace');
  const ms = (e) => Number(e.ms);
  const adjustments = events.filter((e) => e.p === RUNTIME && e.n === 'ThreadPoolWorkerThreadAdjustment/Adjustment').sort((a, b) => ms(a) - ms(b));
  assert.equal(v.adjustments.length, adjustments.length);
  assert.deepEqual(
    v.adjustments.map((a) => [ms6(a.timeMs), a.reason, a.newWorkerThreadCount, a.thread, Number(a.averageThroughput.toFixed(3))]),
    adjustments.map((e) => [ms(e), fields(e).Reason, Number(fields(e).NewWorkerThreadCount), e.tid, Number(Number(fields(e).AverageThroughput).toFixed(3))]),
  );
  const starvation = v.adjustments.filter((a) => a.reason === 'Starvation');
  assert.ok(starvation.length >= 2, `${starvation.length} starvation injections`);
  assert.equal(v.starvationAdjustments, starvation.length);
  for (const a of starvation) assert.equal(a.reasonCode, 6);
  const counts = events.filter((e) => e.p === RUNTIME && /^ThreadPoolWorkerThread\/(Start|Stop|Wait)$/.test(e.n)).sort((a, b) => ms(a) - ms(b));
  const changes = [];
  for (const e of counts) {
    const f = fields(e);
    const [active, retired] = [Number(f.ActiveWorkerThreadCount), Number(f.RetiredWorkerThreadCount)];
    const last = changes[changes.length - 1];
    if (!last || last[1] !== active || last[2] !== retired) changes.push([ms(e), active, retired]);
  }
  assert.deepEqual(v.workers.map((p) => [ms6(p.timeMs), p.active, p.retired]), changes);
  assert.equal(v.events.workerWait, events.filter((e) => e.p === RUNTIME && e.n === 'ThreadPoolWorkerThread/Wait').length);
  const limits = events.filter((e) => e.p === RUNTIME && e.n === 'ThreadPoolMinMaxThreads').map((e) => fields(e));
  assert.deepEqual(v.minMax.map((m) => [m.minWorkerThreads, m.maxWorkerThreads, m.minIOCompletionThreads, m.maxIOCompletionThreads]),
    limits.map((f) => [f.MinWorkerThreads, f.MaxWorkerThreads, f.MinIOCompletionThreads, f.MaxIOCompletionThreads].map(Number)));
});

// Every committed trace TraceEvent decoded: the events counted per kind equal TraceEvent's
// events of those runtime ids, and the adjustments (time, reason, new count) its
// ThreadPoolWorkerThreadAdjustment/Adjustment events (eventpipe-dotnetcore3.0 has 8 starvation
// injections; the truncated 3.0 preview one, 1).
const THREADPOOL_IDS = {
  44: 'ioThreadCreate', 45: 'ioThreadTerminate', 46: 'ioThreadRetire', 47: 'ioThreadUnretire', 50: 'workerStart', 51: 'workerStop',
  52: 'retirementStart', 53: 'retirementStop', 54: 'adjustmentSample', 55: 'adjustment', 56: 'adjustmentStats', 57: 'workerWait',
  59: 'minMaxThreads', 60: 'workingThreadCount', 61: 'enqueue', 62: 'dequeue', 63: 'ioEnqueue', 64: 'ioDequeue', 65: 'ioPack',
};
test("threadpool view counts and adjustments = TraceEvent's on every oracle trace", () => {
  const names = readdirSync(oracleDir, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name);
  assert.ok(names.length >= 15);
  let withAdjustments = 0;
  for (const name of names) {
    const path = [join(testdata, name), join(testdata, 'dotnet10', name), join(testdata, 'heap', name), join(testdata, 'truncated', name)]
      .find((p) => existsSync(p));
    assert.ok(path, name);
    const r = runNative('threadpool', path);
    assert.ok(r.status === 0 || r.status === 1, r.stderr);  // a damaged trace: what was read
    const v = JSON.parse(r.stdout.toString('utf8'));
    const runtime = lines(join(oracleDir, name, 'events.jsonl.gz')).filter((e) => e.p === RUNTIME);
    // Counted per kind = TraceEvent's events with those runtime ids (58, YieldProcessorMeasurement, is not one).
    const expected = Object.fromEntries(Object.keys(v.events).map((k) => [k, 0]));
    for (const e of runtime) if (THREADPOOL_IDS[e.id]) expected[THREADPOOL_IDS[e.id]]++;
    assert.deepEqual(v.events, expected, name);
    const adjustments = runtime
      .filter((e) => e.p === RUNTIME && e.n === 'ThreadPoolWorkerThreadAdjustment/Adjustment')
      .sort((a, b) => Number(a.ms) - Number(b.ms));
    if (adjustments.length > 0) withAdjustments++;
    assert.deepEqual(
      v.adjustments.map((a) => [ms6(a.timeMs), a.reason, a.newWorkerThreadCount]),
      adjustments.map((e) => [ms6(Number(e.ms)), fields(e).Reason, Number(fields(e).NewWorkerThreadCount)]),
      name,
    );
  }
  assert.ok(withAdjustments >= 4, `${withAdjustments}`);
});

// Wait-handle waits (.NET 9+ WaitHandleWait/Start and /Stop, runtime events 301/302) on the
// recorded program whose `waits` scenario makes exactly 7 on one thread (MANIFEST.md
// "net10-bgc-waits-mcj"): every wait the view pairs is TraceEvent's Start (time, thread,
// WaitSource) with the same thread's next Stop (duration to the nanosecond, the trace's clock
// being 1 GHz); the waiter thread — the one that wrote TraceScenarios-Control/Marker "waiter" —
// has the program's 4 event waits then 3 Monitor waits, each timing out after ≥ 20 ms.
test("contention view wait-handle waits = TraceEvent's WaitHandleWait events, the waiter's = the program's 7: net10-bgc-waits-mcj", () => {
  const name = 'net10-bgc-waits-mcj.nettrace';
  const { events } = oracle(name);
  const v = view('contention', name);
  const ns = (e) => Math.round(Number(e.ms) * 1e6);
  const starts = events.filter((e) => e.p === RUNTIME && e.n === 'WaitHandleWait/Start');
  const stops = events.filter((e) => e.p === RUNTIME && e.n === 'WaitHandleWait/Stop');
  const pairs = [];
  for (const start of starts) {
    const stop = stops.find((s) => s.tid === start.tid && Number(s.ms) >= Number(start.ms));
    if (stop) pairs.push([start, stop]);
  }
  const ours = v.list.filter((w) => w.kind === 'waitHandle');
  assert.equal(v.waitHandle.starts, starts.length);
  assert.equal(v.waitHandle.waits, pairs.length);
  assert.equal(v.waitHandle.unpairedStarts, starts.length - pairs.length);
  assert.deepEqual(
    ours.map((w) => [ms6(w.timeMs), w.thread, w.detail, w.durationNs]).sort((a, b) => a[0] - b[0] || a[1] - b[1]),
    pairs.map(([s, e]) => [Number(s.ms), s.tid, { Unknown: 0, MonitorWait: 1 }[fields(s).WaitSource], ns(e) - ns(s)])
      .sort((a, b) => a[0] - b[0] || a[1] - b[1]),
  );
  const marker = events.filter((e) => e.p === 'TraceScenarios-Control' && e.n === 'Marker' && fields(e).what === 'waiter');
  assert.equal(marker.length, 1);
  const waiter = ours.filter((w) => w.thread === marker[0].tid);
  assert.deepEqual(waiter.map((w) => w.detail), [0, 0, 0, 0, 1, 1, 1]);
  for (const w of waiter) assert.ok(w.durationNs >= 20e6, `${w.durationNs} ns`);
  assert.equal(v.waitHandle.byThread.find((t) => t.thread === marker[0].tid).count, 7);
});

// Linux has no I/O completion threads: with the Threading keyword on and loopback socket I/O,
// the runtime writes no IOThread* and no worker-retirement event (MANIFEST.md), and the view's
// series are empty as TraceEvent's events are absent.
test('threadpool view on Linux with socket I/O: no IO-thread or retirement events, as TraceEvent: net10-bgc-waits-mcj', () => {
  const name = 'net10-bgc-waits-mcj.nettrace';
  const { events } = oracle(name);
  const v = view('threadpool', name);
  const ids = new Set([44, 45, 46, 47, 52, 53, 63, 64, 65]);
  assert.equal(events.filter((e) => e.p === RUNTIME && ids.has(e.id)).length, 0);
  for (const k of ['ioThreadCreate', 'ioThreadTerminate', 'ioThreadRetire', 'ioThreadUnretire', 'retirementStart', 'retirementStop', 'ioEnqueue', 'ioDequeue', 'ioPack'])
    assert.equal(v.events[k], 0, k);
  assert.equal(v.maxIoThreads, 0);
  // The session did ask for thread-pool events: the workers are there.
  assert.ok(v.events.workerStart > 0 && v.events.minMaxThreads === 1);
});
