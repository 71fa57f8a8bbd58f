// core/dataset — typed columns of the `events` table for the runtime events the views read
// (docs/dataset.md "Tables"): the throw's exception type and message, the GC's number,
// generation and reason, an allocation tick's bytes and type, a contention's duration, a
// loaded method's name. Each is null on every other event; every event keeps its whole
// payload in payload_json, so these only save engines a JSON function on the common queries.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "dataset/csv_table.h"
#include "dataset/table_writer.h"

namespace nettrace::dataset {

struct PayloadColumn {
  const char* event;   // the runtime event's display name (Microsoft-Windows-DotNETRuntime)
  const char* field;   // its payload field
  const char* column;  // the events table's column
  CsvType type;        // kString, kInt64 (numbers, or "0x…" hex as TraceEvent prints sizes) or kDouble
};

// The columns, in the order they follow the events table's other columns.
const std::vector<PayloadColumn>& PayloadColumns();
void AddPayloadColumnSpecs(parquet::Schema* schema);

// One batch of rows' typed payload values.
class PayloadColumnBatch {
 public:
  void Reset(size_t rows);
  // Row i's values from its payload object ({name: value}); runtime: the event is the
  // runtime provider's.
  void Fill(size_t i, bool runtime, std::string_view eventName, std::string_view payload);
  // Appends the batch to columns firstColumn… of `w`.
  Status Append(parquet::TableWriter* w, size_t firstColumn, size_t rows) const;

 private:
  std::vector<std::vector<std::string>> text_;
  std::vector<std::vector<int64_t>> ints_;
  std::vector<std::vector<double>> doubles_;
  std::vector<std::vector<uint8_t>> valid_;
};

}  // namespace nettrace::dataset
