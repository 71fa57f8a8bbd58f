// RLE / bit-packing hybrid against Encodings.md's own example (0..7 at width 3 packs to
// 10001000 11000110 11111010) and runs worked out by hand.
#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include "dataset/byte_literals.h"
#include "dataset/rle_hybrid.h"

namespace nettrace::parquet {
namespace {

using test::Bytes;

std::vector<uint8_t> Encode(std::vector<uint32_t> values, int width) {
  std::vector<uint8_t> out;
  EncodeRleHybrid(values.data(), values.size(), width, &out);
  return out;
}

TEST_CASE("rle hybrid: bit widths", "[dataset]") {
  CHECK(BitWidth(0) == 0);
  CHECK(BitWidth(1) == 1);
  CHECK(BitWidth(2) == 2);
  CHECK(BitWidth(3) == 2);
  CHECK(BitWidth(4) == 3);
  CHECK(BitWidth(255) == 8);
  CHECK(BitWidth(256) == 9);
}

TEST_CASE("rle hybrid: the spec's bit-packing example", "[dataset]") {
  // One group of 8: header varint(1 << 1 | 1) = 3.
  CHECK(Encode({0, 1, 2, 3, 4, 5, 6, 7}, 3) == Bytes({0x03, 0x88, 0xC6, 0xFA}));
}

TEST_CASE("rle hybrid: runs, partial groups and wide values", "[dataset]") {
  // Ten 1s at width 1: an RLE run, header varint(10 << 1) = 0x14, value in one byte.
  CHECK(Encode(std::vector<uint32_t>(10, 1), 1) == Bytes({0x14, 0x01}));
  // Three values: one bit-packed group padded with zeros: 1,0,1 -> 0b101.
  CHECK(Encode({1, 0, 1}, 1) == Bytes({0x03, 0x05}));
  // Eight 5s then 1, 2 at width 3: RLE run (0x10, 5), then a group: 1 | 2 << 3 = 0x11.
  CHECK(Encode({5, 5, 5, 5, 5, 5, 5, 5, 1, 2}, 3) == Bytes({0x10, 0x05, 0x03, 0x11, 0x00, 0x00}));
  // A run's value takes ceil(width / 8) bytes, little endian: 300 at width 9 -> 2C 01.
  CHECK(Encode(std::vector<uint32_t>(8, 300), 9) == Bytes({0x10, 0x2C, 0x01}));
  // Fewer than 8 equal values stay in the bit-packed run: two groups, header (2 << 1 | 1).
  CHECK(Encode({1, 1, 1, 1, 1, 1, 1, 0, 0, 1}, 1) == Bytes({0x05, 0x7F, 0x02}));
  // A long run is one header: 1000 zeros, varint(2000) = 0xD0 0x0F.
  CHECK(Encode(std::vector<uint32_t>(1000, 0), 1) == Bytes({0xD0, 0x0F, 0x00}));
  CHECK(Encode({}, 1).empty());
}

TEST_CASE("rle hybrid: levels as bytes encode like indices", "[dataset]") {
  const std::vector<uint8_t> levels = {1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1};
  std::vector<uint8_t> out;
  EncodeRleHybrid(levels.data(), levels.size(), 1, &out);
  // Nine 1s: RLE (0x12, 1); then 0, 1 packed: 0b10.
  CHECK(out == Bytes({0x12, 0x01, 0x03, 0x02}));
}

TEST_CASE("plain booleans: bit-packed LSB first", "[dataset]") {
  const std::vector<uint8_t> values = {1, 0, 1, 1, 0, 0, 0, 0, 1};
  std::vector<uint8_t> out;
  PackBits(values.data(), values.size(), &out);
  CHECK(out == Bytes({0x0D, 0x01}));
}

}  // namespace
}  // namespace nettrace::parquet
