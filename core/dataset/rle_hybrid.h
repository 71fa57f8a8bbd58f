// core/dataset — the RLE / bit-packing hybrid encoding of Parquet (Encodings.md "Run Length
// Encoding / Bit-Packing Hybrid"): definition levels and dictionary indices. A run of at
// least 8 equal values becomes one RLE run; anything else is bit-packed in groups of 8
// values, LSB first. The encoding is a pure function of its input (deterministic bytes).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace nettrace::parquet {

// Bits needed to write every value in [0, maxValue]: 0 for 0, 1 for 1, 2 for 2..3, ...
int BitWidth(uint64_t maxValue);

// Appends the hybrid encoding of values[0..n) (each below 2^bitWidth, bitWidth <= 32) to
// out, without the 4-byte length prefix (the caller adds it where the page kind wants it).
void EncodeRleHybrid(const uint32_t* values, size_t n, int bitWidth, std::vector<uint8_t>* out);
void EncodeRleHybrid(const uint8_t* values, size_t n, int bitWidth, std::vector<uint8_t>* out);

// Appends values[0..n) bit-packed LSB first, the last byte padded with zero bits: the PLAIN
// encoding of BOOLEAN (one bit per value, values 0 or 1).
void PackBits(const uint8_t* values, size_t n, std::vector<uint8_t>* out);

}  // namespace nettrace::parquet
