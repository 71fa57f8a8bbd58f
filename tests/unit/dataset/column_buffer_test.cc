// A column's buffer: dictionary indices while the distinct values fit the bound, PLAIN
// bytes (every value, the earlier ones too) once they do not; statistics as parquet.thrift
// wants them (signed order for integers, unsigned bytes for strings, NaN left out of the
// bounds and counted, zero bounds as -0.0 / +0.0).
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "dataset/column_buffer.h"

namespace nettrace::parquet {
namespace {

std::string Le(uint64_t v, size_t width) {
  std::string s;
  for (size_t i = 0; i < width; ++i) s.push_back(static_cast<char>(v >> (8 * i)));
  return s;
}

std::string DoubleBytes(double d) {
  uint64_t bits = 0;
  std::memcpy(&bits, &d, 8);
  return Le(bits, 8);
}

TEST_CASE("column buffer: repetitive values stay a dictionary", "[dataset]") {
  ColumnBuffer c({"thread", PhysicalType::kInt64, LogicalKind::kNone, false, true}, 1 << 10);
  const std::vector<int64_t> v = {7, 9, 7, 7, -3, 9};
  c.AppendInt64(v.data(), nullptr, v.size());
  REQUIRE(c.dictionaryEncoded());
  CHECK(c.dictionaryEntries() == 3);
  CHECK(c.indices() == std::vector<uint32_t>{0, 1, 0, 0, 2, 1});  // first-appearance order
  std::vector<uint8_t> dict;
  for (int64_t x : {7, 9, -3}) {
    const std::string b = Le(static_cast<uint64_t>(x), 8);
    dict.insert(dict.end(), b.begin(), b.end());
  }
  CHECK(c.dictionaryPage() == dict);
  CHECK(c.plainBytes() == 48);
  const ColumnStats s = c.Stats();
  CHECK(s.hasBounds);
  CHECK(s.min == Le(static_cast<uint64_t>(-3), 8));
  CHECK(s.max == Le(9, 8));
  CHECK(s.nullCount == 0);
}

TEST_CASE("column buffer: a dictionary past its bound falls back to PLAIN for the whole chunk", "[dataset]") {
  // 16 bytes hold four int32 entries: the fifth distinct value drops the dictionary.
  ColumnBuffer c({"n", PhysicalType::kInt32, LogicalKind::kNone, false, true}, 16);
  const std::vector<int32_t> v = {1, 2, 1, 3, 4, 5, 1};
  c.AppendInt32(v.data(), nullptr, 4);
  CHECK(c.dictionaryEncoded());
  c.AppendInt32(v.data() + 4, nullptr, 3);
  REQUIRE_FALSE(c.dictionaryEncoded());
  CHECK(c.indices().empty());
  std::vector<uint8_t> plain;
  for (int32_t x : v) {
    const std::string b = Le(static_cast<uint32_t>(x), 4);
    plain.insert(plain.end(), b.begin(), b.end());
  }
  CHECK(c.plain() == plain);
  CHECK(c.Stats().min == Le(1, 4));
  CHECK(c.Stats().max == Le(5, 4));
  // The next row group tries a dictionary again.
  c.Clear();
  c.AppendInt32(v.data(), nullptr, 3);
  CHECK(c.dictionaryEncoded());
  CHECK(c.rows() == 3);
}

TEST_CASE("column buffer: strings, nulls and unsigned byte order", "[dataset]") {
  ColumnBuffer c({"s", PhysicalType::kByteArray, LogicalKind::kString, true, true}, 1 << 10);
  const std::vector<std::string_view> v = {"z", "", "\xC3\xA9", "b", "z"};
  const std::vector<uint8_t> valid = {1, 0, 1, 1, 1};
  c.AppendBytes(v.data(), valid.data(), v.size());
  CHECK(c.rows() == 5);
  CHECK(c.valueCount() == 4);
  CHECK(c.definitionLevels() == valid);
  CHECK(c.indices() == std::vector<uint32_t>{0, 1, 2, 0});
  const std::vector<uint8_t> dict = {1, 0, 0, 0, 'z', 2, 0, 0, 0, 0xC3, 0xA9, 1, 0, 0, 0, 'b'};
  CHECK(c.dictionaryPage() == dict);
  const ColumnStats s = c.Stats();
  CHECK(s.nullCount == 1);
  CHECK(s.min == "b");
  CHECK(s.max == "\xC3\xA9");  // 0xC3 > 'z' as an unsigned byte
}

TEST_CASE("column buffer: string bounds are kept after the dictionary is dropped", "[dataset]") {
  ColumnBuffer c({"s", PhysicalType::kByteArray, LogicalKind::kString, false, true}, 12);
  const std::vector<std::string_view> v = {"m", "a", "q", "zz", "b"};
  c.AppendBytes(v.data(), nullptr, v.size());
  REQUIRE_FALSE(c.dictionaryEncoded());
  const std::vector<uint8_t> plain = {1, 0, 0, 0, 'm', 1, 0, 0, 0, 'a', 1, 0, 0, 0, 'q',
                                      2, 0, 0, 0, 'z', 'z', 1, 0, 0, 0, 'b'};
  CHECK(c.plain() == plain);
  CHECK(c.Stats().min == "a");
  CHECK(c.Stats().max == "zz");
}

TEST_CASE("column buffer: doubles count NaN and write zero bounds signed", "[dataset]") {
  ColumnBuffer c({"d", PhysicalType::kDouble, LogicalKind::kNone, false, false}, 1 << 10);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const std::vector<double> v = {nan, 0.0, 2.5, nan};
  c.AppendDouble(v.data(), nullptr, v.size());
  ColumnStats s = c.Stats();
  CHECK(s.nanCount == 2);
  CHECK(s.min == DoubleBytes(-0.0));
  CHECK(s.max == DoubleBytes(2.5));
  ColumnBuffer onlyNan({"d", PhysicalType::kDouble, LogicalKind::kNone, false, false}, 1 << 10);
  onlyNan.AppendDouble(v.data(), nullptr, 1);
  CHECK_FALSE(onlyNan.Stats().hasBounds);
  ColumnBuffer negative({"d", PhysicalType::kDouble, LogicalKind::kNone, false, false}, 1 << 10);
  const std::vector<double> w = {-1.5, -0.0};
  negative.AppendDouble(w.data(), nullptr, w.size());
  CHECK(negative.Stats().max == DoubleBytes(0.0));
  CHECK(negative.Stats().min == DoubleBytes(-1.5));
}

TEST_CASE("column buffer: booleans are never dictionary-encoded", "[dataset]") {
  ColumnBuffer c({"b", PhysicalType::kBoolean, LogicalKind::kNone, true, true}, 1 << 10);
  const std::vector<uint8_t> v = {1, 0, 1};
  const std::vector<uint8_t> valid = {1, 1, 0};
  c.AppendBool(v.data(), valid.data(), v.size());
  CHECK_FALSE(c.dictionaryEncoded());
  CHECK(c.plain() == std::vector<uint8_t>{1, 0});
  CHECK(c.Stats().min == std::string(1, '\0'));
  CHECK(c.Stats().max == std::string(1, '\1'));
  CHECK(c.Stats().nullCount == 1);
}

}  // namespace
}  // namespace nettrace::parquet

