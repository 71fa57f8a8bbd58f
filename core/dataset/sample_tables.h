// core/dataset — deterministic sample tables that exercise the Parquet writer end to end:
// every column type and logical type with nulls and extreme values, an empty table, big
// strings (past the page size and the dictionary bound), and an events-shaped table of any
// length for memory and speed measurements. The native CLI (`nettrace parquet-sample`) and
// the wasm build write the same bytes from them; tests/node/dataset_parquet.test.mjs reads
// them with DuckDB and hyparquet against values it computes from the same formulas.
#pragma once

#include <cstdint>
#include <string>

#include "base/status.h"
#include "dataset/byte_sink.h"
#include "dataset/table_writer.h"

namespace nettrace::dataset {

// Every type: flag BOOLEAN?, i32 INT32 INTEGER(32), i64 INT64 INTEGER(64), raw_i64 INT64?,
// d DOUBLE?, s STRING?, ts_us TIMESTAMP(MICROS), ts_ns TIMESTAMP(NANOS)?, label STRING
// (dictionary off); `rows` rows, each value a function of the row number.
Status WriteTypesSample(uint64_t rows, parquet::WriterOptions options, parquet::ByteSink* sink);

// id INT32, text STRING: six strings of 0 B to 3 MiB whose bytes are 'a' + (j % 26).
Status WriteBigStringsSample(parquet::WriterOptions options, parquet::ByteSink* sink);

// The shape of the dataset's events table (trace_id, time_ns, time_utc, provider,
// event_name, event_id, thread_id, stack_id?, payload_json?) from a xorshift32 stream, in
// batches of 64 Ki rows (or of a row group, when that is less). *peakBufferBytes (when given): the most the column buffers held.
Status WriteEventsSample(uint64_t rows, parquet::WriterOptions options, parquet::ByteSink* sink,
                         uint64_t* peakBufferBytes = nullptr);

}  // namespace nettrace::dataset
