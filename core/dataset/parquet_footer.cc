// core/dataset — FileMetaData in Thrift compact (parquet.thrift: FileMetaData, SchemaElement,
// LogicalType, RowGroup, ColumnChunk, ColumnMetaData, Statistics, PageEncodingStats,
// KeyValue, ColumnOrder). Each struct's fields are written in increasing id order.
#include "dataset/parquet_footer.h"

#include <cstdint>

#include "dataset/thrift_compact.h"

namespace nettrace::parquet {
namespace {

// parquet.thrift ConvertedType values written for readers that predate LogicalType.
constexpr int32_t kConvertedUtf8 = 0;
constexpr int32_t kConvertedTimestampMicros = 10;
constexpr int32_t kConvertedInt32 = 17;
constexpr int32_t kConvertedInt64 = 18;

void WriteSchemaElement(ThriftCompactWriter& w, const ColumnSpec& c) {
  w.BeginStruct();
  w.FieldI32(1, static_cast<int32_t>(c.type));
  w.FieldI32(3, c.optional ? 1 : 0);  // FieldRepetitionType OPTIONAL / REQUIRED
  w.FieldBinary(4, c.name);
  switch (c.logical) {
    case LogicalKind::kNone: break;
    case LogicalKind::kString:
      w.FieldI32(6, kConvertedUtf8);
      w.FieldStruct(10);  // LogicalType
      w.FieldStruct(1);   // STRING: StringType {}
      w.EndStruct();
      w.EndStruct();
      break;
    case LogicalKind::kSignedInt: {
      const bool wide = c.type == PhysicalType::kInt64;
      w.FieldI32(6, wide ? kConvertedInt64 : kConvertedInt32);
      w.FieldStruct(10);
      w.FieldStruct(10);  // INTEGER: IntType { bitWidth, isSigned }
      w.FieldI8(1, wide ? 64 : 32);
      w.FieldBool(2, true);
      w.EndStruct();
      w.EndStruct();
      break;
    }
    case LogicalKind::kTimestampMicros:
    case LogicalKind::kTimestampNanos: {
      const bool micros = c.logical == LogicalKind::kTimestampMicros;
      if (micros) w.FieldI32(6, kConvertedTimestampMicros);  // NANOS has no ConvertedType
      w.FieldStruct(10);
      w.FieldStruct(8);  // TIMESTAMP: TimestampType { isAdjustedToUTC, unit }
      w.FieldBool(1, true);
      w.FieldStruct(2);              // TimeUnit union
      w.FieldStruct(micros ? 2 : 3);  // MICROS: MicroSeconds {} / NANOS: NanoSeconds {}
      w.EndStruct();
      w.EndStruct();
      w.EndStruct();
      w.EndStruct();
      break;
    }
  }
  w.EndStruct();
}

void WriteStatistics(ThriftCompactWriter& w, const ColumnSpec& c, const ColumnStats& s) {
  w.FieldStruct(12);
  w.FieldI64(3, static_cast<int64_t>(s.nullCount));
  if (s.hasBounds) {
    w.FieldBinary(5, s.max);  // max_value
    w.FieldBinary(6, s.min);  // min_value
    w.FieldBool(7, true);     // is_max_value_exact: bounds are never truncated here
    w.FieldBool(8, true);
  }
  if (c.type == PhysicalType::kDouble) w.FieldI64(9, static_cast<int64_t>(s.nanCount));
  w.EndStruct();
}

void WriteColumnChunk(ThriftCompactWriter& w, const ColumnSpec& c, const ColumnChunkMeta& m, Codec codec) {
  w.BeginStruct();
  w.FieldI64(2, 0);  // file_offset: deprecated, 0 when no ColumnMetaData lies outside the footer
  w.FieldStruct(3);  // ColumnMetaData
  w.FieldI32(1, static_cast<int32_t>(c.type));
  w.FieldList(2, ThriftType::kI32, static_cast<uint32_t>(m.encodings.size()));
  for (Encoding e : m.encodings) w.ElementI32(static_cast<int32_t>(e));
  w.FieldList(3, ThriftType::kBinary, 1);
  w.ElementBinary(c.name);
  w.FieldI32(4, static_cast<int32_t>(codec));
  w.FieldI64(5, m.numValues);
  w.FieldI64(6, m.totalUncompressed);
  w.FieldI64(7, m.totalCompressed);
  w.FieldI64(9, m.dataPageOffset);
  if (m.dictionaryPageOffset >= 0) w.FieldI64(11, m.dictionaryPageOffset);
  WriteStatistics(w, c, m.stats);
  w.FieldList(13, ThriftType::kStruct, static_cast<uint32_t>(m.encodingStats.size()));
  for (const PageCount& p : m.encodingStats) {
    w.BeginStruct();
    w.FieldI32(1, static_cast<int32_t>(p.pageType));
    w.FieldI32(2, static_cast<int32_t>(p.encoding));
    w.FieldI32(3, p.count);
    w.EndStruct();
  }
  w.EndStruct();
  w.EndStruct();
}

void WriteRowGroup(ThriftCompactWriter& w, const Schema& schema, const RowGroupMeta& g, Codec codec, int64_t ordinal) {
  int64_t uncompressed = 0, compressed = 0;
  for (const ColumnChunkMeta& m : g.columns) {
    uncompressed += m.totalUncompressed;
    compressed += m.totalCompressed;
  }
  w.BeginStruct();
  w.FieldList(1, ThriftType::kStruct, static_cast<uint32_t>(g.columns.size()));
  for (size_t i = 0; i < g.columns.size(); ++i) WriteColumnChunk(w, schema[i], g.columns[i], codec);
  w.FieldI64(2, uncompressed);
  w.FieldI64(3, g.numRows);
  w.FieldI64(5, g.fileOffset);
  w.FieldI64(6, compressed);
  if (ordinal <= INT16_MAX) w.FieldI16(7, static_cast<int16_t>(ordinal));  // an i16 in the spec
  w.EndStruct();
}

}  // namespace

void EncodeFileMetaData(const Schema& schema, const std::vector<RowGroupMeta>& rowGroups, const FooterInfo& info,
                        std::vector<uint8_t>* out) {
  ThriftCompactWriter w(out);
  w.BeginStruct();
  w.FieldI32(1, 1);  // version
  w.FieldList(2, ThriftType::kStruct, static_cast<uint32_t>(schema.size() + 1));
  w.BeginStruct();  // the root: a group holding every column
  w.FieldBinary(4, "schema");
  w.FieldI32(5, static_cast<int32_t>(schema.size()));
  w.EndStruct();
  for (const ColumnSpec& c : schema) WriteSchemaElement(w, c);
  int64_t rows = 0;
  for (const RowGroupMeta& g : rowGroups) rows += g.numRows;
  w.FieldI64(3, rows);
  w.FieldList(4, ThriftType::kStruct, static_cast<uint32_t>(rowGroups.size()));
  for (size_t i = 0; i < rowGroups.size(); ++i) {
    WriteRowGroup(w, schema, rowGroups[i], info.codec, static_cast<int64_t>(i));
  }
  if (!info.keyValues.empty()) {
    w.FieldList(5, ThriftType::kStruct, static_cast<uint32_t>(info.keyValues.size()));
    for (const auto& [key, value] : info.keyValues) {
      w.BeginStruct();
      w.FieldBinary(1, key);
      w.FieldBinary(2, value);
      w.EndStruct();
    }
  }
  if (!info.createdBy.empty()) w.FieldBinary(6, info.createdBy);
  // TYPE_ORDER for every column: signed order for the integers and timestamps, unsigned
  // byte order for strings, and for DOUBLE the rules WriteStatistics follows (nan_count set).
  w.FieldList(7, ThriftType::kStruct, static_cast<uint32_t>(schema.size()));
  for (size_t i = 0; i < schema.size(); ++i) {
    w.BeginStruct();
    w.FieldStruct(1);  // TYPE_ORDER: TypeDefinedOrder {}
    w.EndStruct();
    w.EndStruct();
  }
  w.EndStruct();
}

}  // namespace nettrace::parquet
