#include "base/json_writer.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace nettrace {

namespace {

// Length of a valid UTF-8 sequence starting at s[i], or 0 if invalid.
size_t Utf8SequenceLength(std::string_view s, size_t i) {
  auto b = [&](size_t k) { return static_cast<uint8_t>(s[k]); };
  uint8_t c = b(i);
  size_t n;
  uint32_t cp;
  if (c < 0x80) return 1;
  if ((c & 0xE0) == 0xC0) n = 2, cp = c & 0x1F;
  else if ((c & 0xF0) == 0xE0) n = 3, cp = c & 0x0F;
  else if ((c & 0xF8) == 0xF0) n = 4, cp = c & 0x07;
  else return 0;
  if (i + n > s.size()) return 0;
  for (size_t k = 1; k < n; ++k) {
    if ((b(i + k) & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (b(i + k) & 0x3F);
  }
  // Overlong forms, surrogates and values beyond Unicode are invalid.
  if ((n == 2 && cp < 0x80) || (n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) || cp > 0x10FFFF ||
      (cp >= 0xD800 && cp <= 0xDFFF))
    return 0;
  return n;
}

// Printable ASCII other than the two characters JSON escapes.
constexpr bool IsPlainJsonChar(unsigned char c) { return c >= 0x20 && c < 0x7F && c != '"' && c != '\\'; }

}  // namespace

void AppendJsonString(std::string_view s, std::string* out) {
  out->push_back('"');
  for (size_t i = 0; i < s.size();) {
    // A run of printable ASCII (most of any name) is appended at once: a push_back per
    // character was a thirtieth of summarising a small trace.
    size_t plain = i;
    while (plain < s.size() && IsPlainJsonChar(static_cast<unsigned char>(s[plain]))) ++plain;
    if (plain != i) {
      out->append(s.data() + i, plain - i);
      i = plain;
      continue;
    }
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c >= 0x80) {
      size_t n = Utf8SequenceLength(s, i);
      if (n == 0) {
        out->append("\xEF\xBF\xBD");  // U+FFFD
        ++i;
      } else {
        out->append(s.substr(i, n));
        i += n;
      }
      continue;
    }
    switch (c) {
      case '"': out->append("\\\""); break;
      case '\\': out->append("\\\\"); break;
      case '\n': out->append("\\n"); break;
      case '\r': out->append("\\r"); break;
      case '\t': out->append("\\t"); break;
      default:
        if (c < 0x20 || c == 0x7F) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out->append(buf);
        } else {
          out->push_back(static_cast<char>(c));
        }
    }
    ++i;
  }
  out->push_back('"');
}

void JsonWriter::Separator() {
  if (afterKey_) {
    afterKey_ = false;
    return;
  }
  if (!hasValue_.empty()) {
    if (hasValue_.back()) out_.push_back(',');
    hasValue_.back() = true;
  }
}

JsonWriter& JsonWriter::BeginObject() {
  Separator();
  out_.push_back('{');
  hasValue_.push_back(false);
  return *this;
}
JsonWriter& JsonWriter::EndObject() {
  out_.push_back('}');
  hasValue_.pop_back();
  MaybeSpill();
  return *this;
}
JsonWriter& JsonWriter::BeginArray() {
  Separator();
  out_.push_back('[');
  hasValue_.push_back(false);
  return *this;
}
JsonWriter& JsonWriter::EndArray() {
  out_.push_back(']');
  hasValue_.pop_back();
  MaybeSpill();
  return *this;
}
JsonWriter& JsonWriter::Key(std::string_view key) {
  Separator();
  AppendJsonString(key, &out_);
  out_.push_back(':');
  afterKey_ = true;
  return *this;
}
JsonWriter& JsonWriter::String(std::string_view s) {
  Separator();
  AppendJsonString(s, &out_);
  return *this;
}
JsonWriter& JsonWriter::Int(int64_t v) {
  Separator();
  out_.append(std::to_string(v));
  return *this;
}
JsonWriter& JsonWriter::UInt(uint64_t v) {
  Separator();
  out_.append(std::to_string(v));
  return *this;
}
JsonWriter& JsonWriter::Fixed(double v, int decimals) {
  Separator();
  if (!std::isfinite(v)) {
    out_.append("null");
    return *this;
  }
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  out_.append(buf);
  return *this;
}
JsonWriter& JsonWriter::Exact(double v) {
  Separator();
  if (!std::isfinite(v)) {
    out_.append("null");
    return *this;
  }
  char buf[64];
  for (int digits = 15; digits <= 17; ++digits) {
    std::snprintf(buf, sizeof buf, "%.*g", digits, v);
    if (std::strtod(buf, nullptr) == v) break;
  }
  out_.append(buf);
  return *this;
}
JsonWriter& JsonWriter::Raw(std::string_view json) {
  Separator();
  out_.append(json);
  return *this;
}
JsonWriter& JsonWriter::Bool(bool v) {
  Separator();
  out_.append(v ? "true" : "false");
  return *this;
}
JsonWriter& JsonWriter::Null() {
  Separator();
  out_.append("null");
  return *this;
}

}  // namespace nettrace
