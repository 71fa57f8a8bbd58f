// core/dataset — a JSON path lookup over one document: a scanner that skips values it does
// not descend into (strings with their escapes, nested arrays and objects) and stops at the
// first malformed byte. RFC 8259 grammar; no allocation but the decoded string.
#include "dataset/summary_fields.h"

#include <cstdlib>

#include "base/civil_time.h"

namespace nettrace::dataset {
namespace {

class Scanner {
 public:
  explicit Scanner(std::string_view s) : s_(s) {}
  void Space() {
    while (at_ < s_.size() && (s_[at_] == ' ' || s_[at_] == '\n' || s_[at_] == '\r' || s_[at_] == '\t')) ++at_;
  }
  bool Eat(char c) {
    Space();
    if (at_ < s_.size() && s_[at_] == c) {
      ++at_;
      return true;
    }
    return false;
  }
  // A string token starting here (the quotes included), or empty when there is none.
  std::string_view String() {
    Space();
    if (at_ >= s_.size() || s_[at_] != '"') return {};
    const size_t begin = at_++;
    while (at_ < s_.size() && s_[at_] != '"') at_ += s_[at_] == '\\' ? 2 : 1;
    if (at_ >= s_.size()) return {};
    return s_.substr(begin, ++at_ - begin);
  }
  // Any value: its text, or empty when malformed.
  std::string_view Value() {
    Space();
    if (at_ >= s_.size()) return {};
    const size_t begin = at_;
    const char c = s_[at_];
    if (c == '"') return String();
    if (c == '{' || c == '[') {
      const char close = c == '{' ? '}' : ']';
      ++at_;
      if (Eat(close)) return s_.substr(begin, at_ - begin);
      do {
        if (c == '{' && (String().empty() || !Eat(':'))) return {};
        if (Value().empty()) return {};
      } while (Eat(','));
      return Eat(close) ? s_.substr(begin, at_ - begin) : std::string_view{};
    }
    while (at_ < s_.size() && s_[at_] != ',' && s_[at_] != '}' && s_[at_] != ']' && s_[at_] != ' ' &&
           s_[at_] != '\n' && s_[at_] != '\r' && s_[at_] != '\t') {
      ++at_;
    }
    return s_.substr(begin, at_ - begin);
  }
  // Inside an object just opened: moves to the value of `key`; false when absent.
  bool Member(std::string_view key) {
    if (Eat('}')) return false;
    do {
      const std::string_view name = String();
      if (name.size() < 2 || !Eat(':')) return false;
      if (name.substr(1, name.size() - 2) == key) return true;
      if (Value().empty()) return false;
    } while (Eat(','));
    return false;
  }

