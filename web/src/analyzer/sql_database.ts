// web/src/analyzer — the SQL tab's database: DuckDB-wasm, loaded only when the tab is first
// opened (nothing of it is fetched before), from the files the build puts in duckdb/ beside
// this module's folder (scripts/build.sh duckdb_assets): same origin, so the page's CSP
// (script-src/worker-src 'self', 'wasm-unsafe-eval') admits them and no CDN is asked. The open
// trace's dataset tables (api/dataset_tables.ts, Parquet written by the engine worker) are read
// by hyparquet into Arrow tables and inserted under the dataset's names and columns
// (docs/dataset.md), with `trace_id` last as a hive-partitioned read gives it: DuckDB-wasm
// reads no Parquet offline (its parquet extension is fetched from extensions.duckdb.org).
import type { DatasetTables } from '../api/dataset_tables.js';
import type { SqlColumnKind, SqlResult } from '../views/sql_view.js';

/** What this module uses of web/sql_libraries.mjs: DuckDB-wasm (pinned in package.json),
 *  hyparquet and Apache Arrow. */
interface SqlLibraries {
  VoidLogger: new () => object;
  AsyncDuckDB: new (logger: object, worker: Worker) => AsyncDuckDb;
  parquetMetadata(bytes: ArrayBuffer): { schema: ParquetSchemaElement[] };
  parquetRead(options: { file: ArrayBuffer; rowFormat: 'array'; utf8: boolean; parsers: { timestampFromMicroseconds(micros: bigint): unknown };
    onComplete(rows: unknown[][]): void }): Promise<void>;
  Table: new (columns: Record<string, unknown>) => object;
  makeData(props: { type: object; length: number; nullCount: number; nullBitmap: Uint8Array; data: ArrayBufferView; valueOffsets?: Int32Array }): unknown;
  makeVector(data: unknown): unknown;
  Int64: new () => object;
  Int32: new () => object;
  Float64: new () => object;
  Bool: new () => object;
  Utf8: new () => object;
  TimestampMicrosecond: new () => object;
}
interface ParquetSchemaElement {
  name: string;
  type?: string;
  num_children?: number;
  logical_type?: { type: string };
}
interface AsyncDuckDb {
  instantiate(mainModule: string): Promise<void>;
  open(config: { query?: { castBigIntToDouble?: boolean; castDecimalToDouble?: boolean } }): Promise<void>;
  connect(): Promise<DuckDbConnection>;
  terminate(): Promise<void>;
}
interface DuckDbConnection {
  query(sql: string): Promise<ArrowTable>;
  insertArrowTable(table: object, options: { name: string; create?: boolean }): Promise<void>;
  close(): Promise<void>;
}
/** An Apache Arrow table, as far as it is read here. */
interface ArrowTable {
  numRows: number;
  schema: { fields: { name: string; type: { typeId: number } }[] };
  getChildAt(index: number): { get(row: number): unknown } | null;
}

/** Arrow data of one column from its cells (null where absent), built here: Arrow's builders
 *  (vectorFromArray) compile their null test with `new Function`, which the page's CSP refuses. */
function columnData(lib: SqlLibraries, values: unknown[], column: ParquetSchemaElement): unknown {
  const length = values.length;
  const nullBitmap = new Uint8Array((length + 7) >> 3);
  let nullCount = 0;
  values.forEach((v, i) => (v === null || v === undefined ? nullCount++ : (nullBitmap[i >> 3]! |= 1 << (i & 7))));
  const base = { length, nullCount, nullBitmap };
  const fill = <T extends { [i: number]: unknown }>(data: T, of: (v: unknown) => unknown): T => {
    values.forEach((v, i) => v !== null && v !== undefined && ((data as Record<number, unknown>)[i] = of(v)));
    return data;
  };
  if (column.logical_type?.type === 'TIMESTAMP') return lib.makeData({ ...base, type: new lib.TimestampMicrosecond(), data: fill(new BigInt64Array(length), (v) => BigInt(v as bigint)) });
  if (column.type === 'INT64') return lib.makeData({ ...base, type: new lib.Int64(), data: fill(new BigInt64Array(length), (v) => BigInt(v as bigint)) });
  if (column.type === 'INT32') return lib.makeData({ ...base, type: new lib.Int32(), data: fill(new Int32Array(length), Number) });
  if (column.type === 'DOUBLE') return lib.makeData({ ...base, type: new lib.Float64(), data: fill(new Float64Array(length), Number) });
  if (column.type === 'BOOLEAN') {
    const bits = new Uint8Array((length + 7) >> 3);
    values.forEach((v, i) => v === true && (bits[i >> 3]! |= 1 << (i & 7)));
    return lib.makeData({ ...base, type: new lib.Bool(), data: bits });
  }
  const encoder = new TextEncoder();
  const parts = values.map((v) => (v === null || v === undefined ? new Uint8Array(0) : encoder.encode(String(v))));
  const valueOffsets = new Int32Array(length + 1);
  parts.forEach((p, i) => (valueOffsets[i + 1] = valueOffsets[i]! + p.length));
  const data = new Uint8Array(valueOffsets[length]!);
  parts.forEach((p, i) => data.set(p, valueOffsets[i]!));
  return lib.makeData({ ...base, type: new lib.Utf8(), valueOffsets, data });
}

