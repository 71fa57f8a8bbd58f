// Event queries through the package API equal the native tool: for every complete corpus
// trace, pages of `trace.events(query)` give exactly the lines `nettrace events` prints for
// the same query (details re-read from the source), from a Blob, bytes and a stream. Also
// eventDetail(), histogram() totals, the stack analyses when the native tool has them, and
// the package's bin.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createReadStream, existsSync, openAsBlob, readFileSync, rmSync, statSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { basename, join } from 'node:path';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { corpusTraces, root, runNative } from './helpers.mjs';

const { openTrace, NetTraceError } = await import(join(root, 'dist/index.js'));
const tmp = mkdtempSync(join(tmpdir(), 'nettrace-events-'));
// Every complete trace, NetPerf and NetTrace alike (the native tool must read each to its end).
const complete = corpusTraces().filter((t) => !t.truncated);
for (const t of complete) assert.equal(runNative('summary', t.path).status, 0, `${t.name}: the native tool does not read it`);

const native = (path, query) => {
  const args = [];
  for (const [k, flag] of [['provider', '--provider'], ['name', '--name'], ['thread', '--thread'], ['fromMs', '--from'],
    ['toMs', '--to'], ['limit', '--limit'], ['offset', '--offset']]) {
    if (query[k] !== undefined) args.push(flag, String(query[k]));
  }
  const r = runNative('events', path, args);
  assert.equal(r.status, 0, r.stderr);
  return r.stdout.toString('utf8');
};
const lines = (page) => page.json.map((l) => l + '\n').join('');

/** Queries that exercise paging, filters and windows, derived from the trace itself. */
function queriesFor(trace, summaryEvents) {
  const first = trace.summary();
  const qs = [{}, { offset: Math.floor(summaryEvents / 2), limit: 250 }, { offset: Math.max(0, summaryEvents - 7) }];
  const provider = JSON.stringify(first).match(/"provider(?:Name)?":"([^"]+)"/)?.[1];
  if (provider) qs.push({ provider, limit: 120, offset: 3 }, { provider: provider.toUpperCase(), limit: 5 });
  return qs;
}

test('events pages equal `nettrace events` for every corpus trace (Blob source)', async () => {
  for (const t of complete) {
    const trace = await openTrace(await openAsBlob(t.path));
    try {
      for (const q of queriesFor(trace, trace.eventCount)) {
        const page = await trace.events(q);
        assert.equal(lines(page), native(t.path, q), `${t.name} ${JSON.stringify(q)}`);
        assert.equal(page.rows.length, page.events.length);
        const all = await trace.events({ ...q, offset: 0, limit: 0 });
        assert.ok(all.total >= page.rows.length);
      }
      // A time window from the middle of the trace, the first thread seen.
      const sample = (await trace.events({ offset: Math.floor(trace.eventCount / 3), limit: 1 })).events[0];
      if (sample) {
        const q = { fromMs: sample.timeMs, toMs: sample.timeMs + 50, thread: sample.threadId, limit: 400 };
        assert.equal(lines(await trace.events(q)), native(t.path, q), `${t.name} ${JSON.stringify(q)}`);
      }
    } finally {
      trace.close();
    }
  }
});

test('every page of a trace, walked in steps, equals the native pages; eventDetail agrees', async () => {
  const t = complete.find((x) => x.name.startsWith('HeartRate')) ?? complete[0];
  const trace = await openTrace(readFileSync(t.path));
  try {
    const step = Math.ceil(trace.eventCount / 12);
    for (let offset = 0; offset < trace.eventCount; offset += step) {
      const q = { offset, limit: 60 };
      const page = await trace.events(q);
      assert.equal(lines(page), native(t.path, q), JSON.stringify(q));
      const detail = await trace.eventDetail(page.rows[7] ?? page.rows[0]);
      assert.deepEqual(detail, page.events[7] ?? page.events[0]);
      assert.equal(detail.detail, true);
    }
    await assert.rejects(trace.eventDetail(trace.eventCount), NetTraceError);
    await assert.rejects(trace.eventDetail(-1), NetTraceError);
  } finally {
    trace.close();
  }
});

