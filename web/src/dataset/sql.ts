// web/src/dataset/sql — SQL over a dataset with DuckDB (@duckdb/node-api), the embedded
// reader of `nettrace-analyzer sql DIR_OR_TRACE… "SELECT …"`: every table of the dataset is a
// view of the same name over its hive-partitioned files (trace_id from the path). Given
// traces instead of a dataset folder, it writes their dataset to a temporary folder first and
// removes it afterwards. Node only.
import { writeDataset } from './index.js';
import type { DatasetOptions } from './index.js';
import { joinPath as join, nodeModules } from './node_modules.js';
import type { NodeFs } from './node_modules.js';

export type SqlFormat = 'table' | 'csv' | 'json';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** The members of @duckdb/node-api used here (an optional dependency, loaded when asked). */
interface DuckDB {
  DuckDBInstance: {
    create(path: string): Promise<{
      connect(): Promise<{
        run(sql: string): Promise<unknown>;
        runAndReadAll(sql: string): Promise<{ columnNames(): string[]; getRowsJson(): unknown[][] }>;
        closeSync(): void;
      }>;
      closeSync(): void;
    }>;
  };
}

export interface SqlResult {
  columns: string[];
  /** Rows as DuckDB's JSON form of each value (BIGINT beyond 2^53 and DECIMAL as strings). */
  rows: Json[][];
}

/** A folder holding a dataset (a `traces` table folder), rather than traces. */
export function isDataset(fs: NodeFs, path: string): boolean {
  return fs.existsSync(path) && fs.statSync(path).isDirectory() && fs.existsSync(join(path, 'traces'));
}

/** The views a dataset's tables get: each table folder's files, hive-partitioned by trace_id. */
export function datasetViews(fs: NodeFs, root: string): string[] {
  const quote = (s: string) => `'${s.replace(/'/g, "''")}'`;
  return fs.readdirSync(root, { withFileTypes: true })
    .filter((d) => d.isDirectory() && /^[a-z_]+$/.test(d.name))
    .map((d) => `CREATE VIEW ${d.name} AS SELECT * FROM read_parquet(${quote(join(root, d.name, '*', '*.parquet'))}, ` +
      `hive_partitioning = true, hive_types = {'trace_id': VARCHAR}, union_by_name = true)`);
}

/** Runs one query over a dataset folder, or over the dataset of these traces. */
export async function runSql(inputs: string[], query: string, options: DatasetOptions = {}): Promise<SqlResult> {
  let duckdb: DuckDB;
  try {
    const specifier: string = '@duckdb/node-api';
    duckdb = (await import(/* @vite-ignore */ specifier)) as DuckDB;
  } catch {
    throw new Error("the sql command needs DuckDB's Node package: npm install @duckdb/node-api");
  }
  const { fs, tmpdir } = await nodeModules();
  const temp = inputs.length === 1 && isDataset(fs, inputs[0]!) ? null : fs.mkdtempSync(join(tmpdir(), 'nettrace-sql-'));
  try {
    const root = temp ?? inputs[0]!;
    if (temp) await writeDataset(temp, inputs, { codec: 'none', ...options });
    const instance = await duckdb.DuckDBInstance.create(':memory:');
    const con = await instance.connect();
    try {
      await con.run("SET TimeZone = 'UTC'");
      for (const view of datasetViews(fs, root)) await con.run(view);
      const reader = await con.runAndReadAll(query);
      return { columns: reader.columnNames(), rows: reader.getRowsJson() as Json[][] };
    } finally {
      con.closeSync();
      instance.closeSync();
    }
  } finally {
    if (temp) fs.rmSync(temp, { recursive: true, force: true });
  }
}

const text = (v: Json): string => (v === null ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v));

/** RFC 4180 CSV with a header line. */
export function formatCsv(r: SqlResult): string {
  const field = (s: string) => (/[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);
  return [r.columns, ...r.rows.map((row) => row.map(text))].map((line) => line.map(field).join(',')).join('\n') + '\n';
}

/** One JSON array of row objects. */
export function formatJson(r: SqlResult): string {
  return JSON.stringify(r.rows.map((row) => Object.fromEntries(r.columns.map((c, i) => [c, row[i] ?? null])))) + '\n';
}

/** An aligned text table (numbers right-aligned), NULL shown as such. */
export function formatTable(r: SqlResult): string {
  const cells = r.rows.map((row) => row.map((v) => (v === null ? 'NULL' : text(v))));
  const widths = r.columns.map((c, i) => Math.max(c.length, ...cells.map((row) => row[i]!.length)));
  // BIGINT values come as decimal strings (they may pass 2^53): numbers too.
  const isNumber = (v: Json | undefined) => v === null || typeof v === 'number' || (typeof v === 'string' && /^-?\d+$/.test(v));
  const numeric = r.columns.map((_, i) => r.rows.length > 0 && r.rows.every((row) => isNumber(row[i])));
  const pad = (s: string, i: number) => (numeric[i] ? s.padStart(widths[i]!) : s.padEnd(widths[i]!));
  const line = (row: string[]) => row.map(pad).join(' | ').trimEnd();
  return [line(r.columns), widths.map((w) => '-'.repeat(w)).join('-+-'), ...cells.map(line)].join('\n') +
    `\n(${r.rows.length} row${r.rows.length === 1 ? '' : 's'})\n`;
}

export function formatSql(r: SqlResult, format: SqlFormat): string {
  return format === 'csv' ? formatCsv(r) : format === 'json' ? formatJson(r) : formatTable(r);
}
