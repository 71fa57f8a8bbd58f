// `nettrace dataset OUT_DIR TRACE…` on committed traces of every container (NetPerf v3,
// NetTrace v4 and v5, v6 converted, a truncated one): the hive layout
// traces/trace_id=<sha256>/part-0.parquet (trace_id comes from the path, as BigQuery requires
// of a partition key), each row equal to the trace's Summary, read by
// DuckDB over the whole folder and by hyparquet file by file; a re-run skips every trace and
// touches no file; an added trace rewrites no other; leftovers of a crashed run are ignored
// by readers and replaced. The tables' rows: dataset_tables.test.mjs.
import test from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { parquetReadObjects } from 'hyparquet';
import { compressors } from 'hyparquet-compressors';
import { nativeTool, runAsync, runNative, testdata } from './helpers.mjs';

const work = mkdtempSync(join(tmpdir(), 'nettrace-dataset-'));
test.after(() => rmSync(work, { recursive: true, force: true }));
const out = join(work, 'dataset');

const v6 = join(work, 'only_managed_samples.v6.nettrace');
assert.equal(runNative('convert', join(testdata, 'only_managed_samples.nettrace'), [v6]).status, 0);
const traces = [
  join(testdata, 'eventpipe-dotnetcore2.1-linux-x64-objver3.netperf'),
  join(testdata, 'HeartRateMonitor.10068.nettrace'),
  join(testdata, 'sentry-net6-profile-with-task.nettrace'),
  join(testdata, 'dotnet10/net10-gc-verbose.nettrace'),
  v6,
  join(testdata, 'truncated/dotnet-trace-netcore3.0-preview-truncated.nettrace'),
];
const added = join(testdata, 'pyroscope-net5-single-thread.nettrace');
const TABLES = ['events', 'samples', 'thread_time', 'stacks', 'frames', 'gcs', 'jit', 'exceptions', 'contention', 'activities', 'counters', 'traces'];
const sha256 = (path) => createHash('sha256').update(readFileSync(path)).digest('hex');
const part = (path) => join(out, 'traces', `trace_id=${sha256(path)}`, 'part-0.parquet');

const duck = await DuckDBInstance.create(':memory:');
const con = await duck.connect();
const sql = async (q) => (await con.runAndReadAll(q)).getRowObjects();

async function dataset(files) {
  const r = await runAsync(nativeTool, ['dataset', out, ...files]);
  assert.equal(r.status, 0, r.stderr);
  return r.stdout.toString().trim().split('\n').map((line) => JSON.parse(line));
}

const first = await dataset(traces);

test('each trace is written once, to traces/trace_id=<its SHA-256>/part-0.parquet', () => {
  assert.deepEqual(first, traces.map((file) => ({ file, traceId: sha256(file), written: TABLES })));
  for (const file of traces) assert.ok(existsSync(part(file)), part(file));
});

test('DuckDB over the folder: one row per trace, equal to its Summary', async () => {
  const rows = await sql(`SELECT trace_id, file_name, file_bytes, format, format_major, format_minor, complete, error_code,
                                 error_offset, process_id, event_count, dropped_events, bytes_read, duration_ns,
                                 strftime(start_utc, '%Y-%m-%dT%H:%M:%S.%fZ') AS start_utc,
                                 strftime(sync_time_utc, '%Y-%m-%dT%H:%M:%S.%fZ') AS sync_time_utc
                          FROM read_parquet('${out}/traces/*/*.parquet', hive_partitioning = true,
                                            hive_types = {'trace_id': VARCHAR}) ORDER BY file_name`);
  assert.equal(rows.length, traces.length);
  for (const file of traces) {
    const s = JSON.parse(runNative('summary', file).stdout.toString());
    const row = rows.find((r) => r.file_name === basename(file));
    const ticksToNs = (t) => (BigInt(t) * 1000000000n) / BigInt(s.trace.tickFrequency);
    assert.deepEqual(row, {
      trace_id: sha256(file),
      file_name: basename(file),
      file_bytes: BigInt(statSync(file).size),
      format: s.format.container,
      format_major: s.format.major,
      format_minor: s.format.minor,
      complete: s.complete,
      error_code: s.error?.code ?? null,
      error_offset: s.error ? BigInt(s.error.offset) : null,
      process_id: BigInt(s.trace.processId),
      event_count: BigInt(s.eventCount),
      dropped_events: BigInt(s.dropped.events),
      bytes_read: BigInt(s.bytesRead),
      duration_ns: ticksToNs(s.timeRange.lastTimestamp - s.timeRange.firstTimestamp),
      start_utc: s.timeRange.startUtc,
      sync_time_utc: s.trace.syncTimeUtc,
    }, file);
  }
  const formats = new Set(rows.map((r) => `${r.format} ${r.format_major}`));
  assert.ok(formats.size >= 4, [...formats].join(', '));
});