test('a Node readable stream source keeps the bytes it needs for details', async () => {
  const t = complete.find((x) => x.name.startsWith('sentry')) ?? complete[0];
  const trace = await openTrace(createReadStream(t.path, { highWaterMark: 100_000 }));
  try {
    assert.equal(trace.summaryJson() + '\n', runNative('summary', t.path).stdout.toString('utf8'));
    const q = { offset: 10, limit: 300 };
    assert.equal(lines(await trace.events(q)), native(t.path, q));
  } finally {
    trace.close();
  }
  const bare = await openTrace(createReadStream(t.path), { keepStreamedBytes: false });
  try {
    const page = await bare.events({ limit: 3 }).catch((e) => e);
    assert.ok(page instanceof NetTraceError && page.code === 'source', 'without kept bytes, details cannot be read');
  } finally {
    bare.close();
  }
});

test('a file path is a source in Node', async () => {
  const t = complete[0];
  const trace = await openTrace(t.path);
  assert.equal(trace.summaryJson() + '\n', runNative('summary', t.path).stdout.toString('utf8'));
  trace.close();
  await assert.rejects(openTrace(join(root, 'no/such/file.nettrace')), (e) => e instanceof NetTraceError && e.code === 'source');
});

test('histogram totals equal the event query totals, per series and in windows', async () => {
  for (const t of complete) {
    const trace = await openTrace(await openAsBlob(t.path));
    try {
      const h = await trace.histogram({ buckets: 64 });
      assert.ok(h.counts instanceof Float64Array);
      assert.equal(h.counts.length, 64);
      const { total } = await trace.events({ limit: 0 });
      assert.equal(h.total, total, t.name);
      assert.equal(h.counts.reduce((a, b) => a + b, 0), total);
      const byProvider = await trace.histogram({ buckets: 16, groupBy: 'provider' });
      assert.equal(byProvider.counts.length, byProvider.series.length * 16);
      for (const [s, provider] of byProvider.series.entries()) {
        const n = byProvider.counts.subarray(s * 16, (s + 1) * 16).reduce((a, b) => a + b, 0);
        assert.equal(n, (await trace.events({ provider, limit: 0 })).total, `${t.name} ${provider}`);
      }
      const byThread = await trace.histogram({ buckets: 1, groupBy: 'thread' });
      assert.equal(byThread.total, total);
      for (const [s, id] of byThread.series.entries()) {
        assert.equal(byThread.counts[s], (await trace.histogram({ buckets: 1, thread: Number(id) })).total, `${t.name} thread ${id}`);
      }
      const mid = (h.fromMs + h.toMs) / 2;
      const w = await trace.histogram({ fromMs: h.fromMs, toMs: mid, buckets: 3 });
      assert.equal(w.total, (await trace.events({ fromMs: h.fromMs, toMs: mid, limit: 0 })).total);
    } finally {
      trace.close();
    }
  }
});