/** One Parquet table of the engine as an Arrow table: its columns' types kept (TIMESTAMP
 *  micros exactly, as bigint), then `trace_id`. */
async function arrowTable(lib: SqlLibraries, bytes: Uint8Array, traceId: string): Promise<object> {
  const file = bytes.slice().buffer;
  const columns = lib.parquetMetadata(file).schema.filter((e) => !e.num_children);
  let rows: unknown[][] = [];
  await lib.parquetRead({ file, rowFormat: 'array', utf8: true, parsers: { timestampFromMicroseconds: (micros) => micros }, onComplete: (r) => void (rows = r) });
  const vectors: Record<string, unknown> = {};
  columns.forEach((column, c) => (vectors[column.name] = lib.makeVector(columnData(lib, rows.map((r) => r[c] ?? null), column))));
  vectors['trace_id'] = lib.makeVector(columnData(lib, rows.map(() => traceId), { name: 'trace_id' }));
  return new lib.Table(vectors);
}

// Arrow's Type enum (apache-arrow src/enum.ts): Int 2, Float 3, Decimal 7, Date 8, Timestamp 10.
function kindOf(typeId: number): SqlColumnKind {
  if (typeId === 2 || typeId === 3 || typeId === 7) return 'number';
  if (typeId === 10) return 'timestamp';
  return typeId === 8 ? 'date' : 'other';
}

const duckdbFile = (name: string): string => new URL(`../duckdb/${name}`, import.meta.url).href;

export class SqlDatabase {
  private constructor(
    private readonly db: AsyncDuckDb,
    private readonly connection: DuckDbConnection,
    private readonly worker: Worker,
  ) {}

  /** Starts DuckDB-wasm and creates the tables of one trace. */
  static async open(data: DatasetTables): Promise<SqlDatabase> {
    const lib = (await import(/* @vite-ignore */ duckdbFile('sql_libraries.mjs'))) as SqlLibraries;
    const worker = new Worker(duckdbFile('duckdb-browser-eh.worker.js'));
    try {
      const db = new lib.AsyncDuckDB(new lib.VoidLogger(), worker);
      await db.instantiate(duckdbFile('duckdb-eh.wasm'));
      // Sums of BIGINT are HUGEINT, which Arrow carries as a decimal: shown as a double.
      await db.open({ query: { castDecimalToDouble: true } });
      const connection = await db.connect();
      // Nothing from the network: DuckDB would otherwise fetch an extension it knows (ICU,
      // JSON, Parquet, …) from extensions.duckdb.org when a query names one.
      await connection.query('SET autoinstall_known_extensions = false');
      await connection.query('SET autoload_known_extensions = false');
      for (const [table, bytes] of Object.entries(data.tables)) {
        await connection.insertArrowTable(await arrowTable(lib, bytes, data.traceId), { name: table, create: true });
      }
      return new SqlDatabase(db, connection, worker);
    } catch (e) {
      worker.terminate();
      throw e;
    }
  }

  async query(sql: string): Promise<SqlResult> {
    const table = await this.connection.query(sql);
    const fields = table.schema.fields;
    const children = fields.map((_, i) => table.getChildAt(i));
    return {
      columns: fields.map((f) => f.name),
      kinds: fields.map((f) => kindOf(f.type.typeId)),
      rowCount: table.numRows,
      cell: (row, column) => children[column]?.get(row) ?? null,
    };
  }

  async close(): Promise<void> {
    try {
      await this.connection.close();
      await this.db.terminate();
    } finally {
      this.worker.terminate();
    }
  }
}
