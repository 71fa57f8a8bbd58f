#include <catch2/catch.hpp>

#include <optional>
#include <utility>
#include <vector>

#include "io/byte_cursor.h"

using nettrace::ByteCursor;

namespace {
ByteCursor Over(const std::vector<uint8_t>& v, uint64_t base = 100) { return ByteCursor({v.data(), v.size()}, base); }
}  // namespace

TEST_CASE("fixed-size reads are little-endian and bounds-checked", "[io]") {
  std::vector<uint8_t> b = {0x01, 0x02, 0x03, 0x04, 0x05};
  ByteCursor c = Over(b);
  uint32_t v32 = 0;
  REQUIRE(c.ReadU32(&v32));
  CHECK(v32 == 0x04030201u);
  CHECK(c.fileOffset() == 104);
  uint16_t v16 = 0;
  CHECK_FALSE(c.ReadU16(&v16));  // one byte left
  CHECK(c.position() == 4);      // a failed read does not move the cursor
  uint8_t v8 = 0;
  CHECK(c.ReadU8(&v8));
  CHECK(v8 == 5);
  CHECK(c.empty());
}

TEST_CASE("varints: single byte, multi byte, 64-bit max, overflow and truncation", "[io]") {
  uint64_t v = 0;
  {
    std::vector<uint8_t> b = {0x7F};
    ByteCursor c = Over(b);
    REQUIRE(c.ReadVarUInt64(&v));
    CHECK(v == 127);
  }
  {
    std::vector<uint8_t> b = {0xAC, 0x02};  // 300
    ByteCursor c = Over(b);
    REQUIRE(c.ReadVarUInt64(&v));
    CHECK(v == 300);
    CHECK(c.empty());
  }
  {
    std::vector<uint8_t> b(9, 0xFF);
    b.push_back(0x01);  // ~0ull in 10 bytes
    ByteCursor c = Over(b);
    REQUIRE(c.ReadVarUInt64(&v));
    CHECK(v == ~uint64_t{0});
  }
  {
    std::vector<uint8_t> b(9, 0xFF);
    b.push_back(0x02);  // bit 64: does not fit
    ByteCursor c = Over(b);
    CHECK_FALSE(c.ReadVarUInt64(&v));
  }
  {
    std::vector<uint8_t> b = {0x80, 0x80};  // continuation with no end
    ByteCursor c = Over(b);
    CHECK_FALSE(c.ReadVarUInt64(&v));
    CHECK(c.position() == 0);
  }
  {
    std::vector<uint8_t> b = {0xFF, 0xFF, 0xFF, 0xFF, 0x1F};  // 2^35-1 does not fit uint32
    ByteCursor c = Over(b);
    uint32_t v32;
    CHECK_FALSE(c.ReadVarUInt32(&v32));
  }
}

namespace {
// The LEB128 rule read byte by byte with every bound checked: what ReadVarUInt64 must give
// (its value and length), whether or not ten bytes are left after the start.
std::optional<std::pair<uint64_t, size_t>> ReferenceVarUInt(const std::vector<uint8_t>& b, size_t at) {
  uint64_t value = 0;
  for (size_t i = 0; i < 10 && at + i < b.size(); ++i) {
    const uint8_t byte = b[at + i];
    if (i == 9 && byte > 1) return std::nullopt;
    value |= uint64_t{byte & 0x7Fu} << (7 * i);
    if (byte < 0x80) return std::make_pair(value, i + 1);
  }
  return std::nullopt;
}
}  // namespace

TEST_CASE("varints: each length 1-11, at the end of a span and with ten or more bytes after", "[io]") {
  // Every length of varuint, its last byte 0x00, 0x01, 0x02 or 0x7F, its others 0x80 or 0xFF,
  // followed by 0, 1, 9 or 12 more bytes: the short tail is read by the bounded loop, the long
  // one by the path that checks no bound per byte. Both must agree with the rule.
  size_t cases = 0;
  for (size_t length = 1; length <= 11; ++length)
    for (uint8_t fill : {uint8_t{0x80}, uint8_t{0xFF}})
      for (uint8_t last : {uint8_t{0x00}, uint8_t{0x01}, uint8_t{0x02}, uint8_t{0x7F}})
        for (size_t after : {size_t{0}, size_t{1}, size_t{9}, size_t{12}}) {
          std::vector<uint8_t> b(length - 1, fill);
          b.push_back(last);
          b.insert(b.end(), after, 0x05);
          const auto expected = ReferenceVarUInt(b, 0);
          ByteCursor c = Over(b);
          uint64_t v = 0;
          INFO("length " << length << ", fill " << int(fill) << ", last " << int(last) << ", after " << after);
          REQUIRE(c.ReadVarUInt64(&v) == expected.has_value());
          if (expected) {
            CHECK(v == expected->first);
            CHECK(c.position() == expected->second);
          } else {
            CHECK(c.position() == 0);
          }
          ++cases;
        }
  CHECK(cases == 11 * 2 * 4 * 4);
  // A stream of varuints of mixed lengths read back to back, as an event header is.
  std::vector<uint8_t> stream;
  std::vector<uint64_t> values;
  uint64_t x = 0x9E3779B97F4A7C15u;
  for (int i = 0; i < 2000; ++i) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    const uint64_t value = x >> (x % 64);
    values.push_back(value);
    for (uint64_t r = value;; r >>= 7) {
      if (r < 0x80) {
        stream.push_back(static_cast<uint8_t>(r));
        break;
      }
      stream.push_back(static_cast<uint8_t>(r | 0x80));
    }
  }
  ByteCursor c = Over(stream);
  for (uint64_t expected : values) {
    uint64_t v = 0;
    REQUIRE(c.ReadVarUInt64(&v));
    REQUIRE(v == expected);
  }
  CHECK(c.empty());
}

