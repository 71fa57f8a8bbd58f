// The public JS API (dist/index.js, what the npm package exports) in Node: openTrace() on a
// file-backed Blob and on bytes, progress, cancel, and errors that keep the partial summary.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, openAsBlob, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { corpusTraces, root, runNative } from './helpers.mjs';

const { openTrace, NetTraceError, PUSH_SIZE } = await import(join(root, 'dist/index.js'));
const traces = corpusTraces();
const complete = traces.filter((t) => !t.truncated);
const truncated = traces.filter((t) => t.truncated);
const biggest = [...complete].sort((a, b) => readFileSync(b.path).length - readFileSync(a.path).length)[0];

test('openTrace(Blob from fs.openAsBlob) matches the native summary, with progress', async () => {
  const native = runNative('summary', biggest.path);
  assert.equal(native.status, 0);
  // Read from the Blob's stream (the default) and by slices: one report per push. By slices a
  // 4 MiB chunk is pushed in 1 MiB slices; from the stream each push is one piece of it or a
  // ≤ 1 MiB slice of a bigger one.
  for (const fileRead of ['stream', 'slices']) {
    const blob = await openAsBlob(biggest.path);
    const progress = [];
    const trace = await openTrace(blob, { fileRead, onProgress: (p) => progress.push(p) });
    try {
      assert.equal(trace.summaryJson() + '\n', native.stdout.toString('utf8'));
      assert.equal(trace.summary().eventCount, JSON.parse(native.stdout).eventCount);
      assert.equal(trace.bytes, blob.size);
      const reading = progress.filter((p) => p.phase === 'reading');
      if (fileRead === 'slices') assert.equal(reading.length, Math.ceil(blob.size / PUSH_SIZE), 'one progress report per 1 MiB pushed');
      else assert.ok(reading.length >= Math.ceil(blob.size / PUSH_SIZE), 'at least one progress report per 1 MiB pushed');
      assert.deepEqual(progress.at(-1), { bytes: blob.size, total: blob.size, events: trace.eventCount, phase: 'done' });
      // The method names stacks can name, left in the file while reading, are read back after
      // the last push and before "done": bytes and total are then those of the names.
      const names = progress.filter((p) => p.phase === 'names');
      assert.ok(names.length > 0 && names.at(-1).bytes === names.at(-1).total && names.at(-1).total > 0, JSON.stringify(names.at(-1)));
      assert.ok(progress.indexOf(names[0]) > progress.indexOf(reading.at(-1)), 'names are read back after the last push');
      assert.ok(names[0].bytes === 0 && names.every((p, i) => i === 0 || p.bytes > names[i - 1].bytes),
        'one report before the first range is read, one after each');
      for (let i = 1; i < reading.length; i++) {
        const step = reading[i].bytes - reading[i - 1].bytes;
        assert.ok(step > 0 && step <= PUSH_SIZE, `${fileRead}, report ${i}: ${step} bytes after the one before`);
      }
      assert.equal(await trace.traceEventCounts(), runNative('counts', biggest.path).stdout.toString('utf8'));
    } finally {
      trace.close();
    }
    await assert.rejects(trace.traceEventCounts(), NetTraceError, 'a closed handle refuses calls');
    await assert.rejects(trace.events(), NetTraceError);
  }
});

test('openTrace(Uint8Array) and openTrace(ArrayBuffer) give the same summary as a Blob', async () => {
  const trace = complete.find((t) => t.name.startsWith('pyroscope')) ?? complete[0];
  const bytes = readFileSync(trace.path);
  const a = await openTrace(bytes, { chunkSize: 65536 });
  const b = await openTrace(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length));
  const c = await openTrace(await openAsBlob(trace.path), { fileRead: 'slices', chunkSize: 1000 });
  const d = await openTrace(await openAsBlob(trace.path)); // from its stream
  assert.equal(a.summaryJson(), b.summaryJson());
  assert.equal(a.summaryJson(), c.summaryJson());
  assert.equal(a.summaryJson(), d.summaryJson());
  for (const h of [a, b, c, d]) h.close();
});

