// core/dataset — the events table's typed payload columns (payload_columns.h). Field names are
// the CLR manifest's (docs/reference/ClrEtwAll.man), as `nettrace events` prints them.
#include "dataset/payload_columns.h"

#include <cstdlib>

#include "dataset/summary_fields.h"

namespace nettrace::dataset {
const std::vector<PayloadColumn>& PayloadColumns() {
  static const std::vector<PayloadColumn> columns = {
      {"Exception/Start", "ExceptionType", "exception_type", CsvType::kString},
      {"Exception/Start", "ExceptionMessage", "exception_message", CsvType::kString},
      {"GC/Start", "Count", "gc_number", CsvType::kInt64},
      {"GC/Start", "Depth", "gc_generation", CsvType::kInt64},
      {"GC/Start", "Reason", "gc_reason", CsvType::kInt64},
      {"GC/AllocationTick", "AllocationAmount64", "alloc_bytes", CsvType::kInt64},
      {"GC/AllocationTick", "TypeName", "alloc_type", CsvType::kString},
      {"Contention/Stop", "DurationNs", "contention_duration_ns", CsvType::kDouble},
      {"Method/LoadVerbose", "MethodNamespace", "method_namespace", CsvType::kString},
      {"Method/LoadVerbose", "MethodName", "method_name", CsvType::kString},
  };
  return columns;
}

void AddPayloadColumnSpecs(parquet::Schema* schema) {
  for (const PayloadColumn& c : PayloadColumns()) {
    switch (c.type) {
      case CsvType::kString:
        schema->push_back({c.column, parquet::PhysicalType::kByteArray, parquet::LogicalKind::kString, true});
        break;
      case CsvType::kInt64:
        schema->push_back({c.column, parquet::PhysicalType::kInt64, parquet::LogicalKind::kSignedInt, true});
        break;
      default: schema->push_back({c.column, parquet::PhysicalType::kDouble, parquet::LogicalKind::kNone, true}); break;
    }
  }
}

void PayloadColumnBatch::Reset(size_t rows) {
  const size_t n = PayloadColumns().size();
  text_.resize(n), ints_.resize(n), doubles_.resize(n), valid_.resize(n);
  for (size_t c = 0; c < n; ++c) text_[c].assign(rows, {}), ints_[c].assign(rows, 0), doubles_[c].assign(rows, 0), valid_[c].assign(rows, 0);
}

void PayloadColumnBatch::Fill(size_t i, bool runtime, std::string_view eventName, std::string_view payload) {
  if (!runtime) return;
  const std::vector<PayloadColumn>& columns = PayloadColumns();
  for (size_t c = 0; c < columns.size(); ++c) {
    if (eventName != columns[c].event) continue;
    if (columns[c].type == CsvType::kString) {
      if (auto v = JsonString(payload, {columns[c].field})) text_[c][i] = std::move(*v), valid_[c][i] = 1;
      continue;
    }
    const auto raw = JsonAt(payload, {columns[c].field});
    if (!raw || raw->empty()) continue;
    std::string text(*raw);
    if (text.size() > 2 && text.front() == '"') text = text.substr(1, text.size() - 2);  // "0x…"
    char* end = nullptr;
    const bool hex = text.rfind("0x", 0) == 0;
    if (columns[c].type == CsvType::kInt64) {
      ints_[c][i] = hex ? static_cast<int64_t>(std::strtoull(text.c_str() + 2, &end, 16)) : std::strtoll(text.c_str(), &end, 10);
    } else {
      doubles_[c][i] = hex ? static_cast<double>(std::strtoull(text.c_str() + 2, &end, 16)) : std::strtod(text.c_str(), &end);
    }
    valid_[c][i] = end && *end == '\0';
  }
}

Status PayloadColumnBatch::Append(parquet::TableWriter* w, size_t firstColumn, size_t rows) const {
  const std::vector<PayloadColumn>& columns = PayloadColumns();
  for (size_t c = 0; c < columns.size(); ++c) {
    const size_t column = firstColumn + c;
    if (columns[c].type == CsvType::kString) {
      std::vector<std::string_view> views(text_[c].begin(), text_[c].begin() + rows);
      NETTRACE_RETURN_IF_ERROR(w->AppendStrings(column, views.data(), valid_[c].data(), rows));
    } else if (columns[c].type == CsvType::kInt64) {
      NETTRACE_RETURN_IF_ERROR(w->AppendInt64(column, ints_[c].data(), valid_[c].data(), rows));
    } else {
      NETTRACE_RETURN_IF_ERROR(w->AppendDouble(column, doubles_[c].data(), valid_[c].data(), rows));
    }
  }
  return Status::Ok();
}

}  // namespace nettrace::dataset
