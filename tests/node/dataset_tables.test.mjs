// Every table of the dataset (docs/dataset.md "Tables") over six committed traces of every
// container (NetPerf v3, NetTrace v4 and v5, v6 converted): DuckDB over the folder returns,
// per trace, exactly the engine's own answers by another path — the Summary's event counts
// per type, `nettrace gc`'s GCs, `jit`'s totals, `exceptions`' counts by type and `top`'s
// functions for the default weight (from samples ⋈ stacks ⋈ frames); hyparquet reads every
// file; a re-run changes no file; the npm CLI's `dataset` writes the same rows as the native
// one, and its `sql` prints DuckDB's answer over a folder and over traces given directly.
import test from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { parquetMetadata, parquetReadObjects } from 'hyparquet';
import { compressors } from 'hyparquet-compressors';
import { nativeTool, root, runAsync, runNative, testdata } from './helpers.mjs';

const npmTool = join(root, 'dist/bin/nettrace-analyzer.mjs');
const work = mkdtempSync(join(tmpdir(), 'nettrace-dataset-tables-'));
test.after(() => rmSync(work, { recursive: true, force: true }));
const native = join(work, 'native');
const npm = join(work, 'npm');

const v6 = join(work, 'only_managed_samples.v6.nettrace');
assert.equal(runNative('convert', join(testdata, 'only_managed_samples.nettrace'), [v6]).status, 0);
const traces = [
  join(testdata, 'dotnet10/net10-ipc.netperf'), // NetPerf v3
  join(testdata, 'pyroscope-net5-single-thread.nettrace'), // v4, samples
  join(testdata, 'dotnet10/net10-web-exceptions.nettrace'), // v4, exceptions, activities
  join(testdata, 'dotnet10/net10-gc-verbose.nettrace'), // v5, GCs
  join(testdata, 'dotnet10/net10-startup-streaming.nettrace'), // v5, JIT
  v6,
];
const TABLES = ['events', 'samples', 'thread_time', 'stacks', 'frames', 'gcs', 'jit', 'exceptions', 'contention', 'activities', 'counters', 'traces'];
const sha256 = (path) => createHash('sha256').update(readFileSync(path)).digest('hex');
const json = (command, file, args = []) => JSON.parse(runNative(command, file, args).stdout.toString());

async function run(cmd, args) {
  const r = await runAsync(cmd, args);
  assert.equal(r.status, 0, r.stderr.toString());
  return r.stdout.toString();
}
const lines = (text) => text.trim().split('\n').map((line) => JSON.parse(line));

const firstRun = lines(await run(nativeTool, ['dataset', native, ...traces]));

const duck = await DuckDBInstance.create(':memory:');
const con = await duck.connect();
const sql = async (q) => (await con.runAndReadAll(q)).getRowObjects();
const view = (dir, table) => `read_parquet('${dir}/${table}/*/*.parquet', hive_partitioning = true, hive_types = {'trace_id': VARCHAR})`;
for (const table of TABLES) await con.run(`CREATE VIEW ${table} AS SELECT * FROM ${view(native, table)}`);

test('every table of every trace is written, traces last', () => {
  assert.deepEqual(firstRun, traces.map((file) => ({ file, traceId: sha256(file), written: TABLES })));
});

// traces.runtime_version / command_line / process_name by another path: the Runtime/Start and
// ProcessInfo events as `nettrace events` decodes them, with TraceLog's rules (the first
// version, replaced by one with a QFE number; ProcessInfo's command line, else the runtime's;
// the name is the image's file name without .exe/.dll).
test('traces: runtime version, command line and process name from the trace\'s events', async () => {
  let known = 0;
  for (const file of traces) {
    const fields = (name) => runNative('events', file, ['--name', name, '--limit', '1000']).stdout.toString().trim().split('\n')
      .filter(Boolean).map((l) => JSON.parse(l)).filter((e) => name !== 'Runtime/Start' || /DotNETRuntime(Rundown)?$/.test(e.provider))
      .map((e) => Object.fromEntries(e.payload.fields.map((f) => [f.name, f.value])));
    let version = null;
    for (const f of fields('Runtime/Start')) {
      if (version === null || f.VMQfeNumber > 0) version = `${f.VMMajorVersion}.${f.VMMinorVersion}.${f.VMBuildNumber}.${f.VMQfeNumber}`;
    }
    const commandLine = fields('ProcessInfo')[0]?.CommandLine || fields('Runtime/Start').find((f) => f.CommandLine)?.CommandLine || null;
    const image = commandLine?.split(' ')[0].split(/[\\/]/).at(-1) ?? null;
    const [row] = await sql(`SELECT runtime_version, command_line, process_name FROM traces WHERE trace_id = '${sha256(file)}'`);
    assert.deepEqual(row, { runtime_version: version, command_line: commandLine, process_name: image?.replace(/\.(dll|exe)$/i, '') ?? null }, file);
    if (version !== null && commandLine !== null) known++;
  }
  assert.ok(known >= 3, `${known} traces with a runtime version and a command line`);
});

