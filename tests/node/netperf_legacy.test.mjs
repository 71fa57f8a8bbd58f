// NetPerf versions 1 and 2 (.NET Core 2.0; core/format/netperf_stream.h). No real file of
// either exists: tests/netperf_legacy/data holds the two real NetPerf v3 traces rewritten into
// each layout by tests/netperf_legacy/make_v1_v2.mjs (README.md there), which TraceEvent
// 2.0.56 reads with the counts asserted here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, openAsBlob, readFileSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { root, runNative } from './helpers.mjs';

const { openTrace, convertTrace } = await import(join(root, 'dist/index.js'));

const dir = join(root, 'tests/netperf_legacy');
const tmp = mkdtempSync(join(tmpdir(), 'netperf-legacy-'));
const traces = [];
for (const source of ['objver3', 'tracelogging']) {
  for (const version of [1, 2]) {
    const name = `eventpipe-netperf-v${version}-${source}.netperf`;
    const path = join(tmp, name);
    writeFileSync(path, gunzipSync(readFileSync(join(dir, 'data', `${name}.gz`))));
    traces.push({ name, path, version, source, v3: `eventpipe-dotnetcore2.1-linux-x64-${source}.netperf` });
  }
}

// TraceEvent's counts of the v3 original (tests/data/oracle), key and count only.
function baselineCounts(v3) {
  return readFileSync(join(root, 'tests/data/oracle', v3, 'counts.txt'), 'utf8')
    .split('\n').filter(Boolean).map((l) => l.split(', ').slice(0, 2).join(', ')).join('\n') + '\n';
}

// Naming rule: version 1 stores a provider's GUID, never its name. TraceEvent (2.0.56, and our
// reader) names the runtime's providers from a fixed table and any other GUID — here MySource's
// EventSource name hash — "Provider(<guid>)", so the keys sort as TraceEvent sorts them.
function expectedCounts(t) {
  const counts = baselineCounts(t.v3);
  if (t.version !== 1) return counts;
  return counts.replaceAll('MySource/', 'Provider(a61ea624-4944-55fc-c2a8-37838829438d)/')
    .split('\n').filter(Boolean).sort().join('\n') + '\n';
}

test('the committed v1/v2 files are what the generator makes from the real v3 traces', () => {
  for (const t of traces) {
    const out = join(tmp, `regen-${t.name}`);
    const r = spawnSync(process.execPath, [join(dir, 'make_v1_v2.mjs'), join(root, 'tests/data', `${t.v3}.gz`), String(t.version), out]);
    assert.equal(r.status, 0, r.stderr.toString());
    assert.ok(readFileSync(out).equals(readFileSync(t.path)), t.name);
  }
});

test('per-type counts equal TraceEvent\'s baselines of the v3 originals (and TraceEvent 2.0.56\'s of these files)', () => {
  for (const t of traces) {
    const r = runNative('counts', t.path);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout.toString(), expectedCounts(t), t.name);
  }
});

test('summaries: golden files, whole; chunk sizes 1, 7, 4096 and whole give the same', () => {
  for (const t of traces) {
    const whole = runNative('summary', t.path, ['--chunk-size', String(64 << 20)]).stdout.toString();
    assert.equal(whole, readFileSync(join(dir, 'golden', `${t.name}.summary.json`), 'utf8'), t.name);
    const sizes = t.source === 'tracelogging' ? [1, 7, 4096] : [7, 4096];  // objver3: 10 MB
    for (const size of sizes) assert.equal(runNative('summary', t.path, ['--chunk-size', String(size)]).stdout.toString(), whole, `${t.name} chunks of ${size}`);
    const s = JSON.parse(whole);
    assert.deepEqual([s.format.container, s.format.major, s.complete, s.trace.pointerSize], ['NetPerf FastSerialization', t.version, true, 8]);
  }
});

test('wasm (openTrace of a Blob, of bytes in 7-byte chunks) = native; the end of the file is read first, and said', async () => {
  for (const t of traces) {
    const native = runNative('summary', t.path).stdout.toString();
    const progress = [];
    const a = await openTrace(await openAsBlob(t.path), { onProgress: (p) => progress.push(p.phase) });
    assert.equal(a.summaryJson() + '\n', native, t.name);
    assert.equal(await a.traceEventCounts(), expectedCounts(t));
    assert.equal(progress.filter((p) => p === 'reading-end').length, 1, `${t.name}: ${progress}`);
    a.close();
    if (t.source === 'tracelogging') {
      const b = await openTrace(readFileSync(t.path), { chunkSize: 7 });
      assert.equal(b.summaryJson() + '\n', native);
      b.close();
    }
  }
});

