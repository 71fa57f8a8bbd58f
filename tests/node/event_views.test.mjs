// The event views of issue 14 through the package API (wasm) and the npm CLI equal the
// native tool's output byte for byte: `nettrace exceptions|contention|activities|counters|threadpool
// FILE [--format csv]`, and the stack queries that narrow or weigh by them (flame
// --exception-type T, --weight wait-time), on every .NET 10 trace and a few published ones.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { openAsBlob } from 'node:fs';
import { join } from 'node:path';
import { root, runNative, testdata } from './helpers.mjs';

const { openTrace } = await import(join(root, 'dist/index.js'));
const bin = join(root, 'dist/bin/nettrace-analyzer.mjs');
const VIEWS = ['exceptions', 'contention', 'activities', 'counters', 'threadpool'];
const TRACES = [
  'dotnet10/net10-eventsource.nettrace',
  'dotnet10/net10-counters.nettrace',
  'dotnet10/net10-startup-streaming.nettrace',
  'dotnet10/net10-startup-at-exit.nettrace',
  'dotnet10/net10-ipc.netperf',
  'dotnet10/net10-cpu-async-http.nettrace',
  'dotnet10/net10-web-exceptions.nettrace',
  'dotnet10/net10-order-flows.nettrace',
  'eventpipe-dotnetcore3.0-win-x64-objver4.nettrace',
  'sentry-net6-profile-with-task.nettrace',
].map((name) => ({ name, path: join(testdata, name) }));

const COLUMNS = ['frame', 'parent', 'depth', 'start', 'end', 'self', 'count'];
const asNativeJson = (g) => ({
  unit: g.unit, total: g.total, frames: g.frameNames, ...(g.frameDetails ? { frameDetails: g.frameDetails } : {}),
  ...Object.fromEntries(COLUMNS.map((k) => [k, Array.from(g[k])])),
});

test('event views: the API equals the native tool (JSON and CSV)', async () => {
  for (const t of TRACES) {
    const trace = await openTrace(await openAsBlob(t.path));
    try {
      for (const view of VIEWS) {
        for (const format of ['json', 'csv']) {
          const r = runNative(view, t.path, ['--format', format]);
          assert.equal(r.status, 0, r.stderr);
          const native = r.stdout.toString('utf8');
          const mine = await trace.eventView(view, format);
          assert.equal(format === 'json' ? mine + '\n' : mine, native, `${t.name} ${view} ${format}`);
        }
      }
      // The typed methods parse the same documents.
      assert.deepEqual(await trace.exceptions(), JSON.parse(await trace.eventView('exceptions')));
      assert.deepEqual(await trace.contention(), JSON.parse(await trace.eventView('contention')));
      assert.deepEqual(await trace.activities(), JSON.parse(await trace.eventView('activities')));
      assert.deepEqual(await trace.counters(), JSON.parse(await trace.eventView('counters')));
      assert.deepEqual(await trace.threadPool(), JSON.parse(await trace.eventView('threadpool')));

      // Stack queries the views add: throws of each type, contention weighed by time waited.
      const exceptions = await trace.exceptions();
      for (const { type } of exceptions.types.slice(0, 4)) {
        const g = await trace.flameGraph({ event: 'Exception/Start', exceptionType: type });
        const r = runNative('flame', t.path, ['--event', 'Exception/Start', '--exception-type', type]);
        assert.deepEqual(asNativeJson(g), JSON.parse(r.stdout), `${t.name} ${type}`);
      }
      const waits = await trace.flameGraph({ event: 'Contention/Start', weight: 'wait-time' });
      const r = runNative('flame', t.path, ['--event', 'Contention/Start', '--weight', 'wait-time']);
      assert.deepEqual(asNativeJson(waits), JSON.parse(r.stdout), `${t.name} wait-time`);
      assert.equal(waits.total, (await trace.contention()).lock.totalNs);
    } finally {
      trace.close();
    }
  }
});

test('event views: the npm CLI prints what the native tool prints', () => {
  for (const t of TRACES.slice(0, 2)) {
    for (const view of VIEWS) {
      for (const args of [[], ['--format', 'csv']]) {
        const npm = spawnSync(process.execPath, [bin, view, t.path, ...args], { maxBuffer: 1 << 28 });
        assert.equal(npm.status, 0, npm.stderr.toString());
        assert.equal(npm.stdout.toString('utf8'), runNative(view, t.path, args).stdout.toString('utf8'), `${t.name} ${view} ${args}`);
      }
    }
  }
  // The thread pool view where the program forced starvation (the first two have few ThreadPool events).
  const tp = TRACES.find((t) => t.name === 'dotnet10/net10-cpu-async-http.nettrace');
  for (const args of [[], ['--format', 'csv']]) {
    const npm = spawnSync(process.execPath, [bin, 'threadpool', tp.path, ...args], { maxBuffer: 1 << 28 });
    assert.equal(npm.status, 0, npm.stderr.toString());
    assert.equal(npm.stdout.toString('utf8'), runNative('threadpool', tp.path, args).stdout.toString('utf8'), `threadpool ${args}`);
  }
  const bad = spawnSync(process.execPath, [bin, 'counters', TRACES[0].path, '--format', 'xml']);
  assert.equal(bad.status, 2);
  assert.equal(runNative('counters', TRACES[0].path, ['--format', 'xml']).status, 2);
});

test('event views: the recorded programs\' facts through the API', async () => {
  const trace = await openTrace(await openAsBlob(join(testdata, 'dotnet10/net10-eventsource.nettrace')));
  try {
    const ex = await trace.exceptions();
    assert.equal(ex.count, 13);
    assert.deepEqual(ex.types.map((t) => [t.type, t.count]), [
      ['System.InvalidOperationException', 7], ['System.ArgumentException', 3],
      ['TraceScenarios.ScenarioException', 2], ['System.FormatException', 1],
    ]);
    const c = await trace.contention();
    assert.equal(c.lock.waits, 12);
    assert.deepEqual(c.lock.byLock.map((l) => l.count).sort((a, b) => a - b), [4, 8]);
    const a = await trace.activities();
    const names = Object.fromEntries(a.names.filter((n) => n.provider === 'TraceScenarios-Activities').map((n) => [n.name, n.finished]));
    assert.deepEqual(names, { Phase: 8, Request: 4, Step: 16 });
  } finally {
    trace.close();
  }
});
