// Reads issued ahead (web/src/reader/read_ahead.ts) through the public API in Node, where a file
// is a Blob from fs.openAsBlob or a path (FileHandle reads: the npm package's and CLI's path): the reads of the next
// chunks start before the push of the current one returns, never more than `readAhead` of them
// beyond the one awaited; the summary is the native one byte for byte at any chunk size and
// depth; a cancelled read returns only once no read is in flight. Counted on the source
// (tests/node/read_ahead_probe.mjs), not timed; between two pushes the event loop turns.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openAsBlob, readdirSync, readFileSync, readlinkSync, realpathSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { corpusTraces, root, runNative } from './helpers.mjs';
import { cancelAfterSecondPush, probedBlob, readAheadViolations } from './read_ahead_probe.mjs';

const { openTrace, NetTraceError, DEFAULT_READ_AHEAD, PUSH_SIZE } = await import(join(root, 'dist/index.js'));
const complete = corpusTraces().filter((t) => !t.truncated);
const named = (prefix) => complete.find((t) => t.name.startsWith(prefix));
const biggest = [...complete].sort((a, b) => statSync(b.path).size - statSync(a.path).size)[0];
const nativeSummary = (path) => {
  const r = runNative('summary', path);
  assert.equal(r.status, 0);
  return r.stdout.toString('utf8');
};
/** A macrotask: the probe answers each read one event-loop turn late, so reads are in flight when looked at. */
const macrotask = () => new Promise((resolve) => setImmediate(resolve));
// FileHandle.close() finishes on libuv's thread pool, after a number of turns that depends on
// the machine's load: wait for the count to come down, for at most 5 s (a file never closed
// still fails).
async function fdsSettleTo(want) {
  const deadline = Date.now() + 5000;
  while (openFds() !== want && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
  return openFds();
}

test('the default depth is 2 reads ahead', () => {
  assert.equal(DEFAULT_READ_AHEAD, 2);
});

test('reads ahead: the next reads start before the push returns, at most readAhead beyond the awaited one', async () => {
  const chunkSize = 1024 * 1024; // = PUSH_SIZE: one push, one progress report per chunk
  assert.equal(chunkSize, PUSH_SIZE);
  const size = statSync(biggest.path).size;
  const chunks = Math.ceil(size / chunkSize);
  const native = nativeSummary(biggest.path);
  for (const readAhead of [0, 1, 2, 4, undefined]) {
    const probe = probedBlob(await openAsBlob(biggest.path), macrotask);
    const options = { chunkSize, onProgress: probe.onProgress, ...(readAhead === undefined ? {} : { readAhead }) };
    const trace = await openTrace(probe.blob, options);
    try {
      assert.equal(trace.summaryJson() + '\n', native, `readAhead ${readAhead}: summary = native`);
    } finally {
      trace.close();
    }
    assert.deepEqual(readAheadViolations(probe, { chunks, ahead: readAhead ?? DEFAULT_READ_AHEAD }), [], `readAhead ${readAhead}`);
  }
});

test('summaries are the native ones byte for byte with read-ahead, at chunk sizes 7 B, 1 KiB, 4096 B, 1 MiB', async () => {
  const small = named('pyroscope-net5-single-thread');
  // Tiny chunks mean one read per chunk (49k at 7 B): the default depth only there.
  const cases = [
    [small, 7, [DEFAULT_READ_AHEAD]],
    [biggest, 1024, [DEFAULT_READ_AHEAD]],
    [biggest, 4096, [DEFAULT_READ_AHEAD, 4]],
    [biggest, 1024 * 1024, [DEFAULT_READ_AHEAD, 4]],
    [named('eventpipe-dotnetcore2.1-linux-x64-objver3'), 4096, [DEFAULT_READ_AHEAD, 4]], // a NetPerf v3 file
  ];
  for (const [trace, chunkSize, depths] of cases) {
    const native = nativeSummary(trace.path);
    for (const readAhead of depths) {
      const probe = probedBlob(await openAsBlob(trace.path));
      const handle = await openTrace(probe.blob, { chunkSize, readAhead, onProgress: probe.onProgress });
      try {
        assert.equal(handle.summaryJson() + '\n', native, `${trace.name} at ${chunkSize} B, ${readAhead} ahead`);
      } finally {
        handle.close();
      }
      assert.ok(probe.maxAhead <= readAhead + 1, `${trace.name} at ${chunkSize} B: ${probe.maxAhead} reads ahead`);
      assert.equal(probe.started, Math.ceil(statSync(trace.path).size / chunkSize), 'each chunk read once');
    }
  }
});

test('a cancelled read rejects only once no read is in flight, and none starts after', async () => {
  const chunkSize = 256 * 1024;
  for (const readAhead of [1, DEFAULT_READ_AHEAD, 4]) {
    const { error, inFlightAtAbort, probe } = await cancelAfterSecondPush(openTrace, await openAsBlob(biggest.path), { chunkSize, readAhead });
    assert.ok(error instanceof NetTraceError && error.code === 'cancelled', `readAhead ${readAhead}: the open rejected as cancelled (${error})`);
    assert.equal(inFlightAtAbort, readAhead, `readAhead ${readAhead}: reads in flight when the abort came`);
    assert.equal(probe.inFlight, 0, `readAhead ${readAhead}: no read pending once the open rejected`);
    assert.equal(probe.started, 2 + readAhead, 'no read started after the abort');
  }
});

test('a read that fails is a "source" error at the offset of its chunk', async () => {
  const blob = await openAsBlob(biggest.path);
  const failAt = 3 * 65536;
  const failing = {
    size: blob.size,
    slice: (start, end) => ({
      arrayBuffer: () => (start === failAt ? Promise.reject(new Error('the file changed')) : blob.slice(start, end).arrayBuffer()),
    }),
  };
  await assert.rejects(openTrace(failing, { chunkSize: 65536 }), (e) => {
    assert.ok(e instanceof NetTraceError);
    assert.equal(e.code, 'source');
    assert.equal(e.offset, failAt);
    assert.match(e.message, /the file changed/);
    assert.ok(e.partial.eventCount > 0, 'the partial summary of the chunks before');
    return true;
  });
  const short = { size: blob.size, slice: (start, end) => blob.slice(start, start === failAt ? end - 1 : end) };
  await assert.rejects(openTrace(short, { chunkSize: 65536 }), (e) => e.code === 'source' && e.offset === failAt && /short read/.test(e.message));
});

test('the read loop turns the event loop after each push, so that the reads ahead progress', async () => {
  // A task queued after push k must run before push k + 1 (Node: setImmediate, FIFO with the
  // loop's own turn). The default 4 MiB chunks are pushed 1 MiB at a time: without the turn,
  // the pushes of one chunk follow each other with no task in between.
  const trace = biggest;
  let queued = 0;
  let ran = 0;
  const late = [];
  const handle = await openTrace(await openAsBlob(trace.path), {
    onProgress: (p) => {
      if (p.phase !== 'reading') return;
      if (ran !== queued) late.push(p.bytes);
      queued++;
      setImmediate(() => ran++);
    },
  });
  handle.close();
  assert.ok(queued > 20, `${queued} pushes`);
  assert.deepEqual(late, [], 'pushes that came before the task queued after the previous one');
});

const { openNodeFile } = await import(join(root, 'dist/reader/node_file.js'));
// Open files of this process on the traces the tests below open (other descriptors come and
// go with the runtime and earlier tests, and would make a process-wide count racy).
const traced = () => new Set([biggest.path, ...corpusTraces().filter((t) => t.truncated).map((t) => t.path)].map((p) => realpathSync(p)));
function openFds() {
  const paths = traced();
  let n = 0;
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      if (paths.has(readlinkSync(`/proc/self/fd/${fd}`))) ++n;
    } catch {
      // closed between the listing and the look
    }
  }
  return n;
}