test('a stream source (no re-reads) keeps its names as it reads them: no "names" phase, the same frames', async () => {
  const trace = complete.find((t) => t.name.startsWith('pyroscope')) ?? complete[0];
  const blob = await openAsBlob(trace.path);
  const phases = (progress) => [...new Set(progress.map((p) => p.phase))];
  const fromBlob = [];
  const fromStream = [];
  const a = await openTrace(blob, { onProgress: (p) => fromBlob.push(p) });
  const b = await openTrace(blob.stream(), { keepStreamedBytes: false, onProgress: (p) => fromStream.push(p) });
  try {
    assert.deepEqual(phases(fromBlob), ['reading', 'names', 'done']);
    assert.deepEqual(phases(fromStream), ['reading', 'done']);
    assert.equal(a.summaryJson(), b.summaryJson());
    const folded = await a.export('folded');
    assert.ok(folded.includes('!'), 'managed frames are named');
    assert.equal(folded, await b.export('folded'));
  } finally {
    a.close();
    b.close();
  }
});

test('a truncated trace rejects with code, offset and the partial summary', async () => {
  assert.ok(truncated.length > 0, 'the corpus has a truncated trace');
  for (const trace of truncated) {
    const native = runNative('summary', trace.path);
    await assert.rejects(openTrace(await openAsBlob(trace.path)), (e) => {
      assert.ok(e instanceof NetTraceError);
      assert.equal(e.code, 'truncated');
      assert.equal(typeof e.offset, 'number');
      assert.ok(e.offset > 0 && e.offset <= readFileSync(trace.path).length);
      assert.ok(e.partial.eventCount > 0);
      assert.deepEqual(e.partial, JSON.parse(native.stdout));
      return true;
    });
  }
});

test('aborting the signal cancels between chunks', async () => {
  const controller = new AbortController();
  let reports = 0;
  const opening = openTrace(await openAsBlob(biggest.path), {
    chunkSize: 256 * 1024,
    signal: controller.signal,
    onProgress: () => {
      if (++reports === 2) controller.abort();
    },
  });
  await assert.rejects(opening, (e) => e instanceof NetTraceError && e.code === 'cancelled' && e.partial !== null);
  assert.equal(reports, 2, 'no chunk is read after the abort');
});

test('keepPartial: a truncated trace and a cancelled read resolve with what was read', async () => {
  // Damaged: the events before the fault, as the native tool reads them.
  const cut = readFileSync(biggest.path).subarray(0, 300_000);
  const damaged = await openTrace(cut, { keepPartial: true });
  try {
    assert.equal(damaged.error?.code, 'truncated');
    const path = join(mkdtempSync(join(tmpdir(), 'nettrace-cut-')), 'cut.nettrace');
    writeFileSync(path, cut);
    const native = runNative('summary', path);
    assert.notEqual(native.status, 0);
    assert.equal(damaged.summaryJson() + '\n', native.stdout.toString('utf8'), 'the summary of what was read equals the native one');
    assert.ok(damaged.eventCount > 0);
    assert.equal((await damaged.events({ limit: 1 })).total, damaged.eventCount);
  } finally {
    damaged.close();
  }
  // Cancelled: one event count everywhere, and the summary says "cancelled", not "truncated".
  const controller = new AbortController();
  let reports = 0;
  const trace = await openTrace(await openAsBlob(biggest.path), {
    keepPartial: true,
    chunkSize: 256 * 1024,
    signal: controller.signal,
    onProgress: () => {
      if (++reports === 2) controller.abort();
    },
  });
  try {
    assert.equal(trace.error?.code, 'cancelled');
    assert.equal(trace.error.offset, trace.bytes);
    const summary = trace.summary();
    assert.equal(summary.error.code, 'cancelled');
    assert.equal(summary.complete, false);
    assert.ok(trace.eventCount > 0 && summary.eventCount === trace.eventCount);
    assert.equal((await trace.events({ limit: 1 })).total, trace.eventCount, 'every event read is queryable');
  } finally {
    trace.close();
  }
});

/**
 * Opens `source` and aborts its signal at each "names" report (the first comes before the first
 * range is read); `later`: from another task (setImmediate), not within the report.
 * @returns the open's promise and every progress report.
 */
