// core/dataset — the table writer (table_writer.h). File layout (parquet-format README
// "File format"): "PAR1", the column chunks of each row group in schema order, the footer,
// the footer's length as 4 bytes little endian, "PAR1".
#include "dataset/table_writer.h"

#include <bit>
#include <limits>

#include "write/wire.h"

namespace nettrace::parquet {
namespace {

// PLAIN is little endian; the column buffers copy values in host order.
static_assert(std::endian::native == std::endian::little, "the Parquet writer assumes a little-endian host");

constexpr uint8_t kMagic[4] = {'P', 'A', 'R', '1'};

const char* TypeName(PhysicalType t) {
  switch (t) {
    case PhysicalType::kBoolean: return "BOOLEAN";
    case PhysicalType::kInt32: return "INT32";
    case PhysicalType::kInt64: return "INT64";
    case PhysicalType::kDouble: return "DOUBLE";
    case PhysicalType::kByteArray: return "BYTE_ARRAY";
  }
  return "?";
}

Status Misuse(std::string message) { return Status::Error(ErrorCode::kInvalidArgument, kNoOffset, std::move(message)); }

}  // namespace

TableWriter::TableWriter(Schema schema, WriterOptions options, ByteSink* sink)
    : schema_(std::move(schema)), options_(std::move(options)), sink_(sink) {
  columns_.reserve(schema_.size());
  for (const ColumnSpec& c : schema_) columns_.emplace_back(c, options_.maxDictionaryBytes);
}

Status TableWriter::Open(Schema schema, WriterOptions options, ByteSink* sink, std::unique_ptr<TableWriter>* out) {
  if (std::string problem = SchemaProblem(schema); !problem.empty()) return Misuse(problem);
  if (options.pageBytes == 0 || options.rowGroupRows == 0) return Misuse("page and row-group bounds must be positive");
  out->reset(new TableWriter(std::move(schema), std::move(options), sink));
  return sink->Write(kMagic, 4);
}

Status TableWriter::Check(size_t column, PhysicalType type, const uint8_t* valid, size_t n) const {
  if (finished_) return Misuse("the table is already finished");
  if (column >= schema_.size()) return Misuse("no column " + std::to_string(column));
  const ColumnSpec& c = schema_[column];
  if (c.type != type) return Misuse("column '" + c.name + "' holds " + TypeName(c.type) + ", not " + TypeName(type));
  if (valid && !c.optional) {
    for (size_t i = 0; i < n; ++i) {
      if (!valid[i]) return Misuse("column '" + c.name + "' is required and row " + std::to_string(i) + " is null");
    }
  }
  return Status::Ok();
}

template <typename T>
Status TableWriter::Append(size_t column, PhysicalType type, const T* values, const uint8_t* valid, size_t n,
                           void (ColumnBuffer::*add)(const T*, const uint8_t*, size_t)) {
  NETTRACE_RETURN_IF_ERROR(Check(column, type, valid, n));
  (columns_[column].*add)(values, valid, n);
  return Status::Ok();
}

Status TableWriter::AppendInt32(size_t column, const int32_t* values, const uint8_t* valid, size_t n) {
  return Append(column, PhysicalType::kInt32, values, valid, n, &ColumnBuffer::AppendInt32);
}

Status TableWriter::AppendInt64(size_t column, const int64_t* values, const uint8_t* valid, size_t n) {
  return Append(column, PhysicalType::kInt64, values, valid, n, &ColumnBuffer::AppendInt64);
}

Status TableWriter::AppendDouble(size_t column, const double* values, const uint8_t* valid, size_t n) {
  return Append(column, PhysicalType::kDouble, values, valid, n, &ColumnBuffer::AppendDouble);
}

Status TableWriter::AppendBool(size_t column, const uint8_t* values, const uint8_t* valid, size_t n) {
  return Append(column, PhysicalType::kBoolean, values, valid, n, &ColumnBuffer::AppendBool);
}

// A value must fit a page on its own (page sizes are int32 in the page header).
Status TableWriter::AppendStrings(size_t column, const std::string_view* values, const uint8_t* valid, size_t n) {
  for (size_t i = 0; i < n && column < schema_.size(); ++i) {
    if ((!valid || valid[i]) && values[i].size() > std::numeric_limits<int32_t>::max() - 4u) {
      return Status::Error(ErrorCode::kLimitExceeded, kNoOffset, "column '" + schema_[column].name + "': a value beyond 2 GiB");
    }
  }
  return Append(column, PhysicalType::kByteArray, values, valid, n, &ColumnBuffer::AppendBytes);
}

Status TableWriter::EndBatch() {
  if (finished_) return Misuse("the table is already finished");
  const uint64_t rows = columns_[0].rows();
  uint64_t plain = 0, memory = 0;
  for (const ColumnBuffer& c : columns_) {
    if (c.rows() != rows) {
      return Misuse("column '" + c.spec().name + "' has " + std::to_string(c.rows()) + " rows, column '" +
                    columns_[0].spec().name + "' " + std::to_string(rows));
    }
    plain += c.plainBytes();
    memory += c.memoryBytes();
  }
  peakBufferBytes_ = std::max(peakBufferBytes_, memory);
  if (rows >= options_.rowGroupRows || plain >= options_.rowGroupBytes) return FlushRowGroup();
  return Status::Ok();
}

Status TableWriter::FlushRowGroup() {
  const uint64_t rows = columns_[0].rows();
  if (rows == 0) return Status::Ok();
  RowGroupMeta group;
  group.numRows = static_cast<int64_t>(rows);
  group.fileOffset = static_cast<int64_t>(sink_->position());
  group.columns.resize(columns_.size());
  for (size_t i = 0; i < columns_.size(); ++i) {
    columns_[i].DropDictionaryIfNoSmaller();
    NETTRACE_RETURN_IF_ERROR(WriteColumnChunk(columns_[i], options_.pageBytes, options_.codec, sink_, &group.columns[i]));
    columns_[i].Clear();
  }
  rowGroups_.push_back(std::move(group));
  rowsWritten_ += rows;
  return Status::Ok();
}

Status TableWriter::Finish() {
  NETTRACE_RETURN_IF_ERROR(EndBatch());
  NETTRACE_RETURN_IF_ERROR(FlushRowGroup());
  finished_ = true;
  FooterInfo info;
  info.codec = options_.codec ? options_.codec->codec() : Codec::kUncompressed;
  info.createdBy = options_.createdBy;
  info.keyValues = options_.keyValues;
  std::vector<uint8_t> footer;
  EncodeFileMetaData(schema_, rowGroups_, info, &footer);
  wire::PutU32(footer, static_cast<uint32_t>(footer.size()));
  footer.insert(footer.end(), kMagic, kMagic + 4);
  return sink_->Write(footer.data(), footer.size());
}

}  // namespace nettrace::parquet