test('events: per trace, the Summary\'s count of every event type', async () => {
  for (const file of traces) {
    const summary = json('summary', file);
    const expected = new Map();
    for (const t of summary.types) expected.set(`${t.provider}/${t.name}`, (expected.get(`${t.provider}/${t.name}`) ?? 0) + t.count);
    const rows = await sql(`SELECT provider, event_name, count(*) AS n FROM events WHERE trace_id = '${sha256(file)}' GROUP BY ALL`);
    assert.deepEqual(new Map(rows.map((r) => [`${r.provider}/${r.event_name}`, Number(r.n)])), expected, file);
    assert.equal(rows.reduce((n, r) => n + Number(r.n), 0), summary.eventCount, file);
  }
});

test('events: payload fields as JSON, as `nettrace events` decodes them', async () => {
  const file = join(testdata, 'dotnet10/net10-gc-verbose.nettrace');
  const [first] = lines(runNative('events', file, ['--name', 'GC/Start', '--limit', '1']).stdout.toString());
  const [row] = await sql(`SELECT payload_json FROM events WHERE trace_id = '${sha256(file)}' AND event_name = 'GC/Start' ORDER BY time_ns LIMIT 1`);
  assert.deepEqual(JSON.parse(row.payload_json), Object.fromEntries(first.payload.fields.map((f) => [f.name, f.value])));
});

test('events: typed payload columns — the throws of each type, as `nettrace exceptions` counts them', async () => {
  let throws = 0;
  for (const file of traces) {
    const view = json('exceptions', file);
    const rows = await sql(`SELECT exception_type AS type, count(*) AS n FROM events WHERE trace_id = '${sha256(file)}'
                            AND event_name = 'Exception/Start' GROUP BY ALL`);
    assert.deepEqual(new Map(rows.map((r) => [r.type, Number(r.n)])), new Map(view.types.map((t) => [t.type, t.count])), file);
    throws += view.count;
  }
  assert.ok(throws > 1000, `${throws} throws`);
  const [gc] = await sql(`SELECT count(*) FILTER (gc_number IS NULL OR gc_generation IS NULL) AS missing, count(*) AS n
                          FROM events WHERE event_name = 'GC/Start'`);
  assert.equal(Number(gc.missing), 0);
  const [m] = await sql(`SELECT count(*) FILTER (method_name IS NULL) AS missing, count(*) AS n FROM events WHERE event_name = 'Method/LoadVerbose'`);
  assert.ok(Number(m.n) > 100 && Number(m.missing) === 0, `${m.n} Method/LoadVerbose, ${m.missing} without a name`);
});

test('gcs: per trace, the rows of `nettrace gc`', async () => {
  let total = 0;
  for (const file of traces) {
    const expected = json('gc', file).processes.flatMap((p) =>
      p.gcs.map((g) => ({ process_id: BigInt(p.processId), gc_number: BigInt(g.number), generation: BigInt(g.generation), type: g.type,
        reason: g.reason, is_induced: g.isInduced, start_ms: g.startMs, pause_ms: g.pauseMs, heap_size_after_bytes: g.heapSizeAfterBytes === undefined ? null : BigInt(g.heapSizeAfterBytes) })));
    const rows = await sql(`SELECT process_id, gc_number, generation, type, reason, is_induced, start_ms, pause_ms, heap_size_after_bytes
                            FROM gcs WHERE trace_id = '${sha256(file)}' ORDER BY process_id, gc_number`);
    assert.deepEqual(rows, expected, file);
    total += rows.length;
  }
  assert.ok(total >= 24, `${total} GCs`);
});

test('jit: per trace and process, the totals of `nettrace jit`', async () => {
  let methods = 0;
  for (const file of traces) {
    for (const p of json('jit', file).processes) {
      const [row] = await sql(`SELECT count(*) AS n, sum(jit_time_ms) AS ms, count(*) FILTER (compilation_thread = 'Foreground') AS fg
                               FROM jit WHERE trace_id = '${sha256(file)}' AND process_id = ${p.processId}`);
      assert.equal(Number(row.n), p.totals.count, file);
      assert.equal(Number(row.fg), p.totals.countForeground, file);
      // Each method's time is in the view's CSV to 6 decimals: the sum is off by at most half
      // a unit of the last digit per method.
      assert.ok(Math.abs(row.ms - p.totals.totalJitTimeMs) <= p.totals.count * 5e-7 + 1e-6, `${file}: ${row.ms} vs ${p.totals.totalJitTimeMs}`);
      methods += p.totals.count;
    }
  }
  assert.ok(methods > 100, `${methods} methods`);
});