const nativeHasFlame = runNative('flame', complete[0].path).status === 0;
test('flame graph and top functions equal the native tool', { skip: !nativeHasFlame && 'the native tool has no flame command yet' }, async () => {
  for (const t of complete) {
    const trace = await openTrace(await openAsBlob(t.path));
    try {
      const g = await trace.flameGraph();
      const nativeGraph = JSON.parse(runNative('flame', t.path).stdout);
      assert.ok(g.frame instanceof Uint32Array && g.start instanceof Float64Array);
      // The default weight of CPU samples is dotnet-trace's thread time: its stitching state too.
      assert.deepEqual(
        { unit: g.unit, total: g.total, frames: g.frameNames, ...Object.fromEntries(['frame', 'parent', 'depth', 'start', 'end', 'self', 'count'].map((k) => [k, Array.from(g[k])])),
          ...(g.asyncStitching ? { asyncStitching: g.asyncStitching } : {}) },
        nativeGraph,
        t.name,
      );
      const folded = runNative('flame', t.path, ['--format', 'folded']);
      assert.equal(await trace.export('folded'), folded.stdout.toString('utf8'), t.name);
      // dotnet-trace's thread time (tests/node/thread_time.test.mjs judges it against dotnet-trace).
      const te = { weight: 'traceevent-thread-time', groupByThread: true };
      const teFolded = runNative('flame', t.path, ['--format', 'folded', '--weight', te.weight, '--by-thread']);
      assert.equal(await trace.export('folded', te), teFolded.stdout.toString('utf8'), `${t.name} ${te.weight}`);
      // With and without async stitching (core/analysis/stacks/async_stitching.h): the same document, asyncStitching too.
      for (const [options, args] of [[{}, []], [{ stitchAsync: false }, ['--no-stitch-async']]]) {
        const g2 = await trace.flameGraph({ weight: te.weight, ...options });
        const doc = { unit: g2.unit, total: g2.total, frames: g2.frameNames, ...Object.fromEntries(['frame', 'parent', 'depth', 'start', 'end', 'self', 'count'].map((k) => [k, Array.from(g2[k])])), asyncStitching: g2.asyncStitching };
        assert.deepEqual(doc, JSON.parse(runNative('flame', t.path, ['--weight', te.weight, ...args]).stdout), `${t.name} ${te.weight} ${args}`);
        const f = runNative('flame', t.path, ['--format', 'folded', '--weight', te.weight, '--by-thread', ...args]).stdout.toString('utf8');
        assert.equal(await trace.export('folded', { ...te, ...options }), f, `${t.name} folded ${te.weight} ${args}`);
      }
      const teTop = runNative('top', t.path, ['-n', '10', '--weight', te.weight]);
      if (teTop.status === 0) assert.deepEqual(await trace.topFunctions({ weight: te.weight }, 10), JSON.parse(teTop.stdout), `${t.name} top ${te.weight}`);
      const top = runNative('top', t.path, ['-n', '20']);
      if (top.status === 0) assert.deepEqual(await trace.topFunctions({}, 20), JSON.parse(top.stdout), t.name);
      const name = basename(t.path);
      // The export's default weight is the native export's (CPU samples: dotnet-trace's thread
      // time, evented); flame --format speedscope stays sampled, as export's sampled profile.
      const ssFile = join(tmp, 'speedscope.json');
      assert.equal(runNative('export', t.path, ['--format', 'speedscope', '-o', ssFile]).status, 0);
      assert.equal((await trace.export('speedscope', { name })) + '\n', readFileSync(ssFile, 'utf8'), t.name);
      const sampled = runNative('flame', t.path, ['--format', 'speedscope']).stdout.toString('utf8');
      assert.equal((await trace.export('speedscope', { name, speedscope: 'sampled' })) + '\n', sampled, `${t.name} sampled`);
      const out = join(tmp, 'export');
      for (const [format, ...args] of [['chrome'], ['csv'], ['csv', '--stack-text'], ['stacks-csv']]) {
        assert.equal(runNative('export', t.path, ['--format', format, ...args, '-o', out]).status, 0);
        const text = (await trace.export(format, { stackText: args.length > 0 })) + (format.endsWith('csv') ? '' : '\n');
        assert.ok(text === readFileSync(out, 'utf8'), `${t.name} export ${format} ${args} differs from native`);
      }
    } finally {
      trace.close();
    }
  }
});

