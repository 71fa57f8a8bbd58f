// core/dataset — pages of a column chunk (README.md of parquet-format "Data Pages": levels,
// then values, in one body; Encodings.md for each encoding; parquet.thrift PageHeader).
#include "dataset/column_chunk_writer.h"

#include <algorithm>
#include <cstring>
#include <limits>

#include "dataset/rle_hybrid.h"
#include "dataset/thrift_compact.h"
#include "write/wire.h"

namespace nettrace::parquet {
namespace {

constexpr uint64_t kMaxPageSize = std::numeric_limits<int32_t>::max();

class PageWriter {
 public:
  PageWriter(const ColumnBuffer& column, const PageCodec* codec, ByteSink* sink, ColumnChunkMeta* meta)
      : column_(column), codec_(codec), sink_(sink), meta_(meta) {}

  // One page: header (Thrift compact PageHeader), then the body, compressed when a codec is set.
  Status Write(PageType type, const std::vector<uint8_t>& body, int32_t numValues, Encoding encoding) {
    const std::vector<uint8_t>* stored = &body;
    if (codec_) {
      NETTRACE_RETURN_IF_ERROR(codec_->Compress(body.data(), body.size(), &compressed_));
      stored = &compressed_;
    }
    if (body.size() > kMaxPageSize || stored->size() > kMaxPageSize) {
      return Status::Error(ErrorCode::kLimitExceeded, sink_->position(),
                           "column '" + column_.spec().name + "': a page beyond 2 GiB");
    }
    header_.clear();
    ThriftCompactWriter w(&header_);
    w.BeginStruct();
    w.FieldI32(1, static_cast<int32_t>(type));
    w.FieldI32(2, static_cast<int32_t>(body.size()));
    w.FieldI32(3, static_cast<int32_t>(stored->size()));
    if (type == PageType::kDataPage) {
      w.FieldStruct(5);  // DataPageHeader
      w.FieldI32(1, numValues);
      w.FieldI32(2, static_cast<int32_t>(encoding));
      w.FieldI32(3, static_cast<int32_t>(Encoding::kRle));  // definition levels
      w.FieldI32(4, static_cast<int32_t>(Encoding::kRle));  // repetition levels (none: flat schema)
      w.EndStruct();
    } else {
      w.FieldStruct(7);  // DictionaryPageHeader
      w.FieldI32(1, numValues);
      w.FieldI32(2, static_cast<int32_t>(Encoding::kPlain));
      w.EndStruct();
    }
    w.EndStruct();
    NETTRACE_RETURN_IF_ERROR(sink_->Write(header_.data(), header_.size()));
    NETTRACE_RETURN_IF_ERROR(sink_->Write(stored->data(), stored->size()));
    meta_->totalUncompressed += static_cast<int64_t>(header_.size() + body.size());
    meta_->totalCompressed += static_cast<int64_t>(header_.size() + stored->size());
    return Status::Ok();
  }

