// The Parquet writer compiled to wasm (wasm/dataset_bindings.cc) writes the same bytes as the
// native build for the same rows and codec: the sample tables uncompressed, and the traces
// table of committed traces from the wasm engine's own Summary; GZIP pages from Node's zlib
// read back by DuckDB and hyparquet; SHA-256 in chunks equals Node's.
import test from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, openAsBlob, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { DuckDBInstance } from '@duckdb/node-api';
import { parquetReadObjects } from 'hyparquet';
import { compressors } from 'hyparquet-compressors';
import { loadRawModule, nativeTool, root, runAsync, testdata } from './helpers.mjs';

const work = mkdtempSync(join(tmpdir(), 'nettrace-parquet-wasm-'));
test.after(() => rmSync(work, { recursive: true, force: true }));
const m = await loadRawModule();

// The file a wasm call writes, gathered from its write callback (each view copied at once).
function wasmFile(call) {
  const parts = [];
  const result = call((view) => parts.push(view.slice()));
  assert.ok(result.ok, result.message);
  return Buffer.concat(parts);
}

const native = join(work, 'native');
mkdirSync(native);
const r = await runAsync(nativeTool, ['parquet-sample', native, '--rows', '200000', '--row-group-rows', '50000', '--codec', 'none']);
assert.equal(r.status, 0, r.stderr);

test('wasm and native write the same bytes for every sample table', () => {
  for (const kind of ['types', 'empty', 'big_strings', 'events']) {
    const bytes = wasmFile((write) => m.writeParquetSample(kind, 200000, 50000, 'none', write, undefined));
    assert.ok(bytes.equals(readFileSync(join(native, `${kind}.parquet`))), kind);
  }
});

test('GZIP pages compressed by Node\'s zlib read back as the uncompressed rows', async () => {
  const gz = wasmFile((write) => m.writeParquetSample('events', 200000, 50000, 'gzip', write, (v) => gzipSync(v)));
  const path = join(work, 'events.gzip.parquet');
  writeFileSync(path, gz);
  const con = await (await DuckDBInstance.create(':memory:')).connect();
  const check = async (p) => (await con.runAndReadAll(`SELECT count(*) AS n, sum(hash(COLUMNS(*))) AS h FROM '${p}'`)).getRowObjects();
  assert.deepEqual(await check(path), await check(join(native, 'events.parquet')));
  const [{ compression }] = (await con.runAndReadAll(`SELECT DISTINCT compression FROM parquet_metadata('${path}')`)).getRowObjects();
  assert.equal(compression, 'GZIP');
  const read = (b) => parquetReadObjects({ file: b.buffer.slice(b.byteOffset, b.byteOffset + b.length), compressors });
  assert.deepEqual(await read(gz), await read(readFileSync(join(native, 'events.parquet'))));
});

test('codecs the wasm build cannot write are errors, not files', () => {
  const parts = [];
  const zstd = m.writeParquetSample('types', 0, 0, 'zstd', (v) => parts.push(v), undefined);
  assert.equal(zstd.ok, false);
  assert.match(zstd.message, /wasm build writes 'none', or 'gzip'/);
  assert.equal(m.writeParquetSample('nothing', 0, 0, 'none', (v) => parts.push(v), undefined).ok, false);
});

// Reads a file into a wasm TraceSession and hashes it with the wasm SHA-256, chunk by chunk.
function readInWasm(path) {
  const bytes = readFileSync(path);
  const session = new m.TraceSession();
  const hash = new m.Sha256();
  const chunk = 1 << 20;
  const buffer = m._malloc(chunk);
  for (let at = 0; at < bytes.length; at += chunk) {
    const piece = bytes.subarray(at, at + chunk);
    m.HEAPU8.set(piece, buffer);
    hash.update(buffer, piece.length);
    if (session.status().ok) session.pushChunk(buffer, piece.length);
  }
  m._free(buffer);
  if (session.status().ok) session.finish();
  const out = { summary: session.summaryJson(), id: hash.hex(), size: bytes.length, session, bytes };
  hash.delete();
  return out;
}

test('the traces table from the wasm engine equals the native command\'s file', async () => {
  const dir = join(work, 'dataset');
  const traces = [join(testdata, 'only_managed_samples.nettrace'), join(testdata, 'dotnet10/net10-gc-verbose.nettrace'),
    join(testdata, 'truncated/dotnet-trace-netcore3.0-preview-truncated.nettrace')];
  const done = await runAsync(nativeTool, ['dataset', dir, '--codec', 'none', ...traces]);
  assert.equal(done.status, 0, done.stderr);
  for (const path of traces) {
    const t = readInWasm(path);
    assert.equal(t.id, createHash('sha256').update(readFileSync(path)).digest('hex'));
    // The row's runtime facts come from the trace's events, re-read from its bytes.
    const tables = new m.TraceTables(t.session, (offset, size) => t.bytes.subarray(offset, offset + size));
    const bytes = wasmFile((write) => tables.writeTraces(t.summary, t.id, basename(path), t.size, 'none', write, undefined));
    tables.delete();
    t.session.delete();
    assert.ok(bytes.equals(readFileSync(join(dir, 'traces', `trace_id=${t.id}`, 'part-0.parquet'))), path);
  }
});

// What the page's SQL tab registers (TraceHandle.datasetTables, api/dataset_tables.ts): every
// table of a trace, uncompressed, byte for byte the native command's `--codec none` files.
test('datasetTables() of a handle equals the native dataset files (codec none), every table', async () => {
  const { openTrace } = await import(join(root, 'dist/index.js'));
  const dir = join(work, 'dataset-none');
  const traces = [join(testdata, 'only_managed_samples.nettrace'), join(testdata, 'dotnet10/net10-gc-verbose.nettrace')];
  const done = await runAsync(nativeTool, ['dataset', dir, '--codec', 'none', ...traces]);
  assert.equal(done.status, 0, done.stderr);
  for (const path of traces) {
    const trace = await openTrace(await openAsBlob(path));
    try {
      const { traceId, tables } = await trace.datasetTables(basename(path));
      assert.equal(traceId, createHash('sha256').update(readFileSync(path)).digest('hex'));
      assert.deepEqual(Object.keys(tables).sort(), readdirSync(dir).sort());
      for (const [table, bytes] of Object.entries(tables)) {
        const file = readFileSync(join(dir, table, `trace_id=${traceId}`, 'part-0.parquet'));
        assert.ok(file.equals(bytes), `${basename(path)} ${table}`);
      }
    } finally {
      trace.close();
    }
  }
});
