// A File/Blob's first pass read from its stream() (web/src/reader/stream_chunks.ts), the default
// for a Blob that has one: through the public API, with a Blob whose stream hands over pieces
// of chosen sizes and counts what was asked of it. The summary is the native one byte for byte
// whatever the pieces; slices are read only when asked for (fileRead: 'slices'); a stream that
// fails, ends early or runs long is a "source" error at the offset it reached; a cancel
// cancels the stream and asks it for nothing more. Counted, never timed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { corpusTraces, root, runNative } from './helpers.mjs';

const { openTrace, NetTraceError } = await import(join(root, 'dist/index.js'));
const complete = corpusTraces().filter((t) => !t.truncated);
const named = (prefix) => complete.find((t) => t.name.startsWith(prefix));
const heart = named('HeartRateMonitor');
const nativeSummary = (path) => {
  const r = runNative('summary', path);
  assert.equal(r.status, 0);
  return r.stdout.toString('utf8');
};

/**
 * A Blob over `bytes` whose stream() hands over pieces of `pieceSize(k)` bytes (k = 1, 2, …),
 * one per read the consumer asks for (highWaterMark 0). `failAt`: the stream errors once it has
 * handed over that many bytes; `endAt`: it ends there; `extra`: it hands over that many bytes
 * more than the Blob's size. Counts streams, pulls, slice reads and cancels.
 */
function streamingBlob(bytes, { pieceSize = () => 65536, failAt = null, endAt = bytes.length, extra = 0 } = {}) {
  const probe = { streams: 0, pulls: 0, sliceReads: 0, sliceBytes: 0, cancelled: 0 };
  const data = new Uint8Array(bytes.length + extra);
  data.set(bytes);
  probe.blob = {
    size: bytes.length,
    slice: (start, end) => ({
      arrayBuffer: async () => {
        probe.sliceReads++;
        probe.sliceBytes += end - start;
        return bytes.slice(start, end).buffer;
      },
    }),
    stream() {
      probe.streams++;
      let at = 0;
      return new ReadableStream({
        pull(controller) {
          probe.pulls++;
          if (failAt !== null && at >= failAt) return controller.error(new Error('the file changed'));
          const stop = Math.min(endAt + extra, failAt ?? Infinity);
          if (at >= stop) return controller.close();
          const n = Math.min(Math.max(1, pieceSize(probe.pulls)), stop - at);
          controller.enqueue(data.slice(at, at + n));
          at += n;
        },
        cancel: () => void probe.cancelled++,
      }, { highWaterMark: 0 });
    },
  };
  return probe;
}

const fileBytes = (path) => new Uint8Array(readFileSync(path));

// After the first pass, the method names stacks can name are read back by slices (they stay
// in the file while reading: api/trace.ts): HeartRateMonitor's, 2.5 MB of its 29.6 MB in 33
// reads; objver3's, 28 KB in 5.
test('a Blob with stream() is read from its stream by default, by slices only when asked', async () => {
  for (const trace of [heart, named('eventpipe-dotnetcore2.1-linux-x64-objver3')]) {
    const native = nativeSummary(trace.path);
    const streamed = streamingBlob(fileBytes(trace.path));
    const a = await openTrace(streamed.blob);
    assert.equal(a.summaryJson() + '\n', native, `${trace.name} from its stream`);
    a.close();
    assert.equal(streamed.streams, 1, `${trace.name}: one stream`);
    assert.ok(streamed.sliceReads > 0 && streamed.sliceBytes < streamed.blob.size / 10,
      `${trace.name}: only the names are read again (${streamed.sliceReads} slices, ${streamed.sliceBytes} bytes)`);

    const sliced = streamingBlob(fileBytes(trace.path));
    const b = await openTrace(sliced.blob, { fileRead: 'slices', chunkSize: 1024 * 1024 });
    assert.equal(b.summaryJson() + '\n', native, `${trace.name} by slices`);
    b.close();
    assert.equal(sliced.streams, 0, `${trace.name}: fileRead 'slices' never streams`);
    assert.equal(sliced.sliceReads, Math.ceil(sliced.blob.size / (1024 * 1024)) + streamed.sliceReads,
      'one slice read per chunk, then the names\' reads');
  }
});

test('the summary from a stream is the native one whatever the pieces', async () => {
  const bytes = fileBytes(heart.path);
  const native = nativeSummary(heart.path);
  const sizes = {
    'one piece': () => bytes.length,
    '3 MiB + 1 (more than one push)': () => 3 * 1024 * 1024 + 1,
    '64 KiB': () => 65536,
    '1, 7, 4093, 65,521 in turn': (k) => [1, 7, 4093, 65521][k % 4],
  };
  for (const [name, pieceSize] of Object.entries(sizes)) {
    const probe = streamingBlob(bytes, { pieceSize });
    const handle = await openTrace(probe.blob);
    assert.equal(handle.summaryJson() + '\n', native, name);
    handle.close();
  }
});

test('event details of a streamed Blob are re-read by slices', async () => {
  const probe = streamingBlob(fileBytes(heart.path));
  const handle = await openTrace(probe.blob);
  try {
    const page = await handle.events({ limit: 3 });
    assert.equal(page.rows.length, 3);
    assert.ok(probe.sliceReads > 0, 'details read with Blob.slice()');
    assert.equal(probe.streams, 1, 'the stream is not read again');
  } finally {
    handle.close();
  }
});

test('a stream that fails, ends early or runs long is a "source" error at the offset it reached', async () => {
  const bytes = fileBytes(heart.path);
  const failAt = 5 * 65536;
  await assert.rejects(openTrace(streamingBlob(bytes, { failAt }).blob), (e) => {
    assert.ok(e instanceof NetTraceError);
    assert.equal(e.code, 'source');
    assert.equal(e.offset, failAt);
    assert.match(e.message, /the file changed/);
    assert.ok(e.partial.eventCount > 0, 'the partial summary of the pieces before');
    return true;
  });
  await assert.rejects(openTrace(streamingBlob(bytes, { endAt: failAt }).blob), (e) =>
    e instanceof NetTraceError && e.code === 'source' && e.offset === failAt && /short read/.test(e.message));
  await assert.rejects(openTrace(streamingBlob(bytes, { extra: 10 }).blob), (e) =>
    e instanceof NetTraceError && e.code === 'source' && e.offset === bytes.length && /more than its/.test(e.message));
});

test('a cancel mid-stream cancels the stream and asks it for no more pieces', async () => {
  const probe = streamingBlob(fileBytes(heart.path), { pieceSize: () => 256 * 1024 });
  const controller = new AbortController();
  let pushes = 0;
  let pullsAtAbort = -1;
  const onProgress = (p) => {
    if (p.phase !== 'reading' || ++pushes !== 2) return;
    pullsAtAbort = probe.pulls;
    controller.abort();
  };
  await assert.rejects(openTrace(probe.blob, { signal: controller.signal, onProgress }), (e) => e instanceof NetTraceError && e.code === 'cancelled');
  assert.equal(probe.pulls, pullsAtAbort, 'no piece asked for after the abort');
  assert.equal(probe.cancelled, 1, 'the stream was cancelled');
});
