// core/write — the little-endian primitives of NetTraceFormat.md §Primitives, as appends
// to a byte vector. The writer (nettrace_writer.h) and PayloadBuilder (payload_builder.h)
// both encode through these, so every integer on the wire has exactly one encoder.
// Little-endian hosts only (x86-64, wasm32), like io/byte_cursor.h: memcpy is the LE store.
#pragma once

#include <cstdint>
#include <cstring>
#include <span>
#include <string_view>
#include <type_traits>
#include <vector>

namespace nettrace::wire {

template <typename T>
inline void PutLE(std::vector<uint8_t>& out, T v) {
  static_assert(std::is_arithmetic_v<T>, "integers and floats only");
  const size_t at = out.size();
  out.resize(at + sizeof(T));
  std::memcpy(out.data() + at, &v, sizeof(T));
}
inline void PutU8(std::vector<uint8_t>& out, uint8_t v) { out.push_back(v); }
inline void PutU16(std::vector<uint8_t>& out, uint16_t v) { PutLE(out, v); }
inline void PutU32(std::vector<uint8_t>& out, uint32_t v) { PutLE(out, v); }
inline void PutU64(std::vector<uint8_t>& out, uint64_t v) { PutLE(out, v); }
inline void PutI16(std::vector<uint8_t>& out, int16_t v) { PutLE(out, v); }
inline void PutI32(std::vector<uint8_t>& out, int32_t v) { PutLE(out, v); }
inline void PutI64(std::vector<uint8_t>& out, int64_t v) { PutLE(out, v); }

// §Primitives "varuint": 7 bits per byte, low bits first, high bit = more bytes follow.
// Always the minimal encoding (readers must also accept non-minimal ones, pitfalls §3).
inline void PutVarUInt(std::vector<uint8_t>& out, uint64_t v) {
  while (v >= 0x80) {
    out.push_back(static_cast<uint8_t>(v | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<uint8_t>(v));
}

// §Primitives "varint": zig-zag, the inverse of (v >> 1) ^ -(v & 1). Done on unsigned
// values so that INT64_MIN does not overflow.
inline void PutVarInt(std::vector<uint8_t>& out, int64_t v) {
  const uint64_t u = static_cast<uint64_t>(v);
  PutVarUInt(out, (u << 1) ^ (v < 0 ? ~uint64_t{0} : uint64_t{0}));
}

// resize + memcpy rather than insert(): GCC 12 at -O3 warns falsely (-Wstringop-overflow)
// on vector<uint8_t>::insert of a span.
inline void PutBytes(std::vector<uint8_t>& out, std::span<const uint8_t> bytes) {
  if (bytes.empty()) return;
  const size_t at = out.size();
  out.resize(at + bytes.size());
  std::memcpy(out.data() + at, bytes.data(), bytes.size());
}

// §Primitives "string": varuint32 byte length, then UTF-8 bytes (no terminator). Callers
// bound the length: every string sits in a block of < 16 MiB.
inline void PutString(std::vector<uint8_t>& out, std::string_view s) {
  PutVarUInt(out, s.size());
  PutBytes(out, std::span(reinterpret_cast<const uint8_t*>(s.data()), s.size()));
}

// Fill in a size field that was written as a placeholder before its content.
inline void PatchU16(std::vector<uint8_t>& out, size_t at, uint16_t v) { std::memcpy(out.data() + at, &v, 2); }
inline void PatchU32(std::vector<uint8_t>& out, size_t at, uint32_t v) { std::memcpy(out.data() + at, &v, 4); }

}  // namespace nettrace::wire
