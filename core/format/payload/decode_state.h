// core/format/payload — state shared by the two payload walkers (metadata TypeCodes and
// CLR manifest templates) while one event is decoded. Internal to payload_decoder.cc.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "format/payload_value.h"
#include "io/byte_cursor.h"

namespace nettrace {
// How deep structs and arrays may nest in a payload: the walkers stop there.
inline constexpr int kMaxPayloadDepth = 32;
}  // namespace nettrace

namespace nettrace::payload {

// What decoding one value did to the walk.
enum class Step : uint8_t {
  kOk,
  kSkipped,  // the value is an error marker but its size was known: the walk goes on
  kStop,     // the value is an error marker and where the next value starts is unknown
};

struct DecodeState {
  std::span<const uint8_t> payload;
  // Values still allowed for this event. Every value must consume at least one byte
  // except empty objects, so a hostile Array<Object{}> (65,535 per 2 bytes, nestable)
  // is the only way to multiply values; this cap ends it.
  size_t budget = 0;
  bool hasErrors = false;
  bool shorter = false;  // the payload ended inside the schema
  // DateTime width in this attempt: 8 (FILETIME) or 16 (SYSTEMTIME).
  uint8_t dateTimeWidth = 8;
  bool sawDateTime = false;
  // End of the furthest range a RelLoc/DataLoc referenced: that data usually follows the
  // last field (format-pitfalls.md §12) and is not "trailing".
  size_t referencedEnd = 0;

  explicit DecodeState(std::span<const uint8_t> p) : payload(p), budget(4096 + 4 * p.size()) {}

  // Cursors carry their offset within the payload as their base, so that
  // c.fileOffset() is the payload position whatever sub-range they cover (RelLoc
  // counts from there, NetTraceFormat.md §MetadataBlock TypeCode RelLoc).
  ByteCursor Whole() const { return ByteCursor(payload, 0); }

  bool TakeBudget(PayloadValue* out) {
    if (budget == 0) {
      *out = Error("more values than this payload can plausibly hold");
      return false;
    }
    --budget;
    return true;
  }
  PayloadValue Error(std::string message) {
    hasErrors = true;
    return PayloadValue::Error(std::move(message));
  }
  // The payload ended `need` bytes short of a value at the cursor.
  PayloadValue Truncated(const ByteCursor& c, size_t need, const char* what) {
    shorter = true;
    return Error(std::string(what) + " at payload offset " + std::to_string(c.fileOffset()) + " needs " +
                 std::to_string(need) + " bytes, " + std::to_string(c.remaining()) + " left");
  }
};

// UTF-16LE code units → UTF-8 string value (unpaired surrogates become U+FFFD).
inline PayloadValue Utf16Value(const uint8_t* units, size_t count) {
  std::string s;
  AppendUtf16AsUtf8(units, count, &s);
  return PayloadValue::String(std::move(s));
}

// A lone UTF8CodeUnit: ASCII as is; a byte ≥ 0x80 cannot be a character on its own and is
// shown as the Latin-1 character of that value, as TraceEvent's (char)byte does.
inline PayloadValue Utf8UnitValue(uint8_t unit) {
  std::string s;
  if (unit < 0x80) {
    s.push_back(static_cast<char>(unit));
  } else {
    s.push_back(static_cast<char>(0xC0 | (unit >> 6)));
    s.push_back(static_cast<char>(0x80 | (unit & 0x3F)));
  }
  return PayloadValue::String(std::move(s));
}

// Reads an 8-byte FILETIME or a 16-byte SYSTEMTIME (width 8 or 16).
inline bool ReadDateTime(ByteCursor& c, uint8_t width, PayloadValue* out) {
  if (width == 16) {
    std::array<int16_t, 8> parts{};
    if (c.remaining() < 16) return false;
    for (auto& part : parts) c.ReadI16(&part);
    *out = PayloadValue::SystemTime(parts);
    return true;
  }
  int64_t ticks = 0;
  if (!c.ReadI64(&ticks)) return false;
  *out = PayloadValue::FileTime(ticks);
  return true;
}

inline PayloadValue ReadGuidValue(ByteCursor& c) {
  std::span<const uint8_t> b;
  c.ReadBytes(16, &b);  // caller checked 16 bytes remain
  return PayloadValue::GuidValue(b.data());
}

}  // namespace nettrace::payload