TEST_CASE("zig-zag varint decodes signed values", "[io]") {
  std::vector<uint8_t> b = {0x00, 0x01, 0x02, 0x03};
  ByteCursor c = Over(b);
  int64_t v;
  REQUIRE(c.ReadVarInt64(&v));
  CHECK(v == 0);
  REQUIRE(c.ReadVarInt64(&v));
  CHECK(v == -1);
  REQUIRE(c.ReadVarInt64(&v));
  CHECK(v == 1);
  REQUIRE(c.ReadVarInt64(&v));
  CHECK(v == -2);
}

TEST_CASE("strings: UTF-8 length prefix guarded, UTF-16 converted with surrogates", "[io]") {
  {
    std::vector<uint8_t> b = {0x05, 'h', 'i'};  // claims 5 bytes, has 2
    ByteCursor c = Over(b);
    std::string s;
    CHECK_FALSE(c.ReadUtf8String(&s));
    CHECK(c.position() == 0);
  }
  {
    // "A", U+00E9, U+1F600 (surrogate pair), terminator.
    std::vector<uint8_t> b = {'A', 0, 0xE9, 0, 0x3D, 0xD8, 0x00, 0xDE, 0, 0};
    ByteCursor c = Over(b);
    std::string s;
    REQUIRE(c.ReadNullTerminatedUtf16(&s));
    CHECK(s == "A\xC3\xA9\xF0\x9F\x98\x80");
    CHECK(c.empty());
  }
  {
    std::vector<uint8_t> b = {'A', 0, 'B'};  // no terminator
    ByteCursor c = Over(b);
    std::string s;
    CHECK_FALSE(c.ReadNullTerminatedUtf16(&s));
  }
}

TEST_CASE("UTF-16 terminator found at every position of the sixteen-, eight- and four-unit scans, never at an odd byte", "[io]") {
  for (size_t len = 0; len < 50; ++len) {  // up to three sixteen-unit steps
    // `len` units 'a', then a unit 0x0100 (a 0 byte at an odd offset, not a terminator), then
    // 0x0000; the scan must stop at the real terminator whatever lane it falls in.
    std::vector<uint8_t> b;
    for (size_t i = 0; i < len; ++i) b.push_back('a'), b.push_back(0);
    b.push_back(0), b.push_back(1);
    b.push_back(0), b.push_back(0);
    b.push_back(1), b.push_back(0);  // a 0x0001 after the terminator: a borrow flags it too, never first
    ByteCursor c = Over(b);
    std::span<const uint8_t> units;
    REQUIRE(c.ReadNullTerminatedUtf16Bytes(&units));
    CHECK(units.size() == 2 * len + 2);
    CHECK(c.position() == 2 * len + 4);
    // Cut just before the terminator's second byte: unterminated, the cursor stays put.
    ByteCursor cut(std::span<const uint8_t>(b.data(), 2 * len + 3), 0);
    CHECK_FALSE(cut.ReadNullTerminatedUtf16Bytes(&units));
    CHECK(cut.position() == 0);
    // The check from the end agrees with the scan, on the whole and on the cut string, and
    // from an odd start (where the 0x0100 unit's 0 byte pairs with the terminator's).
    CHECK(Over(b).HasNullTerminatedUtf16());
    CHECK_FALSE(cut.HasNullTerminatedUtf16());
    for (size_t start = 0; start < b.size(); ++start) {
      ByteCursor from(std::span<const uint8_t>(b.data() + start, b.size() - start), 0), scan = from;
      CHECK(from.HasNullTerminatedUtf16() == scan.ReadNullTerminatedUtf16Bytes(&units));
    }
  }
}
