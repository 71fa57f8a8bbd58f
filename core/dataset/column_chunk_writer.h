// core/dataset — writes one buffered column as a column chunk: its dictionary page (when the
// column stayed dictionary-encoded), then v1 data pages of about `pageBytes` each, each
// page's body compressed on its own; returns what the footer needs to describe the chunk.
// Memory: one page's body and its compressed form at a time.
#pragma once

#include <cstdint>
#include <vector>

#include "base/status.h"
#include "dataset/byte_sink.h"
#include "dataset/column_buffer.h"
#include "dataset/page_codec.h"

namespace nettrace::parquet {

struct PageCount {
  PageType pageType;
  Encoding encoding;
  int32_t count;
};

// parquet.thrift ColumnMetaData, the parts that depend on the data.
struct ColumnChunkMeta {
  int64_t dataPageOffset = 0;
  int64_t dictionaryPageOffset = -1;  // -1: no dictionary page
  int64_t totalUncompressed = 0;      // page headers included, as the footer wants
  int64_t totalCompressed = 0;
  int64_t numValues = 0;  // rows, nulls included
  std::vector<Encoding> encodings;
  std::vector<PageCount> encodingStats;
  ColumnStats stats;
};

// `codec` null: UNCOMPRESSED. A page beyond Parquet's int32 sizes is an error naming the column.
Status WriteColumnChunk(const ColumnBuffer& column, uint32_t pageBytes, const PageCodec* codec, ByteSink* sink,
                        ColumnChunkMeta* meta);

}  // namespace nettrace::parquet
