// Exports a part at a time (web/src/api/export_sink.ts, core/export/export_stream.h): every
// format through export() (a string), exportTo() (a file path, a Node Writable, a WHATWG
// WritableStream) and exportStream() gives the native tool's bytes, in parts of about 1 MiB;
// a destination that fails, a closed handle, a cancel and a document too long for a string
// are each a NetTraceError with a code; the npm CLI reports an unwritable -o in one line.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { root, runNative, testdata } from './helpers.mjs';

const { openTrace, NetTraceError } = await import(join(root, 'dist/index.js'));
const { PART_BYTES, partsAsText, streamParts } = await import(join(root, 'dist/api/export_sink.js'));
const dir = mkdtempSync(join(tmpdir(), 'export-stream-'));
const HRM = join(testdata, 'HeartRateMonitor.10068.nettrace');

/** The native tool's output for these arguments: `export … -o FILE`, or `flame …` on stdout. */
function nativeExport(file, [command, ...args]) {
  if (command === 'flame') {
    const r = runNative('flame', file, args);
    assert.equal(r.status, 0, r.stderr);
    return r.stdout;
  }
  const out = join(dir, `native-${Math.random().toString(36).slice(2)}`);
  const r = runNative('export', file, [...args, '-o', out]);
  assert.equal(r.status, 0, r.stderr);
  return readFileSync(out);
}

async function collect(stream) {
  const parts = [];
  for await (const part of streamParts(stream)) parts.push(part);
  return parts;
}

/** Asserts that `promise` rejects with a NetTraceError of this code; @returns the error. */
async function rejectsWith(promise, code) {
  const e = await promise.then(
    () => assert.fail(`resolved; expected a NetTraceError "${code}"`),
    (error) => error,
  );
  assert.ok(e instanceof NetTraceError, `not a NetTraceError: ${e?.stack ?? e}`);
  assert.equal(e.code, code, e.message);
  return e;
}

// [format, options, the native command, whether its parts are pages of rows (Chrome trace,
// payload CSV: bounded by the engine's block cache) rather than items up to the budget].
const CASES = [
  ['csv', { stackText: true }, ['export', '--format', 'csv', '--stack-text'], false],
  ['csv', {}, ['export', '--format', 'csv'], false],
  ['stacks-csv', {}, ['export', '--format', 'stacks-csv'], false],
  ['speedscope', { weight: 'thread-time', groupByThread: true }, ['export', '--format', 'speedscope', '--weight', 'thread-time', '--by-thread'], false],
  ['speedscope', { speedscope: 'sampled' }, ['export', '--format', 'speedscope', '--speedscope', 'sampled'], false],
  ['folded', { weight: 'thread-time', groupByThread: true }, ['flame', '--format', 'folded', '--weight', 'thread-time', '--by-thread'], false],
  ['chrome', {}, ['export', '--format', 'chrome'], true],
  ['csv', { event: 'GC/RestartEEStart' }, ['export', '--format', 'csv', '--event', 'GC/RestartEEStart'], true],
];

test('every export: export(), exportTo() (path, Node Writable, WritableStream) and exportStream() give the native bytes in bounded parts', { timeout: 300_000 }, async () => {
  const trace = await openTrace(HRM, { worker: false });
  try {
    for (const [format, options, args, paged] of CASES) {
      const what = `${format} ${JSON.stringify(options)}`;
      const native = nativeExport(HRM, args);
      // JSON documents: the native file ends with one more newline.
      const want = format.endsWith('csv') || format === 'folded' ? native : native.subarray(0, native.length - 1);
      const text = await trace.export(format, { ...options, name: 'HeartRateMonitor.10068.nettrace' });
      assert.ok(Buffer.from(text).equals(want), `${what}: export() differs from native`);

      const parts = await collect(trace.exportStream(format, { ...options, name: 'HeartRateMonitor.10068.nettrace' }));
      assert.ok(Buffer.concat(parts).equals(want), `${what}: exportStream() differs from native`);
      if (want.length > 2 * PART_BYTES) assert.ok(parts.length >= 2, `${what}: ${want.length} bytes in ${parts.length} part(s)`);
      // A part is whole items up to the budget, at most one item (a line, a sample) more; or a page of rows.
      const biggest = Math.max(...parts.map((p) => p.length));
      assert.ok(biggest <= (paged ? 16 * PART_BYTES : PART_BYTES + 65536), `${what}: a part of ${biggest} bytes`);

      const file = join(dir, 'api.out');
      assert.equal(await trace.exportTo(format, file, { ...options, name: 'HeartRateMonitor.10068.nettrace' }), want.length);
      assert.ok(readFileSync(file).equals(want), `${what}: exportTo(path) differs from native`);

      const viaNode = join(dir, 'node-stream.out');
      const nodeStream = createWriteStream(viaNode);
      assert.equal(await trace.exportTo(format, nodeStream, { ...options, name: 'HeartRateMonitor.10068.nettrace' }), want.length);
      assert.ok(nodeStream.writableFinished, `${what}: the Node stream was ended`);
      assert.ok(readFileSync(viaNode).equals(want), `${what}: exportTo(Node Writable) differs from native`);

      const chunks = [];
      const web = new WritableStream({ write: (chunk) => void chunks.push(chunk) });
      await trace.exportTo(format, web, { ...options, name: 'HeartRateMonitor.10068.nettrace' });
      assert.ok(Buffer.concat(chunks).equals(want), `${what}: exportTo(WritableStream) differs from native`);
    }
  } finally {
    trace.close();
  }
});