 private:
  std::string_view s_;
  size_t at_ = 0;
};

void PutUtf8(std::string* out, uint32_t cp) {
  if (cp < 0x80) {
    out->push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out->push_back(static_cast<char>(0xC0 | cp >> 6));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out->push_back(static_cast<char>(0xE0 | cp >> 12));
    out->push_back(static_cast<char>(0x80 | (cp >> 6 & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

bool Digits(std::string_view s, size_t at, size_t n, int64_t* v) {
  *v = 0;
  for (size_t i = at; i < at + n; ++i) {
    if (i >= s.size() || s[i] < '0' || s[i] > '9') return false;
    *v = *v * 10 + (s[i] - '0');
  }
  return true;
}

}  // namespace

std::optional<std::string_view> JsonAt(std::string_view json, std::initializer_list<std::string_view> path) {
  Scanner s(json);
  for (std::string_view key : path) {
    if (!s.Eat('{') || !s.Member(key)) return std::nullopt;
  }
  const std::string_view v = s.Value();
  if (v.empty()) return std::nullopt;
  return v;
}

std::optional<int64_t> JsonInt(std::string_view json, std::initializer_list<std::string_view> path) {
  const auto v = JsonAt(json, path);
  if (!v) return std::nullopt;
  const std::string text(*v);
  char* end = nullptr;
  const long long n = std::strtoll(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0') return std::nullopt;
  return static_cast<int64_t>(n);
}

// Escapes decoded as RFC 8259 §7 (a \u outside the BMP arrives as a surrogate pair and is
// written as two 3-byte sequences; the summary's own strings never hold one).
std::optional<std::string> JsonString(std::string_view json, std::initializer_list<std::string_view> path) {
  const auto v = JsonAt(json, path);
  if (!v || v->size() < 2 || v->front() != '"') return std::nullopt;
  std::string out;
  for (size_t i = 1; i + 1 < v->size(); ++i) {
    const char c = (*v)[i];
    if (c != '\\') {
      out.push_back(c);
      continue;
    }
    const char e = (*v)[++i];
    switch (e) {
      case 'n': out.push_back('\n'); break;
      case 't': out.push_back('\t'); break;
      case 'r': out.push_back('\r'); break;
      case 'b': out.push_back('\b'); break;
      case 'f': out.push_back('\f'); break;
      case 'u': {
        const std::string hex(v->substr(i + 1, 4));
        char* end = nullptr;
        const unsigned long cp = std::strtoul(hex.c_str(), &end, 16);
        if (hex.size() != 4 || *end != '\0') return std::nullopt;
        PutUtf8(&out, static_cast<uint32_t>(cp));
        i += 4;
        break;
      }
      default: out.push_back(e);  // \" \\ \/
    }
  }
  return out;
}

std::optional<bool> JsonBool(std::string_view json, std::initializer_list<std::string_view> path) {
  const auto v = JsonAt(json, path);
  if (v == "true") return true;
  if (v == "false") return false;
  return std::nullopt;
}

std::optional<int64_t> IsoUtcMicros(std::string_view t) {
  int64_t y, mo, d, h, mi, s;
  if (t.size() < 20 || t[4] != '-' || t[7] != '-' || t[10] != 'T' || t[13] != ':' || t[16] != ':' || t.back() != 'Z' ||
      !Digits(t, 0, 4, &y) || !Digits(t, 5, 2, &mo) || !Digits(t, 8, 2, &d) || !Digits(t, 11, 2, &h) ||
      !Digits(t, 14, 2, &mi) || !Digits(t, 17, 2, &s) || mo < 1 || mo > 12 || d < 1 || d > 31) {
    return std::nullopt;
  }
  int64_t micros = 0;
  if (t.size() > 20) {
    if (t[19] != '.') return std::nullopt;
    const size_t digits = t.size() - 21;
    if (digits == 0) return std::nullopt;
    for (size_t i = 20; i + 1 < t.size(); ++i) {
      if (t[i] < '0' || t[i] > '9') return std::nullopt;
    }
    for (size_t i = 0; i < 6; ++i) micros = micros * 10 + (i < digits ? t[20 + i] - '0' : 0);
  }
  const int64_t days = DaysFromCivil(y, static_cast<unsigned>(mo), static_cast<unsigned>(d));
  return ((days * 24 + h) * 60 + mi) * 60 * 1000000 + s * 1000000 + micros;
}

}  // namespace nettrace::dataset

namespace nettrace::dataset {

std::optional<std::string> NameValueArrayAsObject(std::string_view array) {
  Scanner s(array);
  if (!s.Eat('[')) return std::nullopt;
  std::string out = "{";
  if (!s.Eat(']')) {
    do {
      const std::string_view element = s.Value();
      const auto name = JsonAt(element, {"name"});
      const auto value = JsonAt(element, {"value"});
      if (!name || !value || name->empty() || (*name)[0] != '"') return std::nullopt;
      if (out.size() > 1) out += ',';
      out.append(*name).append(":").append(*value);
    } while (s.Eat(','));
    if (!s.Eat(']')) return std::nullopt;
  }
  return out + "}";
}

}  // namespace nettrace::dataset