test('a file path is read with FileHandle reads (node_file.ts): ranges as the file holds them, clamped like Blob.slice', async () => {
  const bytes = readFileSync(biggest.path);
  const file = await openNodeFile(biggest.path);
  try {
    assert.equal(file.blob.size, bytes.length);
    for (const [start, end] of [[0, 10], [4096, 4096 + 5_000_000], [bytes.length - 7, bytes.length], [bytes.length - 3, bytes.length + 100], [-5, 3], [10, 5]]) {
      const got = new Uint8Array(await file.blob.slice(start, end).arrayBuffer());
      const from = Math.max(0, start);
      const want = bytes.subarray(from, Math.max(from, Math.min(bytes.length, end)));
      assert.ok(Buffer.from(got).equals(want), `bytes ${start}-${end}`);
    }
  } finally {
    file.close();
  }
  await assert.rejects(file.blob.slice(0, 10).arrayBuffer(), 'a closed file refuses reads');
});

test('a path\'s first pass reads into readAhead + 1 buffers over and over (readInto), with the file\'s bytes in order', async () => {
  const { readAheadChunks } = await import(join(root, 'dist/reader/read_ahead.js'));
  const bytes = readFileSync(biggest.path);
  const file = await openNodeFile(biggest.path);
  try {
    for (const [chunkSize, ahead] of [[65536, 2], [1_000_003, 0], [4 * 1024 * 1024, 4]]) {
      const buffers = new Set();
      const copies = [];
      let chunks = 0;
      for await (const chunk of readAheadChunks(file.blob, chunkSize, ahead)) {
        buffers.add(chunk.buffer);
        copies.push(Buffer.from(chunk)); // a piece is valid until the next one is asked for
        ++chunks;
      }
      assert.equal(chunks, Math.ceil(bytes.length / chunkSize));
      assert.ok(Buffer.concat(copies).equals(bytes), `bytes in order at ${chunkSize} B, ${ahead} ahead`);
      assert.ok(buffers.size <= Math.min(chunks, ahead + 1), `${buffers.size} buffers for ${chunks} chunks, ${ahead} ahead`);
    }
  } finally {
    file.close();
  }
});