namespace nettrace::parquet {
namespace {

TEST_CASE("column buffer: a dictionary no smaller than PLAIN is dropped before writing", "[dataset]") {
  ColumnBuffer unique({"t", PhysicalType::kInt64, LogicalKind::kNone, false, true}, 1 << 20);
  std::vector<int64_t> v(1000);
  for (size_t i = 0; i < v.size(); ++i) v[i] = int64_t(i) * 977;
  unique.AppendInt64(v.data(), nullptr, v.size());
  REQUIRE(unique.dictionaryEncoded());  // 8000 bytes: within the bound
  unique.DropDictionaryIfNoSmaller();   // 8000 + 1000 * 10 bits > 8000 PLAIN
  CHECK_FALSE(unique.dictionaryEncoded());
  CHECK(unique.plain().size() == 8000);

  ColumnBuffer repeated({"t", PhysicalType::kInt64, LogicalKind::kNone, false, true}, 1 << 20);
  for (size_t i = 0; i < v.size(); ++i) v[i] = int64_t(i % 3);
  repeated.AppendInt64(v.data(), nullptr, v.size());
  repeated.DropDictionaryIfNoSmaller();  // 24 + 1000 * 2 bits < 8000
  CHECK(repeated.dictionaryEncoded());
}

}  // namespace
}  // namespace nettrace::parquet
