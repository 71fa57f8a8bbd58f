// core/write — builds event payloads (and hand-made block contents in tests) field by
// field, in the encodings of NetTraceFormat.md §MetadataBlock "enum TypeCode". Calls
// chain: PayloadBuilder().AppendI32(3).AppendNullTerminatedUtf16("name").Take().
// A value that cannot be encoded (an array longer than its uint16 count) clears ok()
// instead of throwing; the bytes are then not meant to be used.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "format/records.h"
#include "write/wire.h"

namespace nettrace {

// UTF-8 → UTF-16 code units; an invalid byte sequence becomes U+FFFD.
std::u16string Utf8ToUtf16(std::string_view utf8);

class PayloadBuilder {
 public:
  // Integers and floats (TypeCodes SByte..Double), little-endian.
  PayloadBuilder& AppendU8(uint8_t v) { return Put(v); }
  PayloadBuilder& AppendU16(uint16_t v) { return Put(v); }
  PayloadBuilder& AppendU32(uint32_t v) { return Put(v); }
  PayloadBuilder& AppendU64(uint64_t v) { return Put(v); }
  PayloadBuilder& AppendI8(int8_t v) { return Put(v); }
  PayloadBuilder& AppendI16(int16_t v) { return Put(v); }
  PayloadBuilder& AppendI32(int32_t v) { return Put(v); }
  PayloadBuilder& AppendI64(int64_t v) { return Put(v); }
  PayloadBuilder& AppendF32(float v) { return Put(v); }
  PayloadBuilder& AppendF64(double v) { return Put(v); }
  // Boolean8 (1 byte) and Boolean32 (4-byte LE integer), 0 = false, 1 = true.
  PayloadBuilder& AppendBool8(bool v) { return Put(static_cast<uint8_t>(v ? 1 : 0)); }
  PayloadBuilder& AppendBool32(bool v) { return Put(static_cast<uint32_t>(v ? 1 : 0)); }
  // UTF16CodeUnit (2 bytes) and UTF8CodeUnit (1 byte).
  PayloadBuilder& AppendUtf16CodeUnit(char16_t v) { return Put(static_cast<uint16_t>(v)); }
  PayloadBuilder& AppendUtf8CodeUnit(char v) { return Put(static_cast<uint8_t>(v)); }
  // VarInt (zig-zag varint64) and VarUInt (varuint64), §Primitives.
  PayloadBuilder& AppendVarInt(int64_t v) {
    wire::PutVarInt(bytes_, v);
    return *this;
  }
  PayloadBuilder& AppendVarUInt(uint64_t v) {
    wire::PutVarUInt(bytes_, v);
    return *this;
  }
  // Guid: the 16 bytes as stored (Int32, 2 Int16s, 8 bytes, .NET layout).
  PayloadBuilder& AppendGuid(const Guid& g) { return AppendBytes(g.bytes); }
  // DateTime as the v6 spec defines it: 8 Int16s, year .. milliseconds (a SYSTEMTIME).
  // Note TraceEvent reads 8 bytes (a FILETIME) for it (format-pitfalls.md §9): use
  // AppendI64 for that variant.
  PayloadBuilder& AppendDateTime(const SystemTime& t);
  // NullTerminatedUTF16String; the UTF-8 overload converts first.
  PayloadBuilder& AppendNullTerminatedUtf16(std::u16string_view s);
  PayloadBuilder& AppendNullTerminatedUtf16(std::string_view utf8) {
    return AppendNullTerminatedUtf16(std::u16string_view(Utf8ToUtf16(utf8)));
  }
  // Length-prefixed strings as v6 payloads carry them: Array<UTF8CodeUnit> and
  // Array<UTF16CodeUnit>, a uint16 element count then the code units (§TypeCode Array).
  PayloadBuilder& AppendUtf8Array(std::string_view s);
  PayloadBuilder& AppendUtf16Array(std::u16string_view s);
  PayloadBuilder& AppendUtf16Array(std::string_view utf8) {
    return AppendUtf16Array(std::u16string_view(Utf8ToUtf16(utf8)));
  }
  // The format's own "string" (§Primitives): varuint32 byte length + UTF-8. Not a
  // payload type, but what hand-made block contents need.
  PayloadBuilder& AppendString(std::string_view s) {
    wire::PutString(bytes_, s);
    return *this;
  }
  // Array prefix: the uint16 element count that precedes an Array's elements.
  PayloadBuilder& AppendArrayCount(size_t count);
  // RelLoc / DataLoc: uint32 with the byte size in the high 16 bits and the offset in the
  // low 16 (RelLoc: from the end of this field; DataLoc: from the payload start).
  PayloadBuilder& AppendLocation(uint16_t sizeBytes, uint16_t offset) {
    return Put(static_cast<uint32_t>((uint32_t{sizeBytes} << 16) | offset));
  }
  PayloadBuilder& AppendBytes(std::span<const uint8_t> b) {
    wire::PutBytes(bytes_, b);
    return *this;
  }
  // Rewrites 4 bytes at `at` (e.g. a location whose target offset is known later).
  PayloadBuilder& PatchU32(size_t at, uint32_t v) {
    if (at + 4 > bytes_.size()) {
      ok_ = false;
      return *this;
    }
    wire::PatchU32(bytes_, at, v);
    return *this;
  }

  bool ok() const { return ok_; }
  size_t size() const { return bytes_.size(); }
  const std::vector<uint8_t>& bytes() const { return bytes_; }
  std::span<const uint8_t> span() const { return bytes_; }
  std::vector<uint8_t> Take() { return std::move(bytes_); }

 private:
  template <typename T>
  PayloadBuilder& Put(T v) {
    wire::PutLE(bytes_, v);
    return *this;
  }

  std::vector<uint8_t> bytes_;
  bool ok_ = true;
};

}  // namespace nettrace