 private:
  const ColumnBuffer& column_;
  const PageCodec* codec_;
  ByteSink* sink_;
  ColumnChunkMeta* meta_;
  std::vector<uint8_t> header_, compressed_;
};

size_t FixedWidth(PhysicalType type) {
  switch (type) {
    case PhysicalType::kInt32: return 4;
    case PhysicalType::kInt64:
    case PhysicalType::kDouble: return 8;
    default: return 0;
  }
}

}  // namespace

Status WriteColumnChunk(const ColumnBuffer& column, uint32_t pageBytes, const PageCodec* codec, ByteSink* sink,
                        ColumnChunkMeta* meta) {
  *meta = ColumnChunkMeta{};
  meta->numValues = static_cast<int64_t>(column.rows());
  meta->stats = column.Stats();
  const ColumnSpec& spec = column.spec();
  const bool dict = column.dictionaryEncoded();
  PageWriter pages(column, codec, sink, meta);
  std::vector<uint8_t> body;

  int bitWidth = 0;
  if (dict) {
    meta->dictionaryPageOffset = static_cast<int64_t>(sink->position());
    bitWidth = std::max(1, BitWidth(column.dictionaryEntries() - 1));
    NETTRACE_RETURN_IF_ERROR(pages.Write(PageType::kDictionaryPage, column.dictionaryPage(),
                                         static_cast<int32_t>(column.dictionaryEntries()), Encoding::kPlain));
  }
  meta->dataPageOffset = static_cast<int64_t>(sink->position());

  // Rows per page from the encoded size per value; byte arrays written PLAIN are measured
  // value by value instead.
  const size_t width = FixedWidth(spec.type);
  const bool varying = !dict && spec.type == PhysicalType::kByteArray;
  double bytesPerValue = dict ? bitWidth / 8.0 : spec.type == PhysicalType::kBoolean ? 1 / 8.0 : double(width);
  const uint64_t rowsPerPage = std::max<uint64_t>(1, uint64_t(pageBytes / std::max(bytesPerValue, 1 / 8.0)));

  const uint8_t* levels = column.definitionLevels().data();
  const uint8_t* plain = column.plain().data();
  const uint64_t rows = column.rows();
  uint64_t row = 0, value = 0, plainAt = 0;
  int32_t dataPages = 0;
  std::vector<uint8_t> levelBytes;
  while (row < rows) {
    uint64_t rowEnd = row, valueEnd = value, plainEnd = plainAt;
    if (varying) {
      do {
        if (!spec.optional || levels[rowEnd]) {
          uint32_t len = 0;
          std::memcpy(&len, plain + plainEnd, 4);
          plainEnd += 4 + uint64_t{len};
          ++valueEnd;
        }
        ++rowEnd;
      } while (rowEnd < rows && plainEnd - plainAt < pageBytes);
    } else {
      rowEnd = std::min(rows, row + rowsPerPage);
      if (!spec.optional) {
        valueEnd = value + (rowEnd - row);
      } else {
        for (uint64_t r = row; r < rowEnd; ++r) valueEnd += levels[r];
      }
    }
    body.clear();
    if (spec.optional) {  // definition levels: max level 1, so bit width 1, length-prefixed in v1 pages
      levelBytes.clear();
      EncodeRleHybrid(levels + row, rowEnd - row, 1, &levelBytes);
      wire::PutU32(body, static_cast<uint32_t>(levelBytes.size()));
      body.insert(body.end(), levelBytes.begin(), levelBytes.end());
    }
    const uint64_t count = valueEnd - value;
    Encoding encoding = Encoding::kPlain;
    if (dict) {
      encoding = Encoding::kRleDictionary;
      body.push_back(static_cast<uint8_t>(bitWidth));
      EncodeRleHybrid(column.indices().data() + value, count, bitWidth, &body);
    } else if (spec.type == PhysicalType::kBoolean) {
      PackBits(plain + value, count, &body);
    } else if (varying) {
      body.insert(body.end(), plain + plainAt, plain + plainEnd);
    } else {
      body.insert(body.end(), plain + value * width, plain + (value + count) * width);
    }
    NETTRACE_RETURN_IF_ERROR(pages.Write(PageType::kDataPage, body, static_cast<int32_t>(rowEnd - row), encoding));
    ++dataPages;
    row = rowEnd;
    value = valueEnd;
    plainAt = plainEnd;
  }

  // Every encoding the chunk uses, in enum order; and how many pages of each kind.
  if (dict) {
    meta->encodings = {Encoding::kPlain};
    if (spec.optional) meta->encodings.push_back(Encoding::kRle);
    meta->encodings.push_back(Encoding::kRleDictionary);
    meta->encodingStats = {{PageType::kDictionaryPage, Encoding::kPlain, 1},
                           {PageType::kDataPage, Encoding::kRleDictionary, dataPages}};
  } else {
    meta->encodings = {Encoding::kPlain};
    if (spec.optional) meta->encodings.push_back(Encoding::kRle);
    meta->encodingStats = {{PageType::kDataPage, Encoding::kPlain, dataPages}};
  }
  return Status::Ok();
}

}  // namespace nettrace::parquet