test('the package bin prints what the native tool prints', () => {
  const bin = join(root, 'dist/bin/nettrace-analyzer.mjs');
  const commands = [['summary'], ['summary', '--chunk-size', '4096'], ['events', '--limit', '40', '--offset', '5'],
    ['events', '--limit', '30', '--offset', '100', '--frames'], ['stack', '0'], ['stack', '250']];
  if (nativeHasFlame) {
    commands.push(['flame'], ['flame', '--inverted'], ['flame', '--format', 'folded'], ['flame', '--format', 'speedscope'], ['top', '-n', '7']);
    // The options of the native tool's stack views, each through the npm CLI too.
    for (const weight of ['count', 'bytes', 'thread-time', 'managed-thread-time', 'traceevent-thread-time'])
      commands.push(['flame', '--format', 'folded', '--weight', weight], ['top', '-n', '5', '--weight', weight]);
    commands.push(['flame', '--by-process', '--by-thread', '--format', 'folded'], ['top', '--by-process', '-n', '3']);
    // Async stitching: the JSON's asyncStitching, and the option both ways.
    commands.push(['flame', '--weight', 'traceevent-thread-time'], ['flame', '--weight', 'traceevent-thread-time', '--no-stitch-async'],
      ['flame', '--format', 'folded', '--weight', 'traceevent-thread-time', '--by-thread', '--no-stitch-async', '--stitch-async']);
  }
  for (const t of complete.slice(0, 3)) {
    // 7-byte chunks through the JS read loop: on traces of a few MB (29 MB took minutes).
    const perTrace = statSync(t.path).size < 8 << 20 ? [['counts', '--chunk-size', '7']] : [];
    if (nativeHasFlame) {
      // sandwich FILE FUNCTION: the heaviest function, an unresolved frame and a missing one.
      const top = JSON.parse(runNative('top', t.path, ['-n', '1']).stdout.toString('utf8')).functions[0]?.name ?? '?!?';
      perTrace.push(['sandwich', top], ['sandwich', top, '--inverted', '--weight', 'thread-time', '--by-thread'],
        ['sandwich', '?!?'], ['sandwich', 'No.Such!Function']);
    }
    for (const args of [...commands, ...perTrace]) {
      const r = spawnSync(process.execPath, [bin, args[0], t.path, ...args.slice(1)], { maxBuffer: 1 << 28 });
      const native = runNative(args[0], t.path, args.slice(1));
      assert.equal(r.status, native.status, `${t.name} ${args}: ${r.stderr}`);
      assert.equal(r.stdout.toString('utf8'), native.stdout.toString('utf8'), `${t.name} ${args}`);
    }
  }
  const bad = spawnSync(process.execPath, [bin, 'summary', join(root, 'no-such.nettrace')]);
  assert.equal(bad.status, 1);
  assert.match(bad.stderr.toString(), /cannot open/);
});

test('every raw binding answers (embind reports unbound types only when called)', async () => {
  const { loadRawModule } = await import('./helpers.mjs');
  const M = await loadRawModule();
  const t = complete.find((x) => x.name.startsWith('only_managed')) ?? complete[0];
  const bytes = readFileSync(t.path);
  const session = new M.TraceSession();
  const p = M._malloc(bytes.length);
  M.HEAPU8.set(bytes, p);
  assert.ok(session.pushChunk(p, bytes.length).ok);
  M._free(p);
  assert.ok(session.finish().ok);
  assert.ok(session.storeBytesPerEvent() > 0);
  const top = JSON.parse(session.topFunctionsJson({}, 1));
  assert.equal(typeof session.sandwichJson({}, top.functions?.[0]?.name ?? 'x'), 'string');
  assert.equal(typeof session.flameGraphJson({ inverted: true, weight: 'count', groupByThread: true }), 'string');
  const h = session.histogram({ provider: null, thread: undefined, buckets: 3, groupBy: 'eventType' });
  assert.equal(h.counts.length, h.series.length * 3);
  assert.ok(h.series.length > 1 && h.series.every((s) => s.includes('/')), 'one series per event type');
  const stats = M.heapStats();
  assert.ok(stats.heapSize >= M.HEAPU8.length && stats.allocated > 0);
  session.delete();
});

