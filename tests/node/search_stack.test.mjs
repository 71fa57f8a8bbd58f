// The runtime signals of the summary, eventStack() and the free-text event search through the
// package API, against the native tool: `nettrace stack FILE ROW` and `nettrace events --text`
// must give exactly what the wasm engine gives; a search reports progress, can be cancelled,
// and finds text that only a payload field holds.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openAsBlob } from 'node:fs';
import { join } from 'node:path';
import { corpusTraces, root, runNative } from './helpers.mjs';

const { openTrace, NetTraceError } = await import(join(root, 'dist/index.js'));
const byName = (prefix) => corpusTraces().find((t) => t.name.startsWith(prefix));
const objver4 = byName('eventpipe-dotnetcore3.0-win-x64-objver4');
const samples = byName('only_managed_samples');
const sentry = byName('sentry-net6-profile-with-task');

const nativeEvents = (path, query) => {
  const args = [];
  for (const [k, flag] of [['provider', '--provider'], ['name', '--name'], ['thread', '--thread'], ['fromMs', '--from'],
    ['toMs', '--to'], ['limit', '--limit'], ['offset', '--offset'], ['text', '--text']]) {
    if (query[k] !== undefined) args.push(flag, String(query[k]));
  }
  const r = runNative('events', path, args);
  assert.equal(r.status, 0, r.stderr);
  return r.stdout.toString('utf8');
};
const lines = (page) => page.json.map((l) => l + '\n').join('');

test('summary: runtime signals and withStacks (wasm)', async () => {
  const trace = await openTrace(await openAsBlob(objver4.path));
  try {
    const s = trace.summary();
    assert.equal(s.runtime.gc.count, 478);
    assert.equal(s.runtime.gc.generations.reduce((n, g) => n + g.count, 0), 478);
    assert.equal(s.runtime.jit.methods, 54);
    assert.equal(s.runtime.contentions, 8);
    assert.ok(s.runtime.allocations.types.length > 0 && s.runtime.allocations.types.length <= 100);
    assert.equal(s.runtime.allocations.ticks, s.types.find((t) => t.name === 'GC/AllocationTick').count);
    for (const t of s.types) assert.ok(t.withStacks >= 0 && t.withStacks <= t.count, t.name);
    assert.ok(s.types.find((t) => t.name === 'GC/AllocationTick').withStacks > 35000);
  } finally {
    trace.close();
  }
});

test('eventStack() equals `nettrace stack` for events with and without stacks', async () => {
  for (const t of [samples, objver4, sentry]) {
    const trace = await openTrace(await openAsBlob(t.path));
    try {
      const step = Math.max(1, Math.floor(trace.eventCount / 15));
      let withFrames = 0;
      for (let row = 0; row < trace.eventCount; row += step) {
        const frames = await trace.eventStack(row);
        const r = runNative('stack', t.path, [String(row)]);
        assert.equal(r.status, 0, r.stderr);
        const addresses = await trace.eventStackAddresses(row);
        assert.deepEqual(JSON.parse(r.stdout.toString('utf8')), { index: row, frames, addresses }, `${t.name} row ${row}`);
        // One address per named frame (the UNMANAGED_CODE_TIME leaf has none).
        assert.equal(addresses.length, frames.filter((f) => f !== 'UNMANAGED_CODE_TIME').length, `${t.name} row ${row}`);
        if (frames.length) withFrames++;
      }
      if (t === samples) assert.ok(withFrames > 0);
      await assert.rejects(trace.eventStack(trace.eventCount), NetTraceError);
      await assert.rejects(trace.eventStack(-1), NetTraceError);
      await assert.rejects(trace.eventStackAddresses(trace.eventCount), NetTraceError);
    } finally {
      trace.close();
    }
  }
});

test('events({text}) pages equal `nettrace events --text`', async () => {
  for (const t of [objver4, sentry]) {
    const trace = await openTrace(await openAsBlob(t.path));
    try {
      const queries = [
        { text: 'Char[]' },
        { text: 'sample', offset: 10, limit: 50 },
        { text: 'SYSTEM.PRIVATE', limit: 300 },
        { text: 'char', name: 'GC/AllocationTick', offset: 5, limit: 20 },
        { text: 'threadpool', fromMs: 0, toMs: 4000 },
        { text: 'no such text anywhere' },
      ];
      for (const q of queries) {
        const page = await trace.events(q);
        assert.equal(lines(page), nativeEvents(t.path, q), `${t.name} ${JSON.stringify(q)}`);
        const all = nativeEvents(t.path, { ...q, offset: 0, limit: 1e9 });
        assert.equal(page.total, all === '' ? 0 : all.trimEnd().split('\n').length, `${t.name} ${JSON.stringify(q)} total`);
      }
    } finally {
      trace.close();
    }
  }
});

test('a text search reports progress, is cancellable, caches its matches, finds payload-only text', async () => {
  const trace = await openTrace(await openAsBlob(objver4.path));
  try {
    const reports = [];
    const page = await trace.events({ text: 'StringReader', limit: 10 }, { onProgress: (p) => reports.push(p) });
    assert.ok(page.total > 0);
    assert.ok(reports.length > 1);
    const last = reports.at(-1);
    assert.equal(last.scanned, last.total);
    assert.equal(last.matches, page.total);
    for (let i = 1; i < reports.length; i++) assert.ok(reports[i].scanned >= reports[i - 1].scanned);
    // Only a payload field (GC/AllocationTick's TypeName) holds it.
    for (const e of page.events) {
      assert.ok(!/stringreader/i.test(e.provider + e.name));
      assert.ok(e.payload.fields.some((f) => /stringreader/i.test(String(f.value))), JSON.stringify(e));
    }
    // The same query again, another page: from the cached match list, no new scan.
    const again = [];
    const next = await trace.events({ text: 'StringReader', offset: 10, limit: 10 }, { onProgress: (p) => again.push(p) });
    assert.equal(again.length, 0);
    assert.equal(next.total, page.total);

    // Cancelled before it starts, and in the middle.
    await assert.rejects(trace.events({ text: 'zq-none-1' }, { signal: AbortSignal.abort() }), (e) => e instanceof NetTraceError && e.code === 'cancelled');
    const controller = new AbortController();
    await assert.rejects(
      trace.events({ text: 'zq-none-2' }, { signal: controller.signal, onProgress: () => controller.abort() }),
      (e) => e instanceof NetTraceError && e.code === 'cancelled',
    );
    // The handle still answers afterwards.
    assert.equal((await trace.events({ text: 'zq-none-2', limit: 1 })).total, 0);
  } finally {
    trace.close();
  }
});