function openAbortingAtNames(source, { keepPartial, later = false }) {
  const controller = new AbortController();
  const progress = [];
  const abort = () => controller.abort();
  const opening = openTrace(source, {
    keepPartial,
    signal: controller.signal,
    onProgress: (p) => {
      progress.push(p);
      if (p.phase === 'names') later ? setImmediate(abort) : abort();
    },
  });
  return { opening, progress };
}

test('a cancel while method names are read back: rejects, or with keepPartial keeps every event, some frames unnamed', async () => {
  const blob = await openAsBlob(biggest.path);
  const full = await openTrace(blob);
  const fullSummary = full.summaryJson();
  const fullFolded = await full.export('folded');
  full.close();
  const open = (keepPartial) => openAbortingAtNames(blob, { keepPartial });
  const phases = (progress) => progress.map((p) => p.phase).filter((p) => p !== 'reading');
  const rejected = open(false);
  await assert.rejects(rejected.opening, (e) => e instanceof NetTraceError && e.code === 'cancelled' && e.offset === null &&
    /method names was cancelled/.test(e.message) && e.partial?.eventCount === JSON.parse(fullSummary).eventCount);
  assert.deepEqual(phases(rejected.progress), ['names'], 'no range is read after the abort, and no "done"');

  const kept = open(true);
  const trace = await kept.opening;
  try {
    assert.deepEqual(phases(kept.progress), ['names'], 'no range is read after the abort, and no "done"');
    assert.equal(trace.error?.code, 'cancelled');
    assert.equal(trace.error.offset, null, 'not a position in the file: every byte was read');
    assert.match(trace.error.message, /method names was cancelled/);
    assert.equal(trace.summaryJson(), fullSummary, 'every event was read: the summary is the complete one');
    assert.equal(trace.summary().complete, true);
    // The same stacks, weighed the same; the frames whose names were not read back are unnamed.
    const folded = await trace.export('folded');
    const total = (text) => text.trim().split('\n').reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
    assert.equal(total(folded), total(fullFolded));
    assert.notEqual(folded, fullFolded, 'frames that the names read back would name are not named');
    assert.match(folded, /![^;]*MethodID\(0x[0-9a-f]+\)/, 'a method whose names were not read back is its module and its id, as one announced without names');
  } finally {
    trace.close();
  }
});

test('a cancel from another task lands between two ranges of names, even when they are read from memory', async () => {
  // Bytes in memory re-read without a task turn: the loop yields one after each range, as
  // between pushes, so that a timer or the engine worker's cancel message gets in.
  const { opening, progress } = openAbortingAtNames(readFileSync(biggest.path), { keepPartial: true, later: true });
  const trace = await opening;
  const names = progress.filter((p) => p.phase === 'names');
  try {
    assert.equal(trace.error?.code, 'cancelled');
    assert.ok(names.length <= 2 && names.at(-1).bytes < names.at(-1).total, `stopped after at most one range: ${JSON.stringify(names)}`);
  } finally {
    trace.close();
  }
});

test('keepPartial: a damaged trace whose names read back are cancelled keeps its fault, and says so', async () => {
  const bytes = readFileSync(biggest.path);
  const { opening, progress } = openAbortingAtNames(bytes.subarray(0, Math.floor(bytes.length * 0.3)), { keepPartial: true });
  const trace = await opening;
  try {
    assert.ok(progress.some((p) => p.phase === 'names'), 'the part read has names to read back');
    assert.equal(trace.error?.code, 'truncated');
    assert.equal(typeof trace.error.offset, 'number');
    assert.match(trace.error.reason, /; reading back the method names was cancelled/);
    assert.equal(trace.summary().complete, false);
  } finally {
    trace.close();
  }
});

test('garbage input is an error, not a crash', async () => {
  const junk = new TextEncoder().encode('this is not a trace, just some text long enough to look at');
  await assert.rejects(openTrace(junk), (e) => e instanceof NetTraceError && e.code !== 'engine');
  await assert.rejects(openTrace(new Uint8Array(0)), NetTraceError);
});
