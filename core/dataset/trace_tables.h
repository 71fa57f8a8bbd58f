// core/dataset — the tables of one trace (docs/dataset.md "Tables"), each written from what
// the engine already computes: `events` from the store (payload fields as the event table
// decodes them, re-read from the file a page of blocks at a time), `samples` from the stack
// selections the flame graph weighs (one per weight), `stacks` and `frames` from the one
// stack resolver the events and samples were resolved with (so their ids join), and the
// GC, JIT and view tables from the CSV the engine writes for them (view_tables.h).
//
//   TraceTables t(session.stackModel(), read);
//   for (const char* table : kTraceTables) t.Write(table, options, sink);  // in this order
//
// The order matters: `stacks` and `frames` hold the stacks `events` and `samples` used.
#pragma once

#include <array>
#include <memory>
#include <string>

#include "base/status.h"
#include "dataset/byte_sink.h"
#include "dataset/table_writer.h"
#include "model/trace_model.h"
#include "reread/paged_reader.h"

namespace nettrace {
class StackResolver;
}

namespace nettrace::dataset {

// Every table of a trace but `traces`, which is written last (traces_table.h).
inline constexpr std::array<const char*, 10> kTraceTables = {
    "events", "samples", "stacks", "frames", "gcs", "jit", "exceptions", "contention", "activities", "counters"};

// The writer options a table's file gets: created_by and the schema version and table name
// as key/values (docs/parquet-writer.md "What it writes").
parquet::WriterOptions Stamped(parquet::WriterOptions options, const std::string& table);

class TraceTables {
 public:
  // `model` with its symbols prepared (read/read_pipeline.h PrepareSymbols); `read` re-reads
  // event blocks for the payloads (through a block cache of the tables' own), null leaves
  // payload_json null.
  TraceTables(const TraceModel& model, BlockReader read);
  ~TraceTables();
  Status Write(const std::string& table, parquet::WriterOptions options, parquet::ByteSink* sink);

 private:
  Status WriteEvents(parquet::WriterOptions options, parquet::ByteSink* sink);
  Status WriteSamples(parquet::WriterOptions options, parquet::ByteSink* sink);
  Status WriteStacks(parquet::WriterOptions options, parquet::ByteSink* sink);
  Status WriteFrames(parquet::WriterOptions options, parquet::ByteSink* sink);
  void Use(uint32_t stack);

  const TraceModel& model_;
  BlockReader read_;
  PagedReader paged_;
  std::unique_ptr<StackResolver> resolver_;
  std::vector<uint8_t> used_;  // call stack → written by events or samples
};

}  // namespace nettrace::dataset
