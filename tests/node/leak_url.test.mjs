// Memory and network sources. Closing a trace frees its engine memory: 50 open/close cycles
// leave malloc's in-use bytes where they started and the wasm heap no bigger than after the
// first round over the traces. A URL source streams through fetch() from a local server (127.0.0.1), with
// details re-read by HTTP Range requests when the server supports them, and from the kept
// streamed bytes when it does not.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { openAsBlob, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { corpusTraces, root, runNative } from './helpers.mjs';

const { openTrace, engineHeapStats, NetTraceError } = await import(join(root, 'dist/index.js'));
const complete = corpusTraces().filter((t) => !t.truncated && runNative('summary', t.path).status === 0);

test('opening and closing 50 traces returns the wasm heap to its starting size', async () => {
  const sources = complete.filter((t) => readFileSync(t.path).length < 8 << 20);
  const cycle = async (i) => {
    const t = sources[i % sources.length];
    const trace = await openTrace(await openAsBlob(t.path));
    await trace.events({ offset: 10, limit: 200 }); // fills the block cache too
    await trace.histogram({ buckets: 50, groupBy: 'eventType' });
    trace.close();
  };
  const start = await engineHeapStats();
  // One round over every source first: the heap grows to the largest trace's peak (the
  // first source is a 3 KB NetPerf file, smaller than others' peaks), and must not grow after.
  for (let i = 0; i < sources.length; i++) await cycle(i);
  const afterRound = await engineHeapStats();
  for (let i = sources.length; i < 50; i++) await cycle(i);
  const end = await engineHeapStats();
  console.log(
    `# heap: start ${start.heapSize} B (malloc in use ${start.allocated} B), after one round of ${sources.length} traces ` +
      `${afterRound.heapSize} B, after 50 ${end.heapSize} B (malloc in use ${end.allocated} B)`,
  );
  assert.equal(end.allocated, start.allocated, 'bytes in use by malloc return to the starting figure');
  assert.equal(end.heapSize, afterRound.heapSize, 'the heap does not grow after the first round');
  // Failed opens free their session as well.
  const truncated = corpusTraces().find((t) => t.truncated);
  if (truncated) {
    for (let i = 0; i < 5; i++) await openTrace(readFileSync(truncated.path)).catch(() => undefined);
    assert.equal((await engineHeapStats()).allocated, start.allocated);
  }
});

/** Serves `bytes` at /trace; `ranges` decides whether it honours Range requests. */
async function serve(bytes, ranges) {
  const log = { full: 0, ranges: 0 };
  const server = createServer((req, res) => {
    if (req.url !== '/trace') return res.writeHead(404).end();
    const range = ranges ? /^bytes=(\d+)-(\d+)$/.exec(req.headers.range ?? '') : null;
    if (range) {
      log.ranges++;
      const [start, end] = [Number(range[1]), Number(range[2])];
      res.writeHead(206, {
        'content-type': 'application/octet-stream',
        'content-range': `bytes ${start}-${end}/${bytes.length}`,
        'content-length': end - start + 1,
        'accept-ranges': 'bytes',
      });
      return res.end(bytes.subarray(start, end + 1));
    }
    log.full++;
    res.writeHead(200, {
      'content-type': 'application/octet-stream',
      'content-length': bytes.length,
      ...(ranges ? { 'accept-ranges': 'bytes' } : {}),
    });
    // In pieces, as a network would deliver it.
    let off = 0;
    const next = () => {
      while (off < bytes.length) {
        const piece = bytes.subarray(off, (off += 300_000));
        if (!res.write(piece)) return res.once('drain', next);
      }
      res.end();
    };
    next();
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${server.address().port}/trace`, log, close: () => server.close() };
}

for (const ranges of [true, false]) {
  test(`URL source, server ${ranges ? 'with' : 'without'} Range support`, async () => {
    const t = complete.find((x) => x.name.startsWith('HeartRate')) ?? complete[0];
    const bytes = readFileSync(t.path);
    const server = await serve(bytes, ranges);
    try {
      const progress = [];
      const trace = await openTrace(server.url, { onProgress: (p) => progress.push(p) });
      try {
        assert.equal(trace.summaryJson() + '\n', runNative('summary', t.path).stdout.toString('utf8'));
        assert.ok(progress.length > 1);
        assert.equal(progress.at(-1).total, bytes.length, 'Content-Length gives the total');
        const q = ['--offset', '5000', '--limit', '150'];
        const page = await trace.events({ offset: 5000, limit: 150 });
        assert.equal(page.json.map((l) => l + '\n').join(''), runNative('events', t.path, q).stdout.toString('utf8'));
        assert.equal(server.log.full, 1, 'the body is fetched once');
        if (ranges) assert.ok(server.log.ranges > 0, 'details come from Range requests');
        else assert.equal(server.log.ranges, 0);
      } finally {
        trace.close();
      }
    } finally {
      server.close();
    }
  });
}

test('a URL that fails is a NetTraceError with code "source"', async () => {
  const server = await serve(new Uint8Array(10), false);
  try {
    await assert.rejects(openTrace(server.url.replace('/trace', '/missing')), (e) => e instanceof NetTraceError && e.code === 'source' && /404/.test(e.message));
  } finally {
    server.close();
  }
});
