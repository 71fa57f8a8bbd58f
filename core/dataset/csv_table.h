// core/dataset — a table the engine already writes as CSV (the GC and JIT statistics, the
// event views: README "Views"), written as Parquet with declared column types. The views
// stay the one place their rows are computed; this only types and renames their columns.
// A CSV column missing from the document is all null; a CSV column not declared is left
// out; an empty field is null; a field that does not parse as its column's type is an
// error naming the row and column.
#pragma once

#include <string_view>
#include <vector>

#include "base/status.h"
#include "dataset/byte_sink.h"
#include "dataset/table_writer.h"

namespace nettrace::dataset {

enum class CsvType { kString, kInt64, kDouble, kBool };

struct CsvColumn {
  const char* csvName;  // the header's name
  const char* column;   // the Parquet column's name (snake_case, with its unit)
  CsvType type;
};

// Parses RFC 4180 CSV (header line, quoted fields with doubled quotes, LF or CRLF) and writes
// its rows as one table, in batches of rows so a row group is flushed as it fills.
Status WriteCsvTable(std::string_view csv, const std::vector<CsvColumn>& columns, parquet::WriterOptions options,
                     parquet::ByteSink* sink);

}  // namespace nettrace::dataset