test('the npm CLI (a file: read from its end first; stdin: refused with the reason) = native', () => {
  const bin = join(root, 'dist/bin/nettrace-analyzer.mjs');
  for (const t of traces) {
    const r = spawnSync(process.execPath, [bin, 'summary', t.path], { maxBuffer: 64 << 20 });
    assert.equal(r.stdout.toString(), runNative('summary', t.path).stdout.toString(), t.name);
  }
  const t = traces.find((x) => x.name === 'eventpipe-netperf-v1-tracelogging.netperf');
  const r = spawnSync(process.execPath, [bin, 'summary', '-'], { input: readFileSync(t.path) });
  assert.match(r.stderr.toString(), /NetPerf version 1 needs the end of the file before its events/);
});

test('a stream (no end to read first) is refused with the reason', async () => {
  const t = traces.find((x) => x.name === 'eventpipe-netperf-v2-tracelogging.netperf');
  const bytes = readFileSync(t.path);
  async function* stream() { for (let at = 0; at < bytes.length; at += 1000) yield bytes.subarray(at, at + 1000); }
  await assert.rejects(openTrace(stream()), (e) =>
    e.code === 'invalid-argument' && e.offset === 1000 && /needs the end of the file before its events/.test(e.message));
});

test('nettrace convert (native and convertTrace) reads back with the same counts', async () => {
  for (const t of traces) {
    const out = join(tmp, `${t.name}.nettrace`);
    assert.equal(runNative('convert', t.path, [out]).status, 0);
    assert.equal(runNative('counts', out).stdout.toString(), expectedCounts(t), t.name);
    if (t.source !== 'tracelogging') continue;
    const parts = [];
    const r = await convertTrace(await openAsBlob(t.path), (b) => parts.push(Buffer.from(b)));
    assert.equal(r.error, null);
    assert.ok(Buffer.concat(parts).equals(readFileSync(out)), 'convertTrace = nettrace convert');
  }
});

test('damaged v1/v2 files: errors name the offset', () => {
  const t = traces.find((x) => x.name === 'eventpipe-netperf-v1-tracelogging.netperf');
  const good = readFileSync(t.path);
  const size = good.length;
  const table = good.readUInt32LE(size - 8);
  const end = good.readUInt32LE(table + 4);
  const firstEvent = 4 + 20 + 3 + 12 + 38 + 1 + 36;
  const run = (bytes) => {
    const p = join(tmp, 'damaged.netperf');
    writeFileSync(p, bytes);
    return JSON.parse(runNative('summary', p).stdout.toString()).error;
  };
  const at = (offset, edit) => { const b = Buffer.from(good); edit(b, offset); return b; };
  const cases = [
    [good.subarray(0, size - 100), "truncated", size - 100 - 4, /the file is truncated/],
    [at(size - 8, (b, o) => b.writeUInt32LE(5, o)), 'corrupt', size - 8, /forward-reference table offset 5/],
    [at(table, (b, o) => b.writeUInt32LE(3, o)), 'corrupt', table, /count 3 does not reach the trailer/],
    [at(table + 4, (b, o) => b.writeUInt32LE(table + 2, o)), 'corrupt', table + 4, /is not between the first event/],
    [at(end, (b, o) => { b[o] = 0; }), 'corrupt', end, /expected the end tag \(6\)/],
    [at(firstEvent, (b, o) => b.writeUInt32LE(0x7fffff00, o)), 'corrupt', firstEvent, /runs past the end of the events/],
    [good.subarray(0, 2000), 'truncated', 2000 - 4, /as its own/],
  ];
  for (const [bytes, code, offset, message] of cases) {
    const e = run(bytes);
    assert.deepEqual([e.code, e.offset], [code, offset], JSON.stringify(e));
    assert.match(e.message, message);
  }
});

test('every event (fields, decoded payload, stack) equals the v3 original\'s, but the process id (not stored: 0) and the payload offset', () => {
  const v3 = join(tmp, 'v3-tracelogging.netperf');
  writeFileSync(v3, gunzipSync(readFileSync(join(root, 'tests/data/eventpipe-dotnetcore2.1-linux-x64-tracelogging.netperf.gz'))));
  const strip = (text) => text.replace(/"(processId|payloadOffset)":\d+,/g, '');
  const original = strip(runNative('events', v3, ['--limit', '100', '--frames']).stdout.toString());
  assert.equal(original.split('\n').length, 13);
  for (const t of traces.filter((x) => x.source === 'tracelogging')) {
    const raw = runNative('events', t.path, ['--limit', '100', '--frames']).stdout.toString();
    assert.equal(raw.match(/"processId":0,/g).length, 12, 'no process id is stored: 0, as TraceEvent');
    let events = strip(raw);
    if (t.version === 1) events = events.replaceAll('"provider":"Provider(a61ea624-4944-55fc-c2a8-37838829438d)"', '"provider":"MySource"');
    assert.equal(events, original, t.name);
  }
});
