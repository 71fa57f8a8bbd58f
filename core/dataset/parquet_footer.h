// core/dataset — the footer of a Parquet file: FileMetaData (schema, row groups with their
// column chunks and statistics, key/value metadata, created_by, column orders) in the
// Thrift compact protocol (parquet.thrift). Field ids and enum values are the spec's.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "dataset/column_chunk_writer.h"
#include "dataset/parquet_schema.h"

namespace nettrace::parquet {

struct RowGroupMeta {
  std::vector<ColumnChunkMeta> columns;  // in schema order
  int64_t numRows = 0;
  int64_t fileOffset = 0;  // its first page
};

struct FooterInfo {
  Codec codec = Codec::kUncompressed;
  std::string createdBy;
  std::vector<std::pair<std::string, std::string>> keyValues;
};

// Appends the Thrift-encoded FileMetaData to out (without the length and magic that follow it).
void EncodeFileMetaData(const Schema& schema, const std::vector<RowGroupMeta>& rowGroups, const FooterInfo& info,
                        std::vector<uint8_t>* out);

}  // namespace nettrace::parquet