test('a source that reads into buffers: a failed or short read is a "source" error at the offset of its chunk', async () => {
  const bytes = readFileSync(biggest.path);
  const failAt = 3 * 65536;
  const source = (fail) => ({
    size: bytes.length,
    slice: () => assert.fail('the first pass reads into buffers, never by slices'),
    readInto: async (target, position) => {
      if (position === failAt && fail === 'reject') throw new Error('the disk went away');
      const n = Math.min(target.length - (position === failAt ? 1 : 0), bytes.length - position);
      target.set(bytes.subarray(position, position + n));
      return n;
    },
  });
  await assert.rejects(openTrace(source('reject'), { chunkSize: 65536, fileRead: 'slices' }), (e) => {
    assert.equal(e.code, 'source');
    assert.equal(e.offset, failAt);
    assert.match(e.message, /the disk went away/);
    assert.ok(e.partial.eventCount > 0, 'the partial summary of the chunks before');
    return true;
  });
  await assert.rejects(openTrace(source('short'), { chunkSize: 65536 }), (e) => e.code === 'source' && e.offset === failAt && /short read/.test(e.message));
});

test('a path opens like its Blob (summary = native at 4096 B and the default), and its file is closed after a close, a cancel and an error', async () => {
  // An earlier test's close may still be finishing.
  const before = await fdsSettleTo(0);
  assert.equal(before, 0, 'no trace file open before');
  const native = nativeSummary(biggest.path);
  for (const chunkSize of [4096, undefined]) {
    const trace = await openTrace(biggest.path, chunkSize === undefined ? {} : { chunkSize });
    assert.equal(trace.summaryJson() + '\n', native, `chunk size ${chunkSize ?? 'default'}`);
    assert.equal(openFds(), before + 1, 'the file stays open for event details');
    assert.ok((await trace.eventDetail(trace.eventCount - 1)) !== null, 'details are read again from the file');
    trace.close();
    assert.equal(await fdsSettleTo(before), before, 'closed with the handle');
  }
  const controller = new AbortController();
  await assert.rejects(openTrace(biggest.path, { chunkSize: 65536, signal: controller.signal, onProgress: () => controller.abort() }), (e) => e.code === 'cancelled');
  const cut = corpusTraces().find((t) => t.truncated);
  await assert.rejects(openTrace(cut.path), (e) => e.code === 'truncated');
  await assert.rejects(openTrace(join(root, 'no-such-file.nettrace')), (e) => e.code === 'source' && /cannot open/.test(e.message));
  assert.equal(await fdsSettleTo(before), before, 'no file left open');
});

