#include "format/payload_value.h"

#include "base/civil_time.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace nettrace {

namespace {

constexpr int64_t kTicksPerDay = 864000000000;  // 100 ns ticks
// Days from 1601-01-01 (FILETIME epoch) to 1970-01-01.
constexpr int64_t kDays1601To1970 = 134774;
// .NET DateTime.MaxValue (9999-12-31T23:59:59.9999999) as a FILETIME.
constexpr int64_t kMaxFileTime = 2650467743999999999;


// JS's Number.prototype.toString switches to exponent form outside 1e-7 .. 1e21; a JSON
// number written with %f there would be hundreds of digits long, so those go as strings.
bool FitsPlainJsonNumber(const std::string& text, int* decimals) {
  size_t e = text.find_first_of("eE");
  size_t dot = text.find('.');
  int fraction = 0;
  if (dot != std::string::npos) fraction = static_cast<int>((e == std::string::npos ? text.size() : e) - dot - 1);
  int exponent = 0;
  if (e != std::string::npos) exponent = std::atoi(text.c_str() + e + 1);
  if (exponent < -7 || exponent >= 21) return false;
  *decimals = fraction - exponent < 0 ? 0 : fraction - exponent;
  return true;
}

void AppendHex(uint64_t v, unsigned digits, std::string* out) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%0*llX", static_cast<int>(digits), static_cast<unsigned long long>(v));
  out->append(buf);
}

}  // namespace

std::string FormatDouble(double v, bool single) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v < 0 ? "-Infinity" : "Infinity";
  char buf[40];
  // The shortest precision that reads back as the same value (C locale: '.' decimal point).
  for (int precision = single ? 6 : 15; precision <= (single ? 9 : 17); ++precision) {
    std::snprintf(buf, sizeof buf, "%.*g", precision, v);
    if (single ? std::strtof(buf, nullptr) == static_cast<float>(v) : std::strtod(buf, nullptr) == v) break;
  }
  return buf;
}

std::string FileTimeToIso8601(int64_t ticks) {
  if (ticks < 0 || ticks > kMaxFileTime) return "";
  int64_t days = ticks / kTicksPerDay;
  int64_t rem = ticks % kTicksPerDay;
  int64_t y;
  unsigned m, d;
  CivilFromDays(days - kDays1601To1970, &y, &m, &d);
  int64_t secs = rem / 10000000;
  char buf[48];
  std::snprintf(buf, sizeof buf, "%04lld-%02u-%02uT%02lld:%02lld:%02lld.%07lldZ", static_cast<long long>(y), m, d,
                static_cast<long long>(secs / 3600), static_cast<long long>(secs / 60 % 60),
                static_cast<long long>(secs % 60), static_cast<long long>(rem % 10000000));
  return buf;
}

PayloadValue PayloadValue::Int(int64_t v, uint8_t width, bool hex) {
  PayloadValue p;
  p.kind_ = Kind::kInt;
  p.bits_ = static_cast<uint64_t>(v);
  p.width_ = width;
  p.hex_ = hex;
  return p;
}

PayloadValue PayloadValue::UInt(uint64_t v, uint8_t width, bool hex) {
  PayloadValue p;
  p.kind_ = Kind::kUInt;
  p.bits_ = v;
  p.width_ = width;
  p.hex_ = hex;
  return p;
}

PayloadValue PayloadValue::Double(double v, bool single) {
  PayloadValue p;
  p.kind_ = Kind::kDouble;
  std::memcpy(&p.bits_, &v, sizeof v);
  p.single_ = single;
  p.width_ = single ? 4 : 8;
  return p;
}

PayloadValue PayloadValue::Bool(bool v, uint8_t width) {
  PayloadValue p;
  p.kind_ = Kind::kBool;
  p.b_ = v;
  p.width_ = width;
  return p;
}

PayloadValue PayloadValue::String(std::string utf8) {
  PayloadValue p;
  p.kind_ = Kind::kString;
  p.text_ = std::move(utf8);
  return p;
}

