// The Parquet writer (core/dataset) read back by two independent readers, DuckDB
// (@duckdb/node-api) and hyparquet: every column type and logical type with nulls and
// extremes, an empty table, big strings, several row groups, the three codecs, a 10 M-row
// file written in bounded memory, identical bytes on a re-run; and `nettrace dataset` over
// committed traces (hive layout, SHA-256 ids, skip when present, no rewrite of others).
import test from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { parquetMetadata, parquetReadObjects } from 'hyparquet';
import { compressors } from 'hyparquet-compressors';
import { nativeTool, root, runAsync, testdata } from './helpers.mjs';
import { BIG_SIZES, TYPES_ROWS, bigString, eventsRows, typesRow } from './parquet_samples.mjs';

const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const work = mkdtempSync(join(tmpdir(), 'nettrace-parquet-'));
test.after(() => rmSync(work, { recursive: true, force: true }));

const duck = await DuckDBInstance.create(':memory:');
const con = await duck.connect();
async function sql(query) {
  return (await con.runAndReadAll(query)).getRowObjects();
}

// hyparquet with timestamps kept as their raw INT64; hyparquet-compressors inflates GZIP
// and ZSTD pages with its own JavaScript gunzip and fzstd, independent of zlib and libzstd.
const rawTime = { timestampFromMicroseconds: (v) => v, timestampFromNanoseconds: (v) => v };
async function hyRead(path) {
  const bytes = readFileSync(path);
  const file = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  return parquetReadObjects({ file, parsers: rawTime, compressors });
}

async function writeSamples(dir, args) {
  mkdirSync(dir, { recursive: true });
  const r = await runAsync(nativeTool, ['parquet-sample', dir, ...args]);
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout.toString());
}

const plainDir = join(work, 'none');
const plain = await writeSamples(plainDir, ['--rows', '200000', '--row-group-rows', '50000', '--codec', 'none']);

// Same value, NaN and the sign of zero included.
function same(a, b) {
  return Object.is(a, b) || (typeof a === 'bigint' && typeof b === 'bigint' && a === b);
}
function assertRow(actual, expected, where) {
  for (const [key, want] of Object.entries(expected)) {
    const got = actual[key] ?? null;
    assert.ok(same(got, want), `${where} ${key}: got ${String(got)}, want ${String(want)}`);
  }
}

test('types.parquet: DuckDB reads every value of every type', async () => {
  const rows = await sql(`SELECT flag, i32, i64, raw_i64, d, s, epoch_us(ts_us) AS ts_us, epoch_ns(ts_ns) AS ts_ns, label
                          FROM '${plainDir}/types.parquet'`);
  assert.equal(rows.length, TYPES_ROWS);
  rows.forEach((row, i) => {
    // DuckDB's TIMESTAMP WITH TIME ZONE holds microseconds: TIMESTAMP(NANOS, UTC) loses its
    // last three digits there (docs/parquet-writer.md "Types": why UTC columns are MICROS).
    const want = typesRow(i);
    if (want.ts_ns !== null) want.ts_ns = (want.ts_ns / 1000n) * 1000n;
    assertRow(row, want, `DuckDB row ${i}`);
  });
});

test('types.parquet: hyparquet reads every value of every type', async () => {
  const rows = await hyRead(join(plainDir, 'types.parquet'));
  assert.equal(rows.length, TYPES_ROWS);
  rows.forEach((row, i) => assertRow(row, typesRow(i), `hyparquet row ${i}`));
});

test('types.parquet: the logical types, statistics, encodings and created_by engines see', async () => {
  const schema = Object.fromEntries((await sql(`SELECT name, duckdb_type FROM parquet_schema('${plainDir}/types.parquet')`))
    .map((r) => [r.name, r.duckdb_type]));
  assert.deepEqual(schema, {
    schema: null, flag: 'BOOLEAN', i32: 'INTEGER', i64: 'BIGINT', raw_i64: 'BIGINT', d: 'DOUBLE', s: 'VARCHAR',
    ts_us: 'TIMESTAMP WITH TIME ZONE', ts_ns: 'TIMESTAMP WITH TIME ZONE', label: 'VARCHAR',
  });
  const meta = parquetMetadata(readFileSync(join(plainDir, 'types.parquet')).buffer);
  const logical = Object.fromEntries(meta.schema.slice(1).map((e) => [e.name, e.logical_type]));
  assert.deepEqual(logical.ts_us, { type: 'TIMESTAMP', isAdjustedToUTC: true, unit: 'MICROS' });
  assert.deepEqual(logical.ts_ns, { type: 'TIMESTAMP', isAdjustedToUTC: true, unit: 'NANOS' });
  assert.deepEqual(logical.i64, { type: 'INTEGER', bitWidth: 64, isSigned: true });
  assert.deepEqual(logical.s, { type: 'STRING' });
  assert.equal(meta.created_by, `nettrace-analyzer version ${pkg.version}`);
  const stats = Object.fromEntries((await sql(`SELECT path_in_schema, stats_min_value, stats_max_value, stats_null_count, encodings
                                              FROM parquet_metadata('${plainDir}/types.parquet')`)).map((r) => [r.path_in_schema, r]));
  assert.equal(stats.i64.stats_min_value, '-9223372036854775808');
  assert.equal(stats.i64.stats_max_value, '9223372036854775807');
  assert.equal(stats.raw_i64.stats_null_count, 200n);
  assert.equal(stats.s.stats_min_value, '');
  assert.equal(stats.s.stats_max_value, '日本語');  // unsigned byte order: 0xE6 after 0xC3 and 'M'
  assert.equal(stats.s.encodings, 'PLAIN, RLE, RLE_DICTIONARY');
  assert.equal(stats.label.encodings, 'PLAIN');
  // d: NaN stays out of the bounds (parquet.thrift ColumnOrder); ±Infinity are values.
  const d = meta.row_groups[0].columns[4].meta_data.statistics;
  assert.deepEqual([d.min_value, d.max_value, d.null_count], [-Infinity, Infinity, 91n]);
});