test('hyparquet reads every traces file', async () => {
  for (const file of traces) {
    const bytes = readFileSync(part(file));
    const rows = await parquetReadObjects({ file: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length),
      compressors, parsers: { timestampFromMicroseconds: (v) => v } });
    assert.equal(rows.length, 1);
    assert.equal(rows[0].file_name, basename(file));
    assert.ok(!('trace_id' in rows[0]), 'the id is the partition\'s, not a column of the file');
  }
});

test('a re-run skips every trace and changes no file', async () => {
  const before = traces.map((f) => ({ bytes: readFileSync(part(f)), mtime: statSync(part(f)).mtimeMs }));
  const again = await dataset(traces);
  assert.deepEqual(again, traces.map((file) => ({ file, traceId: sha256(file), skipped: 'present' })));
  traces.forEach((f, i) => {
    assert.ok(readFileSync(part(f)).equals(before[i].bytes), f);
    assert.equal(statSync(part(f)).mtimeMs, before[i].mtime, f);
  });
});

test('adding a trace rewrites no other; a crashed run\'s leftover is ignored, then replaced', async () => {
  const before = traces.map((f) => statSync(part(f)).mtimeMs);
  // A run that died while writing the new trace's file left its temporary name behind.
  const partition = join(out, 'traces', `trace_id=${sha256(added)}`);
  mkdirSync(partition, { recursive: true });
  writeFileSync(join(partition, '.part-0.parquet.partial'), 'half a file');
  assert.equal((await sql(`SELECT count(*) AS n FROM read_parquet('${out}/traces/*/*.parquet')`))[0].n, BigInt(traces.length));
  assert.deepEqual(await dataset([added, traces[0]]), [
    { file: added, traceId: sha256(added), written: TABLES },
    { file: traces[0], traceId: sha256(traces[0]), skipped: 'present' },
  ]);
  assert.ok(!existsSync(join(partition, '.part-0.parquet.partial')));
  traces.forEach((f, i) => assert.equal(statSync(part(f)).mtimeMs, before[i], f));
  assert.equal((await sql(`SELECT count(*) AS n FROM read_parquet('${out}/traces/*/*.parquet')`))[0].n, BigInt(traces.length + 1));
});

test('a trace whose traces file is missing (a run stopped before it) is written again', async () => {
  rmSync(part(traces[1]));
  assert.deepEqual(await dataset([traces[1]]), [{ file: traces[1], traceId: sha256(traces[1]), written: TABLES }]);
  assert.ok(existsSync(part(traces[1])));
});

test('a file that is not a trace is refused and gets no partition', async () => {
  const notTrace = join(work, 'notes.txt');
  writeFileSync(notTrace, 'not a trace\n');
  const r = await runAsync(nativeTool, ['dataset', out, notTrace]);
  assert.equal(r.status, 1);
  assert.match(r.stderr, /is not a trace; not added/);
  assert.ok(!existsSync(part(notTrace)));
});
