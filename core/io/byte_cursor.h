// core/io — the only way format code reads bytes. A cursor over one contiguous span
// (a whole block, reassembled by the ChunkQueue if it arrived split). Every read checks
// bounds and returns false instead of reading past the end; it never allocates. The
// cursor knows the absolute file offset of its span so errors can name where they are.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>

namespace nettrace {

// The index of the first 0x0000 code unit among the `units` UTF-16LE code units at p, or
// `units` when there is none.
size_t FindUtf16Terminator(const uint8_t* p, size_t units);
// Whether the `units` code units at p hold a 0x0000 one, searched from the end.
bool HasUtf16Terminator(const uint8_t* p, size_t units);

class ByteCursor {
 public:
  ByteCursor() = default;
  ByteCursor(std::span<const uint8_t> data, uint64_t fileOffset) : data_(data), base_(fileOffset) {}

  size_t position() const { return pos_; }
  size_t size() const { return data_.size(); }
  size_t remaining() const { return data_.size() - pos_; }
  bool empty() const { return pos_ >= data_.size(); }
  // Absolute file offset of the next byte.
  uint64_t fileOffset() const { return base_ + pos_; }
  uint64_t baseOffset() const { return base_; }
  const uint8_t* current() const { return data_.data() + pos_; }
  std::span<const uint8_t> data() const { return data_; }

  bool Skip(size_t n) {
    if (n > remaining()) return false;
    pos_ += n;
    return true;
  }
  bool Seek(size_t pos) {
    if (pos > data_.size()) return false;
    pos_ = pos;
    return true;
  }

  template <typename T>
  bool ReadLE(T* out) {
    static_assert(std::is_integral_v<T>, "integers only");
    if (sizeof(T) > remaining()) return false;
    // Little-endian hosts only (x86-64, wasm32): a memcpy is the LE load.
    std::memcpy(out, data_.data() + pos_, sizeof(T));
    pos_ += sizeof(T);
    return true;
  }
  bool ReadU8(uint8_t* v) { return ReadLE(v); }
  bool ReadU16(uint16_t* v) { return ReadLE(v); }
  bool ReadI16(int16_t* v) { return ReadLE(v); }
  bool ReadU32(uint32_t* v) { return ReadLE(v); }
  bool ReadI32(int32_t* v) { return ReadLE(v); }
  bool ReadU64(uint64_t* v) { return ReadLE(v); }
  bool ReadI64(int64_t* v) { return ReadLE(v); }

  bool ReadBytes(size_t n, std::span<const uint8_t>* out) {
    if (n > remaining()) return false;
    *out = data_.subspan(pos_, n);
    pos_ += n;
    return true;
  }

  // LEB128 (NetTraceFormat.md §Primitives "varuint"). At most 10 bytes; a value that does
  // not fit in 64 bits, or bytes that run out, fail.
  bool ReadVarUInt64(uint64_t* out) {
    const uint8_t* p = data_.data() + pos_;
    size_t avail = remaining();
    if (avail > 0 && p[0] < 0x80) {  // single-byte fast path: most deltas and ids
      *out = p[0];
      ++pos_;
      return true;
    }
    // Ten bytes left (a longest varuint): no bound to check per byte. Inside a block this is
    // every varuint but a block's last few bytes; the per-byte checks were a third of a
    // multi-byte varuint's cost, and multi-byte ones (timestamps, thread ids) are most of
    // the decoding of an event header.
    if (avail >= 10) return ReadLongVarUInt64(p, out);
    uint64_t value = 0;
    for (size_t i = 0; i < avail && i < 10; ++i) {
      const uint8_t b = p[i];
      if (i == 9 && b > 1) return false;  // bits beyond 64
      value |= uint64_t{b & 0x7Fu} << (7 * i);
      if (b < 0x80) {
        pos_ += i + 1;
        *out = value;
        return true;
      }
    }
    return false;
  }
  bool ReadVarUInt32(uint32_t* out) {
    uint64_t v;
    size_t save = pos_;
    if (!ReadVarUInt64(&v)) return false;
    if (v > 0xFFFFFFFFu) {
      pos_ = save;
      return false;
    }
    *out = static_cast<uint32_t>(v);
    return true;
  }
  // Zig-zag signed varint: (v >> 1) ^ -(v & 1).
  bool ReadVarInt64(int64_t* out) {
    uint64_t v;
    if (!ReadVarUInt64(&v)) return false;
    *out = static_cast<int64_t>((v >> 1) ^ (~(v & 1) + 1));
    return true;
  }

  // v6 string: varuint32 byte length + UTF-8 bytes. maxLength guards hostile lengths
  // (the remaining bytes already bound it; this is for clearer errors).
  bool ReadUtf8String(std::string* out) {
    uint32_t len;
    size_t save = pos_;
    if (!ReadVarUInt32(&len)) return false;
    if (len > remaining()) {
      pos_ = save;
      return false;
    }
    out->assign(reinterpret_cast<const char*>(data_.data() + pos_), len);
    pos_ += len;
    return true;
  }

  // v4/v5 string: UTF-16LE code units up to and including a 0 terminator; converted to
  // UTF-8 (unpaired surrogates become U+FFFD).
  bool ReadNullTerminatedUtf16(std::string* out);
  // The same string left as written: *units = its code units' bytes, terminator excluded.
  bool ReadNullTerminatedUtf16Bytes(std::span<const uint8_t>* units) {
    const size_t avail = remaining() / 2;
    const size_t n = FindUtf16Terminator(current(), avail);
    if (n == avail) return false;
    *units = data_.subspan(pos_, 2 * n);
    pos_ += 2 * (n + 1);
    return true;
  }
  // Whether a null-terminated UTF-16 string starts here (a 0x0000 code unit at an even
  // distance), i.e. whether ReadNullTerminatedUtf16Bytes would succeed, without reading it:
  // searched from the end, where the last string of a payload ends, so a caller that needs
  // nothing after that string does not scan it. The cursor does not move.
  bool HasNullTerminatedUtf16() const { return HasUtf16Terminator(current(), remaining() / 2); }

 private:
  // A varuint of two or more bytes (p[0] >= 0x80) with at least ten bytes readable at p.
  bool ReadLongVarUInt64(const uint8_t* p, uint64_t* out) {
    uint64_t value = p[0] & 0x7Fu;
    for (size_t i = 1; i < 9; ++i) {
      const uint64_t b = p[i];
      value |= (b & 0x7Fu) << (7 * i);
      if (b < 0x80) {
        pos_ += i + 1;
        *out = value;
        return true;
      }
    }
    if (p[9] > 1) return false;  // bits beyond 64, or an eleventh byte
    pos_ += 10;
    *out = value | uint64_t{p[9]} << 63;
    return true;
  }

  std::span<const uint8_t> data_;
  size_t pos_ = 0;
  uint64_t base_ = 0;
};

// Appends the UTF-8 encoding of UTF-16LE code units (bytes, even length) to out.
void AppendUtf16AsUtf8(const uint8_t* units, size_t count, std::string* out);

}  // namespace nettrace
