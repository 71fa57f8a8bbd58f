// The SQL tab's libraries (web/src/analyzer/sql_database.ts), bundled by scripts/build.sh into
// one ES module, duckdb/sql_libraries.mjs, fetched only when the tab is first opened: DuckDB-wasm's
// browser API, the Apache Arrow classes it takes tables in, and hyparquet to read the engine's
// Parquet tables into them (DuckDB-wasm has no Parquet reader of its own offline: its parquet
// extension is fetched from extensions.duckdb.org).
export { AsyncDuckDB, VoidLogger } from '@duckdb/duckdb-wasm';
export { parquetMetadata, parquetRead } from 'hyparquet';
export { Bool, Float64, Int32, Int64, Table, TimestampMicrosecond, Utf8, makeData, makeVector } from 'apache-arrow';