PayloadValue PayloadValue::GuidValue(const uint8_t* b) {
  PayloadValue p;
  p.kind_ = Kind::kGuid;
  // .NET layout: Data1 (LE int32), Data2 (LE int16), Data3 (LE int16), Data4 (8 bytes).
  char buf[40];
  std::snprintf(buf, sizeof buf, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[3], b[2],
                b[1], b[0], b[5], b[4], b[7], b[6], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]);
  p.text_ = buf;
  return p;
}

PayloadValue PayloadValue::FileTime(int64_t ticks) {
  PayloadValue p;
  p.kind_ = Kind::kDateTime;
  p.dateTime_ = DateTimeEncoding::kFileTime;
  p.width_ = 8;
  p.bits_ = static_cast<uint64_t>(ticks);
  p.text_ = FileTimeToIso8601(ticks);
  return p;
}

PayloadValue PayloadValue::SystemTime(const std::array<int16_t, 8>& t) {
  PayloadValue p;
  p.kind_ = Kind::kDateTime;
  p.dateTime_ = DateTimeEncoding::kSystemTime;
  p.width_ = 16;
  p.systemTime_ = t;
  // Only a calendar-valid SYSTEMTIME gets ISO text and a derived FILETIME (dayOfWeek, t[2],
  // is redundant and not checked: writers are not consistent about it).
  int64_t y = t[0];
  if (y >= 1601 && y <= 9999 && t[1] >= 1 && t[1] <= 12 && t[3] >= 1 &&
      static_cast<unsigned>(t[3]) <= DaysInMonth(y, static_cast<unsigned>(t[1])) && t[4] >= 0 && t[4] < 24 &&
      t[5] >= 0 && t[5] < 60 && t[6] >= 0 && t[6] < 60 && t[7] >= 0 && t[7] < 1000) {
    int64_t days = DaysFromCivil(y, static_cast<unsigned>(t[1]), static_cast<unsigned>(t[3])) + kDays1601To1970;
    int64_t ms = ((int64_t{t[4]} * 60 + t[5]) * 60 + t[6]) * 1000 + t[7];
    int64_t ticks = days * kTicksPerDay + ms * 10000;
    p.bits_ = static_cast<uint64_t>(ticks);
    p.text_ = FileTimeToIso8601(ticks);
  }
  return p;
}

PayloadValue PayloadValue::Bytes(const uint8_t* data, size_t size) {
  PayloadValue p;
  p.kind_ = Kind::kBytes;
  p.text_.assign(reinterpret_cast<const char*>(data), size);
  return p;
}

PayloadValue PayloadValue::Array(std::vector<PayloadValue> items) {
  PayloadValue p;
  p.kind_ = Kind::kArray;
  p.items_ = std::move(items);
  return p;
}

PayloadValue PayloadValue::Object(std::vector<PayloadField> fields) {
  PayloadValue p;
  p.kind_ = Kind::kObject;
  p.fields_ = std::move(fields);
  return p;
}

PayloadValue PayloadValue::Error(std::string message) {
  PayloadValue p;
  p.kind_ = Kind::kError;
  p.text_ = std::move(message);
  return p;
}

double PayloadValue::asDouble() const {
  switch (kind_) {
    case Kind::kInt: return static_cast<double>(asInt());
    case Kind::kUInt: return static_cast<double>(bits_);
    case Kind::kDouble: {
      double d;
      std::memcpy(&d, &bits_, sizeof d);
      return d;
    }
    case Kind::kBool: return b_ ? 1 : 0;
    default: return 0;
  }
}

const PayloadValue* PayloadValue::Find(std::string_view name) const {
  for (const auto& f : fields_)
    if (f.name == name) return &f.value;
  return nullptr;
}

