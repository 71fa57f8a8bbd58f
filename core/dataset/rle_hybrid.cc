// core/dataset — RLE / bit-packing hybrid encoder (Encodings.md §RLE):
//   run := bit-packed-run | rle-run
//   bit-packed-run := varint(groups << 1 | 1) then groups * 8 values, bitWidth bits each, LSB first
//   rle-run := varint(count << 1) then the value in ceil(bitWidth / 8) bytes, little endian
#include "dataset/rle_hybrid.h"

#include "write/wire.h"

namespace nettrace::parquet {

int BitWidth(uint64_t maxValue) {
  int width = 0;
  while (maxValue) {
    ++width;
    maxValue >>= 1;
  }
  return width;
}

namespace {

// Writes values[begin, begin + count) with `width` bits each, LSB first; past n, zero bits
// pad the last group of 8 (the reader knows the value count from the page header).
template <typename T>
void PackValues(const T* values, size_t n, size_t begin, size_t count, int width, std::vector<uint8_t>* out) {
  uint64_t acc = 0;
  int bits = 0;
  for (size_t k = 0; k < count; ++k) {
    const uint64_t v = begin + k < n ? static_cast<uint64_t>(values[begin + k]) : 0;
    acc |= v << bits;
    bits += width;
    while (bits >= 8) {
      out->push_back(static_cast<uint8_t>(acc));
      acc >>= 8;
      bits -= 8;
    }
  }
  if (bits > 0) out->push_back(static_cast<uint8_t>(acc));
}

template <typename T>
void Encode(const T* values, size_t n, int width, std::vector<uint8_t>* out) {
  const int valueBytes = (width + 7) / 8;
  size_t packedBegin = 0;
  size_t packedGroups = 0;
  auto flushPacked = [&] {
    if (packedGroups == 0) return;
    wire::PutVarUInt(*out, uint64_t{packedGroups} << 1 | 1);
    PackValues(values, n, packedBegin, packedGroups * 8, width, out);
    packedGroups = 0;
  };
  size_t i = 0;
  while (i < n) {
    size_t run = 1;
    while (i + run < n && values[i + run] == values[i]) ++run;
    if (run >= 8) {
      flushPacked();
      wire::PutVarUInt(*out, uint64_t{run} << 1);
      const uint64_t v = static_cast<uint64_t>(values[i]);
      for (int b = 0; b < valueBytes; ++b) out->push_back(static_cast<uint8_t>(v >> (8 * b)));
      i += run;
      continue;
    }
    // Fewer than 8 equal values here: they join the pending bit-packed run, 8 at a time.
    if (packedGroups == 0) packedBegin = i;
    ++packedGroups;
    i += 8;
  }
  flushPacked();
}

}  // namespace

void EncodeRleHybrid(const uint32_t* values, size_t n, int bitWidth, std::vector<uint8_t>* out) {
  Encode(values, n, bitWidth, out);
}

void EncodeRleHybrid(const uint8_t* values, size_t n, int bitWidth, std::vector<uint8_t>* out) {
  Encode(values, n, bitWidth, out);
}

void PackBits(const uint8_t* values, size_t n, std::vector<uint8_t>* out) { PackValues(values, n, 0, n, 1, out); }

}  // namespace nettrace::parquet