test('the npm CLI writes every export as the native tool does', { timeout: 300_000 }, () => {
  for (const [, , args] of CASES.filter(([format]) => format !== 'folded')) {
    const out = join(dir, 'cli.out');
    const r = spawnSync(process.execPath, [join(root, 'dist/bin/nettrace-analyzer.mjs'), args[0], HRM, ...args.slice(1), '-o', out], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    assert.ok(readFileSync(out).equals(nativeExport(HRM, args)), `${args.join(' ')}: npm CLI differs from native`);
    assert.match(r.stderr, new RegExp(`wrote ${out.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(\\d+ bytes\\)`));
  }
});

test('export failures are NetTraceErrors with a code', async () => {
  const trace = await openTrace(HRM, { worker: false });
  try {
    // A path that cannot be created: "output", and nothing is left there.
    const missing = join(dir, 'no-such-folder', 'out.csv');
    const e = await rejectsWith(trace.exportTo('csv', missing, { stackText: true }), 'output');
    assert.match(e.message, /cannot create .*no-such-folder/);
    assert.equal(existsSync(missing), false);
    await rejectsWith(trace.exportTo('csv', dir), 'output'); // a folder

    // A Node stream already ended, or destroyed: "output".
    const ended = new Writable({ write: (_c, _e, cb) => cb() });
    ended.end();
    await rejectsWith(trace.exportTo('stacks-csv', ended), 'output');
    const destroyed = new Writable({ write: (_c, _e, cb) => cb() });
    destroyed.destroy();
    await rejectsWith(trace.exportTo('stacks-csv', destroyed), 'output');
    // A Node stream that fails on its second write (a full disk, a closed pipe): "output",
    // and the export stops there.
    let writes = 0;
    const failing = new Writable({ highWaterMark: 1, write: (_c, _e, cb) => cb(++writes >= 2 ? new Error('ENOSPC: no space left on device') : null) });
    failing.on('error', () => undefined);
    const f = await rejectsWith(trace.exportTo('csv', failing, { stackText: true }), 'output');
    assert.match(f.message, /ENOSPC/);
    assert.ok(writes <= 3, `${writes} writes after the failure`);

    // A WHATWG stream that rejects a write, or is already closed: "output".
    const rejecting = new WritableStream({ write: () => Promise.reject(new Error('the disk went away')) });
    assert.match((await rejectsWith(trace.exportTo('csv', rejecting), 'output')).message, /the disk went away/);
    const closed = new WritableStream();
    await closed.close();
    await rejectsWith(trace.exportTo('csv', closed), 'output');

    // Not a destination, not a format.
    await rejectsWith(trace.exportTo('csv', 42), 'invalid-argument');
    await rejectsWith(trace.export('pdf'), 'invalid-argument');

    // A cancel between two parts.
    const controller = new AbortController();
    let seen = 0;
    const cancelling = new WritableStream({ write: () => void (++seen === 2 && controller.abort()) });
    await rejectsWith(trace.exportTo('csv', cancelling, { stackText: true, signal: controller.signal }), 'cancelled');

    // Longer than a string may be: "too-large", with a way out in the message.
    const long = await rejectsWith(partsAsText(streamParts(trace.exportStream('csv')), 1000), 'too-large');
    assert.match(long.message, /exportTo\(\)/);

    // The handle closed while a stream is being read: "closed".
    const reader = trace.exportStream('csv', { stackText: true }).getReader();
    assert.ok((await reader.read()).value.length > 0);
    trace.close();
    await rejectsWith(reader.read(), 'closed');
    await rejectsWith(trace.exportTo('csv', join(dir, 'after-close.csv')), 'closed');
    assert.equal(existsSync(join(dir, 'after-close.csv')), false);
  } finally {
    trace.close();
  }
});

test('npm CLI: an unwritable -o is one line on stderr and exit status 1', () => {
  const out = join(dir, 'no-such-folder', 'out.csv');
  const r = spawnSync(process.execPath, [join(root, 'dist/bin/nettrace-analyzer.mjs'), 'export', HRM, '--format', 'csv', '-o', out], { encoding: 'utf8' });
  assert.equal(r.status, 1);
  assert.match(r.stderr, /^nettrace-analyzer: export: cannot create .*no-such-folder.*\n$/);
  assert.doesNotMatch(r.stderr, /\n {4}at /, 'no stack trace');
});