test('empty.parquet: a schema and no rows, for both readers', async () => {
  assert.deepEqual(await sql(`SELECT count(*) AS n FROM '${plainDir}/empty.parquet'`), [{ n: 0n }]);
  assert.equal((await sql(`DESCRIBE SELECT * FROM '${plainDir}/empty.parquet'`)).length, 9);
  assert.deepEqual(await hyRead(join(plainDir, 'empty.parquet')), []);
});

test('big_strings.parquet: values past the page size and the dictionary bound', async () => {
  const duckRows = await sql(`SELECT id, text FROM '${plainDir}/big_strings.parquet' ORDER BY id`);
  const hyRows = await hyRead(join(plainDir, 'big_strings.parquet'));
  assert.equal(duckRows.length, BIG_SIZES.length);
  for (let id = 0; id < BIG_SIZES.length; id++) {
    const want = bigString(id);
    assert.ok(duckRows[id].text === want, `DuckDB text ${id}`);
    assert.ok(hyRows[id].text === want, `hyparquet text ${id}`);
  }
  const encodings = await sql(`SELECT DISTINCT encodings FROM parquet_metadata('${plainDir}/big_strings.parquet') WHERE path_in_schema = 'text'`);
  assert.deepEqual(encodings, [{ encodings: 'PLAIN' }]);
});

test('events.parquet: four row groups, every row read back by both readers', async () => {
  const groups = await sql(`SELECT DISTINCT row_group_id, row_group_num_rows FROM parquet_metadata('${plainDir}/events.parquet') ORDER BY 1`);
  assert.deepEqual(groups.map((g) => g.row_group_num_rows), [50000n, 50000n, 50000n, 50000n]);
  const duckRows = await sql(`SELECT * REPLACE (epoch_us(time_utc) AS time_utc) FROM '${plainDir}/events.parquet'`);
  const hyRows = await hyRead(join(plainDir, 'events.parquet'));
  let i = 0;
  for (const want of eventsRows(200000)) {
    assertRow(duckRows[i], want, `DuckDB row ${i}`);
    assertRow(hyRows[i], want, `hyparquet row ${i}`);
    i++;
  }
  assert.equal(duckRows.length, i);
  assert.equal(hyRows.length, i);
});

test('codecs: zstd and gzip pages hold the same rows as uncompressed ones', async () => {
  const checksum = `SELECT count(*) AS n, sum(hash(COLUMNS(*))) AS h FROM`;
  for (const codec of ['zstd', 'gzip']) {
    const dir = join(work, codec);
    await writeSamples(dir, ['--rows', '200000', '--row-group-rows', '50000', '--codec', codec]);
    for (const file of ['types.parquet', 'big_strings.parquet', 'events.parquet']) {
      assert.deepEqual(await sql(`${checksum} '${dir}/${file}'`), await sql(`${checksum} '${plainDir}/${file}'`), `${codec} ${file}`);
      const [{ compression }] = await sql(`SELECT DISTINCT compression FROM parquet_metadata('${dir}/${file}')`);
      assert.equal(compression, codec.toUpperCase());
    }
    assert.deepEqual(await hyRead(join(dir, 'events.parquet')), await hyRead(join(plainDir, 'events.parquet')), codec);
  }
});

test('a re-run writes identical bytes', async () => {
  const again = join(work, 'again');
  await writeSamples(again, ['--rows', '200000', '--row-group-rows', '50000', '--codec', 'none']);
  for (const file of ['types.parquet', 'empty.parquet', 'big_strings.parquet', 'events.parquet']) {
    assert.ok(readFileSync(join(again, file)).equals(readFileSync(join(plainDir, file))), file);
  }
  assert.equal(plain['events.parquet'], statSync(join(plainDir, 'events.parquet')).size);
});

test('10 M rows: written with bounded buffers and read back by DuckDB', async () => {
  const dir = join(work, 'ten-million');
  const report = await writeSamples(dir, ['--rows', '10000000', '--codec', 'zstd']);
  // The writer holds one row group (64 MiB of PLAIN data at most, less as dictionary
  // indices) whatever the row count: ~1.8 GB of PLAIN data here.
  assert.ok(report.eventsPeakBufferBytes < 96 * 2 ** 20, `writer buffers peaked at ${report.eventsPeakBufferBytes} bytes`);
  assert.ok(report.maxRssBytes < 256 * 2 ** 20, `the process peaked at ${report.maxRssBytes} bytes`);
  let last = 0n, stacks = 0, payloads = 0, threads = 0n;
  for (const r of eventsRows(10000000)) {
    last = r.time_ns;
    if (r.stack_id !== null) stacks++;
    if (r.payload_json !== null) payloads++;
    threads += r.thread_id;
  }
  assert.deepEqual(await sql(`SELECT count(*) AS n, max(time_ns) AS last, count(stack_id) AS stacks, count(payload_json) AS payloads,
                                     sum(thread_id) AS threads FROM '${dir}/events.parquet'`),
  [{ n: 10000000n, last, stacks: BigInt(stacks), payloads: BigInt(payloads), threads }]);
});