// The method names read back after the first pass (read_trace.ts provideNames) are re-read
// NAME_READS_AHEAD ranges ahead with the same ring (readsInOrder), one range's names handed
// over at a time, in order.
const { readsInOrder } = await import(join(root, 'dist/reader/read_ahead.js'));
const { NAME_READS_AHEAD } = await import(join(root, 'dist/reader/read_trace.js'));

/** Reads that answer when `release(i)` is called; counts what is in flight. */
function heldReads() {
  const held = new Map();
  const state = { started: [], inFlight: 0, maxInFlight: 0 };
  state.read = (i) => new Promise((resolve, reject) => {
    state.started.push(i);
    state.inFlight++;
    state.maxInFlight = Math.max(state.maxInFlight, state.inFlight);
    held.set(i, (value, error) => {
      state.inFlight--;
      if (error) reject(error);
      else resolve(value);
    });
  });
  state.release = (i, error = null) => held.get(i)(`answer ${i}`, error);
  return state;
}

test('readsInOrder: answers in order, `ahead` reads issued beyond the awaited one, the next when asked', async () => {
  const reads = heldReads();
  const it = readsInOrder(6, 2, reads.read);
  const first = it.next();
  assert.deepEqual(reads.started, [0, 1, 2], 'the awaited read and 2 ahead');
  reads.release(1); // answers out of order are still handed over in order
  reads.release(0);
  assert.deepEqual(await first, { value: 'answer 0', done: false });
  assert.deepEqual(reads.started, [0, 1, 2], 'nothing more until answer 1 is asked for');
  const second = it.next();
  assert.deepEqual(reads.started, [0, 1, 2, 3]);
  assert.deepEqual(await second, { value: 'answer 1', done: false });
  for (const i of [2, 3, 4, 5]) {
    const next = it.next();
    reads.release(i);
    assert.deepEqual(await next, { value: `answer ${i}`, done: false });
  }
  assert.equal((await it.next()).done, true);
  assert.equal(reads.maxInFlight, 3);
  assert.deepEqual(await readsInOrder(0, 2, reads.read).next(), { value: undefined, done: true });
});

test('readsInOrder: a consumer that stops, or a read that fails, leaves no read in flight when the loop ends', async () => {
  for (const how of ['stop', 'fail']) {
    const reads = heldReads();
    const loop = (async () => {
      for await (const answer of readsInOrder(10, 3, reads.read)) {
        assert.equal(answer, 'answer 0');
        if (how === 'stop') break;
      }
    })();
    await macrotask();
    assert.equal(reads.inFlight, 4);
    reads.release(0);
    if (how === 'fail') reads.release(1, new Error('disk gone'));
    await macrotask();
    let ended = false;
    const ending = loop.then(() => { ended = true; }, (e) => { ended = true; throw e; });
    await macrotask();
    assert.equal(ended, false, `${how}: the loop waits for the reads in flight`);
    for (const i of [1, 2, 3, 4]) if (reads.started.includes(i) && !(how === 'fail' && i === 1)) reads.release(i);
    if (how === 'fail') await assert.rejects(ending, /disk gone/);
    else await ending;
    assert.equal(reads.inFlight, 0, how);
    assert.equal(reads.started.length, how === 'stop' ? 4 : 5, `${how}: no read starts after the stop (${reads.started})`);
  }
});

/**
 * `blob` whose reads after the first pass (once a "names" report came) answer a macrotask late,
 * counted; `fails()` true when such a read answers: it fails instead.
 */
