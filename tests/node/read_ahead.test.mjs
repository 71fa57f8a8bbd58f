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
