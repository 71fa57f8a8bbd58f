// core/format — a decoded event payload field value: a small tree of scalars, arrays,
// objects and error markers, produced by payload_decoder.h on demand for one event.
// A field that cannot be decoded is an error VALUE carrying a message, never an
// exception or an aborted event (v6-test-scenarios.md §B 13-16: the event is still
// delivered, the bad field gets an error marker).
//
// JSON shape (ToJson), chosen so JavaScript loses nothing:
//   integers          number; a string when |v| > 2^53 (JS numbers are doubles);
//                     "0x…" (upper-case, zero-padded to the encoded width) when hex
//   double            number (shortest text that round-trips); "NaN"/"Infinity"/"-Infinity"
//                     and magnitudes a JS literal would print with an exponent as strings
//   bool / string     as such; guid: "xxxxxxxx-xxxx-…" (lower case, .NET field order)
//   datetime          {"$dateTime":"2025-02-03T04:05:06.0000000Z","$fileTime":N} (N as any
//                     integer: a string beyond 2^53, which real FILETIMEs are) or
//                     {"$dateTime":…,"$systemTime":[y,mo,dow,d,h,mi,s,ms]}
//   bytes             {"$bytes":"0a1b…"} (lower-case hex)
//   array / object    JSON array / object (field names in payload order)
//   error             {"$error":"message"}
// Keys starting with '$' mark the non-plain kinds; payload field names never need one.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/json_writer.h"

namespace nettrace {

namespace clr {
struct EnumInfo;
}

struct PayloadField;

class PayloadValue {
 public:
  enum class Kind : uint8_t { kInt, kUInt, kDouble, kBool, kString, kGuid, kDateTime, kBytes, kArray, kObject, kError };
  // How a DateTime was encoded (format-pitfalls.md §9).
  enum class DateTimeEncoding : uint8_t { kNone, kFileTime, kSystemTime };

  static PayloadValue Int(int64_t v, uint8_t width, bool hex = false);
  static PayloadValue UInt(uint64_t v, uint8_t width, bool hex = false);
  static PayloadValue Double(double v, bool single = false);
  static PayloadValue Bool(bool v, uint8_t width);
  static PayloadValue String(std::string utf8);
  static PayloadValue GuidValue(const uint8_t* bytes16);
  // FILETIME: 100 ns ticks since 1601-01-01 UTC (what EventSource writes, read as int64).
  static PayloadValue FileTime(int64_t ticks);
  // SYSTEMTIME: year, month, dayOfWeek, day, hour, minute, second, milliseconds (v6 spec).
  static PayloadValue SystemTime(const std::array<int16_t, 8>& parts);
  static PayloadValue Bytes(const uint8_t* data, size_t size);
  static PayloadValue Array(std::vector<PayloadValue> items);
  static PayloadValue Object(std::vector<PayloadField> fields);
  static PayloadValue Error(std::string message);

  Kind kind() const { return kind_; }
  bool isError() const { return kind_ == Kind::kError; }
  bool isInteger() const { return kind_ == Kind::kInt || kind_ == Kind::kUInt; }
  bool isNumber() const { return isInteger() || kind_ == Kind::kDouble || kind_ == Kind::kBool; }
  // Encoded width in bytes of an integer/bool (1, 2, 4, 8); 0 for VarInt/VarUInt.
  uint8_t width() const { return width_; }
  bool hex() const { return hex_; }
  bool isSingle() const { return single_; }  // a Single (float) widened to double
  DateTimeEncoding dateTimeEncoding() const { return dateTime_; }

  // Integers (and FILETIME ticks) share one 64-bit store; asInt/asUInt reinterpret it.
  int64_t asInt() const { return static_cast<int64_t>(bits_); }
  uint64_t asUInt() const { return bits_; }
  // Any number (int, uint, double, bool) as a double; 0 for other kinds.
  double asDouble() const;
  bool asBool() const { return b_; }
  // kString: UTF-8 text (as decoded; JSON output replaces invalid sequences);
  // kError: the message; kDateTime: ISO-8601 UTC ("…Z"), or "" if out of range;
  // kGuid: the canonical lower-case text; kBytes: the raw bytes.
  const std::string& text() const { return text_; }
  // kDateTime with kFileTime: the raw ticks (also derived for a valid SYSTEMTIME).
  int64_t fileTime() const { return static_cast<int64_t>(bits_); }
  const std::array<int16_t, 8>& systemTime() const { return systemTime_; }
  const std::vector<PayloadValue>& items() const { return items_; }  // kArray
  const std::vector<PayloadField>& fields() const { return fields_; }  // kObject
  // kObject: the field named `name`, nullptr if absent.
  const PayloadValue* Find(std::string_view name) const;

  // Display text without JSON quoting: numbers in decimal (hex "0x…" when hex()),
  // arrays "[a,b]", objects "{a=1,b=2}", errors "<error: …>".
  std::string ToString() const;
  void ToJson(JsonWriter& w) const;

 private:
  Kind kind_ = Kind::kError;
  uint8_t width_ = 0;
  bool hex_ = false;
  bool single_ = false;
  bool b_ = false;
  DateTimeEncoding dateTime_ = DateTimeEncoding::kNone;
  uint64_t bits_ = 0;  // kInt, kUInt, kDateTime (ticks): the value; kDouble: the IEEE bits
  std::array<int16_t, 8> systemTime_{};
  std::string text_;
  std::vector<PayloadValue> items_;
  std::vector<PayloadField> fields_;
};

struct PayloadField {
  std::string name;
  PayloadValue value;
  // A CLR template field TraceEvent returns as this enum (clr_events.generated.h): the JSON
  // adds its name as "display" (payload/clr_enums.h). nullptr for every other field.
  const clr::EnumInfo* enumType = nullptr;
};

// Shortest decimal text that reads back as exactly `v` ("%.{15,16,17}g"; for a Single,
// the shortest that reads back as the same float).
std::string FormatDouble(double v, bool single = false);

// ISO-8601 UTC text with 7 fractional digits for a FILETIME; "" if it is out of the
// range .NET's DateTime can hold (negative, or beyond year 9999).
std::string FileTimeToIso8601(int64_t ticks);

}  // namespace nettrace
