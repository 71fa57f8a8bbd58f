// PayloadBuilder encodings against hand-computed bytes (NetTraceFormat.md §Primitives and
// §MetadataBlock "enum TypeCode").
#include <catch2/catch.hpp>

#include <cstdint>
#include <initializer_list>
#include <limits>
#include <vector>

#include "write/payload_builder.h"

namespace nettrace {
namespace {

std::vector<uint8_t> Bytes(std::initializer_list<int> values) {
  std::vector<uint8_t> out;
  for (int v : values) out.push_back(static_cast<uint8_t>(v));
  return out;
}

TEST_CASE("payload builder: fixed-size integers, floats and booleans", "[write]") {
  PayloadBuilder b;
  b.AppendU8(1).AppendI8(-1).AppendU16(0x0203).AppendI16(-2).AppendU32(0x04050607).AppendI32(-3);
  b.AppendU64(0x08090A0B0C0D0E0F).AppendI64(-4).AppendF32(1.0f).AppendF64(-2.0);
  b.AppendBool8(true).AppendBool32(true).AppendUtf16CodeUnit(u'A').AppendUtf8CodeUnit('B');
  CHECK(b.bytes() == Bytes({1, 0xFF, 3, 2, 0xFE, 0xFF, 7, 6, 5, 4, 0xFD, 0xFF, 0xFF, 0xFF,
                            0x0F, 0x0E, 0x0D, 0x0C, 0x0B, 0x0A, 9, 8, 0xFC, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
                            0, 0, 0x80, 0x3F, 0, 0, 0, 0, 0, 0, 0, 0xC0,
                            1, 1, 0, 0, 0, 'A', 0, 'B'}));
  CHECK(b.ok());
}

TEST_CASE("payload builder: VarInt zig-zags and VarUInt", "[write]") {
  PayloadBuilder b;
  b.AppendVarInt(0).AppendVarInt(-1).AppendVarInt(1).AppendVarInt(-17982);
  CHECK(b.Take() == Bytes({0, 1, 2, 0xFB, 0x98, 0x02}));  // -17982 -> 35963
  b.AppendVarInt(std::numeric_limits<int64_t>::min());
  CHECK(b.Take() == Bytes({0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01}));
  b.AppendVarInt(std::numeric_limits<int64_t>::max());
  CHECK(b.Take() == Bytes({0xFE, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01}));
  b.AppendVarUInt(127).AppendVarUInt(128).AppendVarUInt(std::numeric_limits<uint64_t>::max());
  CHECK(b.Take() == Bytes({0x7F, 0x80, 0x01, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01}));
}

TEST_CASE("payload builder: strings", "[write]") {
  PayloadBuilder b;
  b.AppendNullTerminatedUtf16("h\xC3\xA9");  // "hé" from UTF-8
  CHECK(b.Take() == Bytes({'h', 0, 0xE9, 0, 0, 0}));
  b.AppendNullTerminatedUtf16("\xF0\x9F\x98\x80");  // U+1F600: a surrogate pair
  CHECK(b.Take() == Bytes({0x3D, 0xD8, 0x00, 0xDE, 0, 0}));
  b.AppendNullTerminatedUtf16("a\xFF" "b");  // an invalid byte becomes U+FFFD
  CHECK(b.Take() == Bytes({'a', 0, 0xFD, 0xFF, 'b', 0, 0, 0}));
  b.AppendUtf8Array("Hello").AppendUtf16Array(u"Hi");
  CHECK(b.Take() == Bytes({5, 0, 'H', 'e', 'l', 'l', 'o', 2, 0, 'H', 0, 'i', 0}));
  b.AppendString("ab");  // the format's own varuint-prefixed string
  CHECK(b.Take() == Bytes({2, 'a', 'b'}));
  b.AppendUtf8Array(std::string(70000, 'x'));  // longer than a uint16 count
  CHECK(!b.ok());
}

TEST_CASE("payload builder: guid, date time and locations", "[write]") {
  PayloadBuilder b;
  Guid g;
  for (int i = 0; i < 16; ++i) g.bytes[i] = static_cast<uint8_t>(i);
  b.AppendGuid(g);
  CHECK(b.size() == 16);
  CHECK(b.bytes()[15] == 15);
  b.Take();
  b.AppendDateTime({2025, 2, 1, 3, 4, 5, 6, 7});
  CHECK(b.Take() == Bytes({0xE9, 7, 2, 0, 1, 0, 3, 0, 4, 0, 5, 0, 6, 0, 7, 0}));
  b.AppendLocation(12, 4).AppendU32(0).PatchU32(4, 0xAABBCCDD);
  CHECK(b.Take() == Bytes({4, 0, 12, 0, 0xDD, 0xCC, 0xBB, 0xAA}));  // size high 16, offset low 16
}

}  // namespace
}  // namespace nettrace