test('exceptions: per trace, the count of each type in `nettrace exceptions`', async () => {
  let throws = 0;
  for (const file of traces) {
    const view = json('exceptions', file);
    const rows = await sql(`SELECT type, sum(count) AS n FROM exceptions WHERE trace_id = '${sha256(file)}' GROUP BY type`);
    assert.deepEqual(new Map(rows.map((r) => [r.type, Number(r.n)])), new Map(view.types.map((t) => [t.type, t.count])), file);
    throws += view.count;
  }
  assert.ok(throws > 1000, `${throws} throws`);
});

// Top functions from samples ⋈ stacks ⋈ frames: exclusive where the frame is the stack's
// leaf, inclusive where the stack holds it (once per sample, recursion or not).
const TOP = (id, weight, table = 'samples') => `
  WITH s AS (SELECT stack_id, ${weight} AS w FROM ${table} WHERE trace_id = '${id}' AND stack_id IS NOT NULL),
  f AS (SELECT frame_id, name FROM frames WHERE trace_id = '${id}'),
  st AS (SELECT stack_id, position, depth, frame_id FROM stacks WHERE trace_id = '${id}'),
  incl AS (SELECT f.name, sum(s.w) AS inclusive, count(*) AS inclusive_count
           FROM s JOIN (SELECT DISTINCT stack_id, frame_id FROM st) USING (stack_id) JOIN f USING (frame_id) GROUP BY f.name),
  excl AS (SELECT f.name, sum(s.w) AS exclusive, count(*) AS exclusive_count
           FROM s JOIN st USING (stack_id) JOIN f USING (frame_id) WHERE st.position = st.depth - 1 GROUP BY f.name)
  SELECT name, inclusive, coalesce(exclusive, 0) AS exclusive, inclusive_count, coalesce(exclusive_count, 0) AS exclusive_count
  FROM incl LEFT JOIN excl USING (name)`;

// The samples column counts samples: `top --weight count` (top's default for CPU samples,
// dotnet-trace's thread time, is the thread_time table below).
test('samples ⋈ stacks ⋈ frames: per trace, every function of `nettrace top --weight count`', async () => {
  let functions = 0;
  for (const file of traces) {
    const top = json('top', file, ['-n', '1000000', '--weight', 'count']);
    const rows = await sql(TOP(sha256(file), 'samples'));
    const got = new Map(rows.map((r) => [r.name, { inclusive: Number(r.inclusive), exclusive: Number(r.exclusive),
      inclusiveCount: Number(r.inclusive_count), exclusiveCount: Number(r.exclusive_count) }]));
    assert.deepEqual(got, new Map(top.functions.map((f) => [f.name, { inclusive: f.inclusive, exclusive: f.exclusive,
      inclusiveCount: f.inclusiveCount, exclusiveCount: f.exclusiveCount }])), file);
    const [{ total }] = await sql(`SELECT coalesce(sum(samples), 0) AS total FROM samples WHERE trace_id = '${sha256(file)}'`);
    assert.equal(Number(total), top.total, file);
    functions += got.size;
  }
  assert.ok(functions > 100, `${functions} functions`);
});

test('samples: thread time per function equals `top --weight thread-time`', async () => {
  const file = join(testdata, 'pyroscope-net5-single-thread.nettrace');
  const top = json('top', file, ['-n', '1000000', '--weight', 'thread-time']);
  const rows = await sql(TOP(sha256(file), 'thread_time_ns'));
  const got = new Map(rows.map((r) => [r.name, [Number(r.inclusive), Number(r.exclusive)]]));
  assert.deepEqual(got, new Map(top.functions.map((f) => [f.name, [f.inclusive, f.exclusive]])));
});

// top's default weight for CPU samples is dotnet-trace's thread time, whose stacks end in a
// CPU_TIME / UNMANAGED_CODE_TIME leaf: the thread_time table, one row per charged interval.
test('thread_time ⋈ stacks ⋈ frames: per trace with CPU samples, every function of `nettrace top` (its default weight)', async () => {
  let functions = 0;
  for (const file of traces) {
    const top = json('top', file, ['-n', '1000000']);
    if (top.unit !== 'nanoseconds') continue; // no CPU samples: top's default is a count
    const rows = await sql(TOP(sha256(file), 'thread_time_ns', 'thread_time'));
    const got = new Map(rows.map((r) => [r.name, [Number(r.inclusive), Number(r.exclusive)]]));
    assert.deepEqual(got, new Map(top.functions.map((f) => [f.name, [f.inclusive, f.exclusive]])), file);
    const [{ total }] = await sql(`SELECT coalesce(sum(thread_time_ns), 0) AS total FROM thread_time WHERE trace_id = '${sha256(file)}'`);
    assert.equal(Number(total), top.total, file);
    functions += got.size;
  }
  assert.ok(functions > 100, `${functions} functions`);
});

