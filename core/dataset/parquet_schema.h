// core/dataset — the schema of one flat Parquet table as the writer takes it: columns of
// the physical types the dataset uses, each required or optional, with the logical type
// that tells engines how to read it. Enum values are parquet.thrift's.
// docs/parquet-writer.md "Types" says why these and no others (no unsigned 64-bit type:
// Spark refuses it; timestamps as INT64 with TIMESTAMP(isAdjustedToUTC=true, MICROS)).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace nettrace::parquet {

// parquet.thrift `Type` (the ones written here).
enum class PhysicalType : uint8_t { kBoolean = 0, kInt32 = 1, kInt64 = 2, kDouble = 5, kByteArray = 6 };

// What a column's values mean, written both as the LogicalType union and as the older
// ConvertedType where one exists, for readers that know only the latter.
enum class LogicalKind : uint8_t {
  kNone,
  kString,           // BYTE_ARRAY, UTF-8: STRING / UTF8
  kSignedInt,        // INT32 / INT64: INTEGER(bitWidth, signed) / INT_32, INT_64
  kTimestampMicros,  // INT64: TIMESTAMP(isAdjustedToUTC=true, MICROS) / TIMESTAMP_MICROS
  kTimestampNanos,   // INT64: TIMESTAMP(isAdjustedToUTC=true, NANOS) (no ConvertedType)
};

// parquet.thrift `Encoding`, `CompressionCodec`, `PageType`.
enum class Encoding : uint8_t { kPlain = 0, kRle = 3, kRleDictionary = 8 };
enum class Codec : uint8_t { kUncompressed = 0, kGzip = 2, kZstd = 6 };
enum class PageType : uint8_t { kDataPage = 0, kDictionaryPage = 2 };

struct ColumnSpec {
  std::string name;
  PhysicalType type = PhysicalType::kInt64;
  LogicalKind logical = LogicalKind::kNone;
  bool optional = false;    // nulls allowed (definition level 1 = present)
  bool dictionary = true;   // try RLE_DICTIONARY first; BOOLEAN columns never do
};

using Schema = std::vector<ColumnSpec>;

// Checks the schema's own consistency: names unique and non-empty, each logical kind on a
// physical type it annotates. Returns an empty string when valid, else what is wrong.
std::string SchemaProblem(const Schema& schema);

}  // namespace nettrace::parquet
