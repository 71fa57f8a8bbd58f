// Thrift compact protocol writer against bytes worked out by hand from
// thrift-compact-protocol.md (field header short/long form, zigzag varints, binary, list
// header short/long form, nested structs keeping their own last field id).
#include <catch2/catch.hpp>

#include <cstdint>
#include <limits>
#include <vector>

#include "dataset/byte_literals.h"
#include "dataset/thrift_compact.h"

namespace nettrace::parquet {
namespace {

using test::Bytes;

TEST_CASE("thrift compact: field headers, zigzag integers, binary and bool", "[dataset]") {
  std::vector<uint8_t> out;
  ThriftCompactWriter w(&out);
  w.BeginStruct();
  w.FieldI32(1, 1);         // 0x15 = delta 1, type i32; zigzag(1) = 2
  w.FieldBinary(4, "ab");   // 0x38 = delta 3, type binary; length 2
  w.FieldI64(20, -1);       // delta 16: long form 0x06, zigzag(20) = 40 = 0x28; zigzag(-1) = 1
  w.FieldBool(21, true);    // 0x11: the value is the type nibble (1 = true)
  w.FieldBool(22, false);   // 0x12
  w.FieldI8(23, -2);        // 0x13, then the byte as is
  w.FieldI16(24, -300);     // 0x14, zigzag(-300) = 599 = 0xD7 0x04
  w.EndStruct();            // stop field
  CHECK(out == Bytes({0x15, 0x02, 0x38, 0x02, 'a', 'b', 0x06, 0x28, 0x01, 0x11, 0x12, 0x13, 0xFE, 0x14, 0xD7, 0x04, 0x00}));
}

TEST_CASE("thrift compact: lists short and long, nested structs", "[dataset]") {
  std::vector<uint8_t> out;
  ThriftCompactWriter w(&out);
  w.BeginStruct();
  w.FieldList(2, ThriftType::kI32, 3);  // 0x29; header 0x35 = size 3, element i32
  w.ElementI32(1);
  w.ElementI32(-2);
  w.ElementI32(3);
  w.FieldStruct(3);  // 0x1C = delta 1, struct
  w.FieldI32(1, 0);  // inside: ids restart from 0
  w.EndStruct();
  w.FieldI32(4, 7);  // outside again: delta from 3
  w.FieldList(5, ThriftType::kBinary, 15);  // long form: 0xF8 then varint 15
  for (int i = 0; i < 15; ++i) w.ElementBinary("");
  w.EndStruct();
  std::vector<uint8_t> expected = Bytes({0x29, 0x35, 0x02, 0x03, 0x06, 0x1C, 0x15, 0x00, 0x00, 0x15, 0x0E, 0x19, 0xF8, 0x0F});
  for (int i = 0; i < 15; ++i) expected.push_back(0x00);
  expected.push_back(0x00);
  CHECK(out == expected);
}

TEST_CASE("thrift compact: varints and zigzag at the limits", "[dataset]") {
  std::vector<uint8_t> out;
  ThriftCompactWriter w(&out);
  w.BeginStruct();
  w.FieldList(1, ThriftType::kI64, 5);  // 0x19, header 0x56
  w.ElementI64(150);                    // zigzag 300 = 0b10_0101100 -> 0xAC 0x02
  w.ElementI64(-64);                    // 127
  w.ElementI64(63);                     // 126
  w.ElementI64(std::numeric_limits<int64_t>::min());  // 2^64 - 1: nine 0xFF and 0x01
  w.ElementI64(std::numeric_limits<int64_t>::max());  // 2^64 - 2
  w.EndStruct();
  CHECK(out == Bytes({0x19, 0x56, 0xAC, 0x02, 0x7F, 0x7E,
                      0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01,
                      0xFE, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01, 0x00}));
}

}  // namespace
}  // namespace nettrace::parquet
