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

// Where a page ends: its rows, the non-null values among them, and (PLAIN byte arrays) the
// end of their bytes in the column's PLAIN buffer.
struct PageEnd {
  uint64_t row = 0, value = 0, plain = 0;
};

// How one column's rows are cut into pages and each page's body encoded.
class PageCutter {
 public:
  PageCutter(const ColumnBuffer& column, uint32_t pageBytes, int bitWidth)
      : column_(column),
        spec_(column.spec()),
        pageBytes_(pageBytes),
        bitWidth_(bitWidth),
        width_(FixedWidth(spec_.type)),
        varying_(!column.dictionaryEncoded() && spec_.type == PhysicalType::kByteArray) {
    // Rows per page from the encoded size of a value: indices at the dictionary's bit width,
    // booleans at one bit, fixed-width values at their width.
    const double bytesPerValue = column.dictionaryEncoded()                ? bitWidth / 8.0
                                 : spec_.type == PhysicalType::kBoolean ? 1 / 8.0
                                                                          : double(width_);
    rowsPerPage_ = std::max<uint64_t>(1, uint64_t(pageBytes / std::max(bytesPerValue, 1 / 8.0)));
  }

  // The page that starts at `from`: at least one row; byte arrays written PLAIN are measured
  // value by value (one larger than the page size gets a page of its own).
  PageEnd Next(const PageEnd& from) const {
    const uint8_t* levels = column_.definitionLevels().data();
    const uint64_t rows = column_.rows();
    PageEnd end = from;
    if (varying_) {
      do {
        if (!spec_.optional || levels[end.row]) {
          uint32_t len = 0;
          std::memcpy(&len, column_.plain().data() + end.plain, 4);
          end.plain += 4 + uint64_t{len};
          ++end.value;
        }
        ++end.row;
      } while (end.row < rows && end.plain - from.plain < pageBytes_);
      return end;
    }
    end.row = std::min(rows, from.row + rowsPerPage_);
    if (!spec_.optional) {
      end.value = from.value + (end.row - from.row);
    } else {
      for (uint64_t r = from.row; r < end.row; ++r) end.value += levels[r];
    }
    return end;
  }

  // The page's body: definition levels (optional columns: bit width 1, length-prefixed in a
  // v1 page), then the values in the page's encoding, which is returned.
  Encoding Body(const PageEnd& from, const PageEnd& to, std::vector<uint8_t>* body) {
    body->clear();
    if (spec_.optional) {
      levelBytes_.clear();
      EncodeRleHybrid(column_.definitionLevels().data() + from.row, to.row - from.row, 1, &levelBytes_);
      wire::PutU32(*body, static_cast<uint32_t>(levelBytes_.size()));
      body->insert(body->end(), levelBytes_.begin(), levelBytes_.end());
    }
    const uint64_t count = to.value - from.value;
    const uint8_t* plain = column_.plain().data();
    if (column_.dictionaryEncoded()) {
      body->push_back(static_cast<uint8_t>(bitWidth_));
      EncodeRleHybrid(column_.indices().data() + from.value, count, bitWidth_, body);
      return Encoding::kRleDictionary;
    }
    if (spec_.type == PhysicalType::kBoolean) {
      PackBits(plain + from.value, count, body);
    } else if (varying_) {
      body->insert(body->end(), plain + from.plain, plain + to.plain);
    } else {
      body->insert(body->end(), plain + from.value * width_, plain + (from.value + count) * width_);
    }
    return Encoding::kPlain;
  }

 private:
  const ColumnBuffer& column_;
  const ColumnSpec& spec_;
  uint32_t pageBytes_;
  int bitWidth_;
  size_t width_;
  bool varying_;
  uint64_t rowsPerPage_ = 1;
  std::vector<uint8_t> levelBytes_;
};

}  // namespace

Status WriteColumnChunk(const ColumnBuffer& column, uint32_t pageBytes, const PageCodec* codec, ByteSink* sink,
                        ColumnChunkMeta* meta) {
  *meta = ColumnChunkMeta{};
  meta->numValues = static_cast<int64_t>(column.rows());
  meta->stats = column.Stats();
  const bool dict = column.dictionaryEncoded();
  PageWriter pages(column, codec, sink, meta);
  int bitWidth = 0;
  if (dict) {
    meta->dictionaryPageOffset = static_cast<int64_t>(sink->position());
    bitWidth = std::max(1, BitWidth(column.dictionaryEntries() - 1));
    NETTRACE_RETURN_IF_ERROR(pages.Write(PageType::kDictionaryPage, column.dictionaryPage(),
                                         static_cast<int32_t>(column.dictionaryEntries()), Encoding::kPlain));
  }
  meta->dataPageOffset = static_cast<int64_t>(sink->position());

  PageCutter cutter(column, pageBytes, bitWidth);
  std::vector<uint8_t> body;
  int32_t dataPages = 0;
  for (PageEnd at; at.row < column.rows();) {
    const PageEnd end = cutter.Next(at);
    const Encoding encoding = cutter.Body(at, end, &body);
    NETTRACE_RETURN_IF_ERROR(pages.Write(PageType::kDataPage, body, static_cast<int32_t>(end.row - at.row), encoding));
    ++dataPages;
    at = end;
  }

  // Every encoding the chunk uses, in enum order; and how many pages of each kind.
  const bool optional = column.spec().optional;
  meta->encodings = {Encoding::kPlain};
  if (optional) meta->encodings.push_back(Encoding::kRle);
  if (dict) {
    meta->encodings.push_back(Encoding::kRleDictionary);
    meta->encodingStats = {{PageType::kDictionaryPage, Encoding::kPlain, 1},
                           {PageType::kDataPage, Encoding::kRleDictionary, dataPages}};
  } else {
    meta->encodingStats = {{PageType::kDataPage, Encoding::kPlain, dataPages}};
  }
  return Status::Ok();
}

}  // namespace nettrace::parquet