function nameRereadsOf(blob, fails = () => false) {
  const probe = { names: false, started: 0, inFlight: 0, maxInFlight: 0 };
  probe.onProgress = (p) => {
    if (p.phase === 'names') probe.names = true;
  };
  probe.blob = {
    size: blob.size,
    stream: () => blob.stream(),
    slice(start, end) {
      const part = blob.slice(start, end);
      return {
        async arrayBuffer() {
          if (!probe.names) return part.arrayBuffer();
          probe.started++;
          probe.inFlight++;
          probe.maxInFlight = Math.max(probe.maxInFlight, probe.inFlight);
          try {
            const bytes = await part.arrayBuffer();
            await macrotask();
            if (fails()) throw new Error('the disk is gone');
            return bytes;
          } finally {
            probe.inFlight--;
          }
        },
      };
    },
  };
  return probe;
}

test('method names are re-read NAME_READS_AHEAD ranges ahead, with the names and summary of the native read', async () => {
  assert.equal(NAME_READS_AHEAD, 4);
  const probe = nameRereadsOf(await openAsBlob(biggest.path));
  const trace = await openTrace(probe.blob, { onProgress: probe.onProgress });
  try {
    assert.equal(trace.summaryJson() + '\n', nativeSummary(biggest.path));
    const r = runNative('flame', biggest.path, ['--format', 'folded']);
    assert.equal(r.status, 0);
    assert.equal(await trace.export('folded'), r.stdout.toString('utf8'), 'every frame named as natively');
  } finally {
    trace.close();
  }
  assert.ok(probe.started > NAME_READS_AHEAD + 1, `${biggest.name} has more name ranges than the ring holds (${probe.started})`);
  assert.equal(probe.maxInFlight, NAME_READS_AHEAD + 1, 'the range handed over and NAME_READS_AHEAD more in flight, never more');
  assert.equal(probe.inFlight, 0);
});

test('a cancel while names are re-read ahead rejects only once no re-read is in flight', async () => {
  const probe = nameRereadsOf(await openAsBlob(biggest.path));
  const controller = new AbortController();
  let inFlightAtCancel = -1;
  const opening = openTrace(probe.blob, {
    signal: controller.signal,
    onProgress: (p) => {
      probe.onProgress(p);
      // From another task, once the re-reads are under way (the first report comes before them).
      if (p.phase === 'names') setImmediate(() => {
        if (inFlightAtCancel < 0) inFlightAtCancel = probe.inFlight;
        controller.abort();
      });
    },
  });
  await assert.rejects(opening, (e) => e instanceof NetTraceError && e.code === 'cancelled' && /method names was cancelled/.test(e.message));
  assert.ok(inFlightAtCancel > 0, `re-reads were in flight at the cancel (${inFlightAtCancel})`);
  assert.equal(probe.inFlight, 0, 'none left in flight');
});

test('a cancel wins over re-reads ahead that fail after it: "cancelled", every event kept with keepPartial', async () => {
  for (const keepPartial of [false, true]) {
    const controller = new AbortController();
    // Every re-read that answers after the cancel fails, those issued ahead of it included.
    const probe = nameRereadsOf(await openAsBlob(biggest.path), () => controller.signal.aborted);
    const opening = openTrace(probe.blob, {
      keepPartial,
      signal: controller.signal,
      onProgress: (p) => {
        probe.onProgress(p);
        if (p.phase === 'names') setImmediate(() => controller.abort());
      },
    });
    if (!keepPartial) {
      await assert.rejects(opening, (e) => e instanceof NetTraceError && e.code === 'cancelled' && /method names was cancelled/.test(e.message));
    } else {
      const trace = await opening;
      try {
        assert.equal(trace.error?.code, 'cancelled');
        assert.equal(trace.summary().complete, true, 'every event was read');
      } finally {
        trace.close();
      }
    }
    assert.ok(probe.started > 1, 're-reads were issued ahead');
    assert.equal(probe.inFlight, 0);
  }
});