const partFiles = (dir) => TABLES.flatMap((table) => readdirSync(join(dir, table)).map((p) => join(dir, table, p, 'part-0.parquet')));

test('hyparquet reads every file, the rows DuckDB reads', async () => {
  for (const path of partFiles(native)) {
    const bytes = readFileSync(path);
    const file = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length);
    const rows = await parquetReadObjects({ file, compressors });
    const [{ n }] = await sql(`SELECT count(*) AS n FROM read_parquet('${path}')`);
    assert.equal(rows.length, Number(n), path);
    const kv = Object.fromEntries(parquetMetadata(file).key_value_metadata.map((e) => [e.key, e.value]));
    assert.equal(kv['nettrace.dataset.schema_version'], '1', path);
    assert.equal(kv['nettrace.dataset.table'], path.split('/').at(-3), path);
  }
});

test('a second run skips every trace and changes no file', async () => {
  const before = new Map(partFiles(native).map((p) => [p, [statSync(p).mtimeMs, sha256(p)]]));
  const again = lines(await run(nativeTool, ['dataset', native, ...traces]));
  assert.deepEqual(again, traces.map((file) => ({ file, traceId: sha256(file), skipped: 'present' })));
  assert.deepEqual(new Map(partFiles(native).map((p) => [p, [statSync(p).mtimeMs, sha256(p)]])), before);
});

test('npm CLI: dataset writes the native rows (gzip pages), sql prints DuckDB\'s answers', async () => {
  const written = lines(await run(process.execPath, [npmTool, 'dataset', npm, ...traces]));
  assert.deepEqual(written, traces.map((file) => ({ file, traceId: sha256(file), written: TABLES })));
  for (const table of TABLES) {
    const digest = async (dir) => sql(`SELECT trace_id, count(*) AS n, sum(hash(COLUMNS(* EXCLUDE (trace_id)))) AS h FROM ${view(dir, table)} GROUP BY trace_id ORDER BY trace_id`);
    assert.deepEqual(await digest(npm), await digest(native), table);
  }
  const q = 'SELECT t.file_name, count(*) AS events FROM events e JOIN traces t USING (trace_id) GROUP BY ALL ORDER BY 1';
  const expected = (await sql(q)).map((r) => ({ file_name: r.file_name, events: Number(r.events) }));
  const fromDir = JSON.parse(await run(process.execPath, [npmTool, 'sql', npm, q, '--format', 'json']));
  assert.deepEqual(fromDir.map((r) => ({ file_name: r.file_name, events: Number(r.events) })), expected);
  const fromTraces = await run(process.execPath, [npmTool, 'sql', traces[1], traces[3], q, '--format', 'csv']);
  const csv = expected.filter((r) => [traces[1], traces[3]].some((t) => t.endsWith(r.file_name)));
  assert.equal(fromTraces, `file_name,events\n${csv.map((r) => `${r.file_name},${r.events}`).join('\n')}\n`);
  const table = await run(process.execPath, [npmTool, 'sql', npm, "SELECT 'a' AS name, 12::BIGINT AS n, NULL AS z UNION ALL SELECT 'bcdef', 7, NULL"]);
  assert.equal(table, 'name  |  n |    z\n------+----+-----\na     | 12 | NULL\nbcdef |  7 | NULL\n(2 rows)\n');
});

test('docs/dataset.md: every query runs in DuckDB; top functions across traces sum `nettrace top`', async () => {
  const docs = readFileSync(join(root, 'docs/dataset.md'), 'utf8');
  const queries = [...docs.matchAll(/```sql\n([\s\S]*?)```/g)].map((m) => m[1]
    .replace('P50', 'quantile_cont(g.pause_ms, 0.5)').replace('P99', 'quantile_cont(g.pause_ms, 0.99)'));
  assert.equal(queries.length, 4);
  const [top, gcs, exceptions, activities] = await Promise.all(queries.map((q) => sql(q)));
  const exclusive = new Map();
  for (const file of traces)
    for (const f of json('top', file, ['-n', '1000000', '--weight', 'count']).functions) exclusive.set(f.name, (exclusive.get(f.name) ?? 0) + f.exclusive);
  assert.equal(top.length, 20);
  for (const r of top) assert.equal(Number(r.exclusive_samples), exclusive.get(r.name), r.name);
  const heaviest = Math.max(...exclusive.values());
  assert.equal(Number(top[0].exclusive_samples), heaviest);
  assert.ok(gcs.length >= 2 && exceptions.length >= 2 && activities.length === 20);
});