test('convert and write-sample-universal through the package bin write what the native tool writes', () => {
  const bin = join(root, 'dist/bin/nettrace-analyzer.mjs');
  const truncated = corpusTraces().filter((t) => t.truncated);
  const netperf = corpusTraces().filter((t) => t.name.endsWith('.netperf')).slice(0, 1);
  const cases = [];
  for (const t of [...complete.slice(0, 3), ...truncated, ...netperf]) cases.push([t, []], [t, ['--from', '5', '--to', '50']]);
  cases.push([complete[0], ['--chunk-size', '4096']]);
  for (const [t, args] of cases) {
    const mine = join(tmp, 'npm.nettrace'), theirs = join(tmp, 'native.nettrace');
    rmSync(mine, { force: true }), rmSync(theirs, { force: true });
    const r = spawnSync(process.execPath, [bin, 'convert', t.path, mine, ...args]);
    const native = spawnSync(join(root, 'build/native/nettrace'), ['convert', t.path, theirs, ...args]);
    assert.equal(r.status, native.status, `${t.name} convert ${args}: ${r.stderr}`);
    assert.equal(existsSync(mine), existsSync(theirs), `${t.name} convert ${args}: output file`);
    if (existsSync(theirs)) assert.ok(readFileSync(mine).equals(readFileSync(theirs)), `${t.name} convert ${args}: bytes differ`);
    // The same events count in the message, partial or not.
    const count = (s) => s.toString().match(/(\d+) events written|wrote (\d+) events/)?.slice(1).find(Boolean);
    assert.equal(count(r.stderr), count(native.stderr), `${t.name} convert ${args}: ${r.stderr} vs ${native.stderr}`);
  }
  const mine = join(tmp, 'npm-universal.nettrace'), theirs = join(tmp, 'native-universal.nettrace');
  assert.equal(spawnSync(process.execPath, [bin, 'write-sample-universal', mine]).status, 0);
  assert.equal(spawnSync(join(root, 'build/native/nettrace'), ['write-sample-universal', theirs]).status, 0);
  assert.ok(readFileSync(mine).equals(readFileSync(theirs)), 'write-sample-universal bytes differ');
  const bad = spawnSync(process.execPath, [bin, 'convert', complete[0].path, join(tmp, 'no-such-dir', 'x.nettrace')]);
  assert.equal(bad.status, 1);
  assert.match(bad.stderr.toString(), /cannot create/);
});

test('convertTrace: the API converts from a Blob, bytes and a stream alike, in any chunk size', async () => {
  const { convertTrace } = await import(join(root, 'dist/index.js'));
  const t = complete.find((x) => x.name.startsWith('only_managed')) ?? complete[0];
  const theirs = join(tmp, 'native-api.nettrace');
  assert.equal(spawnSync(join(root, 'build/native/nettrace'), ['convert', t.path, theirs, '--to', '300']).status, 0);
  const want = readFileSync(theirs);
  for (const [source, chunkSize] of [[await openAsBlob(t.path), 4096], [readFileSync(t.path), undefined], [createReadStream(t.path), 65536]]) {
    const parts = [];
    const result = await convertTrace(source, (b) => { parts.push(Buffer.from(b)); }, { toMs: 300, chunkSize });
    assert.equal(result.error, null);
    assert.ok(result.eventsWritten > 0);
    assert.ok(Buffer.concat(parts).equals(want), `convertTrace(${source.constructor.name}, ${chunkSize}) differs from nettrace convert`);
  }
  // A truncated input: what was read before the fault, and the error with its offset.
  const cut = readFileSync(t.path).subarray(0, 300000);
  const parts = [];
  const partial = await convertTrace(cut, (b) => { parts.push(Buffer.from(b)); });
  assert.equal(partial.error?.code, 'truncated');
  assert.equal(typeof partial.error?.offset, 'number');
  assert.ok(partial.eventsWritten > 0 && Buffer.concat(parts).length > 0);
});

test('one option list: every command and option of the native tool exists in the npm CLI', () => {
  const nativeHelp = spawnSync(join(root, 'build/native/nettrace'), ['--help']).stdout.toString();
  const npmHelp = spawnSync(process.execPath, [join(root, 'dist/bin/nettrace-analyzer.mjs'), '--help']).stdout.toString();
  const nativeCommands = [...nativeHelp.split('options:')[0].matchAll(/^ {2}([a-z][a-z-]+) /gm)].map((m) => m[1]);
  const npmCommands = npmHelp.match(/commands:([^]*?)\n {2}\S/)[1].split(/[,\s]+/).filter(Boolean);
  assert.ok(nativeCommands.length >= 10, `native commands parsed: ${nativeCommands}`);
  // No exception any more: start-up tracing through a reverse diagnostic port is in
  // the npm CLI too (collect/live --diagnostic-port).
  const flags = (text) => new Set(text.match(/(?<![\w-])--?[a-z][a-z-]*/g));
  const npmFlags = flags(npmHelp);
  for (const c of nativeCommands) assert.ok(npmCommands.includes(c), `npm CLI lacks the command '${c}'`);
  for (const f of flags(nativeHelp)) {
    if (f !== '-h' && f !== '--help') assert.ok(npmFlags.has(f), `npm CLI lacks the option '${f}'`);
  }
});
