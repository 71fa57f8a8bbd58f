// core/dataset — a streaming Parquet table writer: a schema, column-wise batches of rows in,
// a file out through a ByteSink, written once from the front. Rows are buffered per column
// (column_buffer.h) and written as a row group when the buffered rows reach a bound in
// PLAIN-encoded bytes or in rows, so memory is the row-group buffers plus one page.
//
//   TableWriter w;  Open(schema, options, &sink, &w)
//   per batch: Append*(column, values, valid, n) for every column, then EndBatch()
//   Finish(): the last row group and the footer (parquet_footer.h)
//
// The bytes depend only on the schema, the options and the rows (no time, no random id).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/status.h"
#include "dataset/byte_sink.h"
#include "dataset/column_buffer.h"
#include "dataset/page_codec.h"
#include "dataset/parquet_footer.h"
#include "dataset/parquet_schema.h"

namespace nettrace::parquet {

struct WriterOptions {
  // A row group is written once its columns hold this much PLAIN-encoded data (the size a
  // reader decodes), or this many rows, whichever comes first.
  uint64_t rowGroupBytes = uint64_t{64} << 20;
  uint64_t rowGroupRows = uint64_t{1} << 20;
  uint32_t pageBytes = 1 << 20;            // target size of a data page before compression
  uint32_t maxDictionaryBytes = 1 << 20;   // a column's dictionary page beyond this: PLAIN
  const PageCodec* codec = nullptr;        // null: UNCOMPRESSED; must outlive the writer
  std::string createdBy;                   // "<application> version <version>" (parquet.thrift)
  std::vector<std::pair<std::string, std::string>> keyValues;
};

class TableWriter {
 public:
  // Writes the leading magic. `sink` must outlive the writer.
  static Status Open(Schema schema, WriterOptions options, ByteSink* sink, std::unique_ptr<TableWriter>* out);

  // n rows of one column; `valid` null means every row holds a value. A null in a required
  // column, or a call that does not match the column's physical type, is an error.
  Status AppendInt32(size_t column, const int32_t* values, const uint8_t* valid, size_t n);
  Status AppendInt64(size_t column, const int64_t* values, const uint8_t* valid, size_t n);
  Status AppendDouble(size_t column, const double* values, const uint8_t* valid, size_t n);
  Status AppendBool(size_t column, const uint8_t* values, const uint8_t* valid, size_t n);
  Status AppendStrings(size_t column, const std::string_view* values, const uint8_t* valid, size_t n);

  // Every column must have the same number of rows here; writes a row group at a bound.
  Status EndBatch();
  // Writes the buffered rows and the footer. A table with no rows has no row group.
  Status Finish();

  const Schema& schema() const { return schema_; }
  uint64_t rowsWritten() const { return rowsWritten_; }
  size_t rowGroups() const { return rowGroups_.size(); }
  // The most memory the column buffers held at once (tests bound it).
  uint64_t peakBufferBytes() const { return peakBufferBytes_; }

 private:
  TableWriter(Schema schema, WriterOptions options, ByteSink* sink);
  Status Check(size_t column, PhysicalType type, const uint8_t* valid, size_t n) const;
  template <typename T>
  Status Append(size_t column, PhysicalType type, const T* values, const uint8_t* valid, size_t n,
                void (ColumnBuffer::*add)(const T*, const uint8_t*, size_t));
  Status FlushRowGroup();

  Schema schema_;
  WriterOptions options_;
  ByteSink* sink_;
  std::vector<ColumnBuffer> columns_;
  std::vector<RowGroupMeta> rowGroups_;
  uint64_t rowsWritten_ = 0;
  uint64_t peakBufferBytes_ = 0;
  bool finished_ = false;
};

}  // namespace nettrace::parquet