std::string PayloadValue::ToString() const {
  std::string out;
  switch (kind_) {
    case Kind::kInt:
      // Two's complement at the encoded width: an int32 -1 is 0xFFFFFFFF.
      if (hex_) AppendHex(width_ && width_ < 8 ? bits_ & ((uint64_t{1} << (8 * width_)) - 1) : bits_, width_ * 2u, &out);
      else out = std::to_string(asInt());
      break;
    case Kind::kUInt:
      if (hex_) AppendHex(bits_, width_ * 2u, &out);
      else out = std::to_string(bits_);
      break;
    case Kind::kDouble: out = FormatDouble(asDouble(), single_); break;
    case Kind::kBool: out = b_ ? "true" : "false"; break;
    case Kind::kString:
    case Kind::kGuid: out = text_; break;
    case Kind::kDateTime: out = text_.empty() ? "<invalid date>" : text_; break;
    case Kind::kBytes:
      for (unsigned char c : text_) {
        char buf[4];
        std::snprintf(buf, sizeof buf, "%02x", c);
        out += buf;
      }
      break;
    case Kind::kArray:
      out.push_back('[');
      for (size_t i = 0; i < items_.size(); ++i) {
        if (i) out += ',';
        out += items_[i].ToString();
      }
      out += "]";
      break;
    case Kind::kObject:
      out.push_back('{');
      for (size_t i = 0; i < fields_.size(); ++i) {
        if (i) out += ',';
        out += fields_[i].name;
        out += '=';
        out += fields_[i].value.ToString();
      }
      out += "}";
      break;
    case Kind::kError:
      out = "<error: ";
      out += text_;
      out += '>';
      break;
  }
  return out;
}

void PayloadValue::ToJson(JsonWriter& w) const {
  constexpr uint64_t kMaxSafe = uint64_t{1} << 53;  // Number.MAX_SAFE_INTEGER + 1
  switch (kind_) {
    case Kind::kInt:
      if (hex_) w.String(ToString());
      else if (asInt() > static_cast<int64_t>(kMaxSafe) || asInt() < -static_cast<int64_t>(kMaxSafe))
        w.String(std::to_string(asInt()));
      else w.Int(asInt());
      break;
    case Kind::kUInt:
      if (hex_) w.String(ToString());
      else if (bits_ > kMaxSafe) w.String(std::to_string(bits_));
      else w.UInt(bits_);
      break;
    case Kind::kDouble: {
      double d = asDouble();
      std::string text = FormatDouble(d, single_);
      int decimals = 0;
      // JsonWriter has no shortest-double output; Fixed at the shortest text's number of
      // decimals prints the same digits (both round v at that decimal position).
      if (std::isfinite(d) && FitsPlainJsonNumber(text, &decimals)) w.Fixed(d, decimals);
      else w.String(text);
      break;
    }
    case Kind::kBool: w.Bool(b_); break;
    case Kind::kString:
    case Kind::kGuid: w.String(text_); break;
    case Kind::kDateTime:
      w.BeginObject().Key("$dateTime");
      if (text_.empty()) w.Null();
      else w.String(text_);
      if (dateTime_ == DateTimeEncoding::kFileTime) {
        w.Key("$fileTime");
        PayloadValue::Int(asInt(), 8).ToJson(w);
      } else {
        w.Key("$systemTime").BeginArray();
        for (int16_t part : systemTime_) w.Int(part);
        w.EndArray();
      }
      w.EndObject();
      break;
    case Kind::kBytes: w.BeginObject().Key("$bytes").String(ToString()).EndObject(); break;
    case Kind::kArray:
      w.BeginArray();
      for (const auto& item : items_) item.ToJson(w);
      w.EndArray();
      break;
    case Kind::kObject:
      w.BeginObject();
      for (const auto& f : fields_) {
        w.Key(f.name);
        f.value.ToJson(w);
      }
      w.EndObject();
      break;
    case Kind::kError: w.BeginObject().Key("$error").String(text_).EndObject(); break;
  }
}

}  // namespace nettrace
