// core/dataset — CSV documents of the engine as Parquet tables (csv_table.h).
#include "dataset/csv_table.h"

#include <cerrno>
#include <cstdlib>
#include <memory>
#include <string>

namespace nettrace::dataset {
namespace {

using parquet::ColumnSpec;
using parquet::LogicalKind;
using parquet::PhysicalType;

constexpr size_t kBatchRows = 16384;  // rows parsed before they go to the writer

// One CSV record's fields from *pos; false at the end of the document.
bool NextRecord(std::string_view csv, size_t* pos, std::vector<std::string>* fields) {
  fields->clear();
  if (*pos >= csv.size()) return false;
  std::string field;
  size_t i = *pos;
  while (true) {
    if (i < csv.size() && csv[i] == '"') {
      for (++i; i < csv.size(); ++i) {
        if (csv[i] != '"') field += csv[i];
        else if (i + 1 < csv.size() && csv[i + 1] == '"') field += '"', ++i;
        else break;
      }
      ++i;  // the closing quote
    }
    while (i < csv.size() && csv[i] != ',' && csv[i] != '\n') field += csv[i++];
    if (!field.empty() && field.back() == '\r' && (i >= csv.size() || csv[i] == '\n')) field.pop_back();
    fields->push_back(std::move(field));
    field.clear();
    if (i >= csv.size() || csv[i] == '\n') break;
    ++i;  // the comma
  }
  *pos = i + 1;
  return true;
}

ColumnSpec SpecOf(const CsvColumn& c) {
  switch (c.type) {
    case CsvType::kString: return {c.column, PhysicalType::kByteArray, LogicalKind::kString, true};
    case CsvType::kInt64: return {c.column, PhysicalType::kInt64, LogicalKind::kSignedInt, true};
    case CsvType::kDouble: return {c.column, PhysicalType::kDouble, LogicalKind::kNone, true};
    case CsvType::kBool: return {c.column, PhysicalType::kBoolean, LogicalKind::kNone, true};
  }
  return {};
}

// The rows of one batch, column by column.
struct Batch {
  std::vector<std::vector<std::string>> text;  // kString: the values (views point into them)
  std::vector<std::vector<int64_t>> ints;
  std::vector<std::vector<double>> doubles;
  std::vector<std::vector<uint8_t>> bools, valid;
  explicit Batch(size_t n) : text(n), ints(n), doubles(n), bools(n), valid(n) {}
  size_t rows = 0;
};

Status Parse(const CsvColumn& c, const std::string& v, size_t column, uint64_t line, Batch* b) {
  const bool present = !v.empty();
  b->valid[column].push_back(present);
  char* end = nullptr;
  errno = 0;
  switch (c.type) {
    case CsvType::kString: b->text[column].push_back(v); return Status::Ok();
    case CsvType::kInt64: b->ints[column].push_back(present ? std::strtoll(v.c_str(), &end, 10) : 0); break;
    case CsvType::kDouble: b->doubles[column].push_back(present ? std::strtod(v.c_str(), &end) : 0); break;
    case CsvType::kBool:
      b->bools[column].push_back(v == "true");
      if (present && v != "true" && v != "false") break;
      return Status::Ok();
  }
  if (!present || (end && *end == '\0' && errno == 0)) return Status::Ok();
  return Status::Error(ErrorCode::kInvalidArgument, kNoOffset,
                       "CSV line " + std::to_string(line) + ", column '" + c.csvName + "': '" + v + "' is not a " +
                           (c.type == CsvType::kBool ? "boolean" : "number"));
}

Status Flush(const std::vector<CsvColumn>& columns, Batch* b, parquet::TableWriter* w) {
  for (size_t c = 0; c < columns.size(); ++c) {
    const uint8_t* valid = b->valid[c].data();
    switch (columns[c].type) {
      case CsvType::kString: {
        std::vector<std::string_view> views(b->text[c].begin(), b->text[c].end());
        NETTRACE_RETURN_IF_ERROR(w->AppendStrings(c, views.data(), valid, b->rows));
        break;
      }
      case CsvType::kInt64: NETTRACE_RETURN_IF_ERROR(w->AppendInt64(c, b->ints[c].data(), valid, b->rows)); break;
      case CsvType::kDouble: NETTRACE_RETURN_IF_ERROR(w->AppendDouble(c, b->doubles[c].data(), valid, b->rows)); break;
      case CsvType::kBool: NETTRACE_RETURN_IF_ERROR(w->AppendBool(c, b->bools[c].data(), valid, b->rows)); break;
    }
    b->text[c].clear(), b->ints[c].clear(), b->doubles[c].clear(), b->bools[c].clear(), b->valid[c].clear();
  }
  b->rows = 0;
  return w->EndBatch();
}

}  // namespace

Status WriteCsvTable(std::string_view csv, const std::vector<CsvColumn>& columns, parquet::WriterOptions options,
                     parquet::ByteSink* sink) {
  parquet::Schema schema;
  for (const CsvColumn& c : columns) schema.push_back(SpecOf(c));
  std::unique_ptr<parquet::TableWriter> w;
  NETTRACE_RETURN_IF_ERROR(parquet::TableWriter::Open(std::move(schema), std::move(options), sink, &w));
  size_t pos = 0;
  std::vector<std::string> fields;
  NextRecord(csv, &pos, &fields);
  std::vector<int> source(columns.size(), -1);  // CSV field of each column
  for (size_t c = 0; c < columns.size(); ++c)
    for (size_t f = 0; f < fields.size(); ++f)
      if (fields[f] == columns[c].csvName) source[c] = static_cast<int>(f);
  Batch batch(columns.size());
  const std::string none;
  for (uint64_t line = 2; NextRecord(csv, &pos, &fields); ++line) {
    if (fields.size() == 1 && fields[0].empty()) continue;  // a blank line
    for (size_t c = 0; c < columns.size(); ++c) {
      const int f = source[c];
      NETTRACE_RETURN_IF_ERROR(Parse(columns[c], f >= 0 && size_t(f) < fields.size() ? fields[f] : none, c, line, &batch));
    }
    if (++batch.rows == kBatchRows) NETTRACE_RETURN_IF_ERROR(Flush(columns, &batch, w.get()));
  }
  if (batch.rows) NETTRACE_RETURN_IF_ERROR(Flush(columns, &batch, w.get()));
  return w->Finish();
}

}  // namespace nettrace::dataset
