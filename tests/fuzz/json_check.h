// tests/fuzz — a strict JSON validator for the fuzzers' oracle: every JSON document the
// facade returns is handed to JSON.parse in the browser, so hostile input must never make
// it emit invalid JSON (bad UTF-8, raw control characters, NaN/Infinity, unbalanced
// brackets). Validates RFC 8259 syntax and UTF-8 (no overlongs, surrogates or code points
// above U+10FFFF); builds nothing, recursion bounded.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace nettrace::fuzz {

// The length of the well-formed UTF-8 sequence at the start of s, 0 if there is none
// (RFC 3629 §4: no overlongs, no UTF-16 surrogates, nothing above U+10FFFF).
inline size_t Utf8SequenceLength(std::string_view s) {
  auto at = [&](size_t i) { return i < s.size() ? static_cast<uint8_t>(s[i]) : uint8_t{0}; };
  const uint8_t c = at(0);
  if (s.empty()) return 0;
  if (c < 0x80) return 1;
  const size_t n = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC2 ? 2 : 0;
  if (n == 0 || c > 0xF4) return 0;
  uint8_t lo = 0x80, hi = 0xBF;  // the allowed range of the second byte
  if (c == 0xE0) lo = 0xA0;
  if (c == 0xED) hi = 0x9F;
  if (c == 0xF0) lo = 0x90;
  if (c == 0xF4) hi = 0x8F;
  if (at(1) < lo || at(1) > hi) return 0;
  for (size_t k = 2; k < n; ++k)
    if ((at(k) & 0xC0) != 0x80) return 0;
  return n;
}

inline bool IsValidUtf8(std::string_view s) {
  for (size_t i = 0; i < s.size();) {
    const size_t n = Utf8SequenceLength(s.substr(i));
    if (n == 0) return false;
    i += n;
  }
  return true;
}

class JsonCheck {
 public:
  explicit JsonCheck(std::string_view s) : s_(s) {}
  // True when the whole text is one valid JSON value (whitespace around allowed).
  bool Valid() {
    Ws();
    if (!Value(0)) return false;
    Ws();
    return p_ == s_.size();
  }

 private:
  static constexpr int kMaxDepth = 512;

  uint8_t At(size_t i) const { return i < s_.size() ? static_cast<uint8_t>(s_[i]) : 0; }
  void Ws() {
    while (p_ < s_.size() && (s_[p_] == ' ' || s_[p_] == '\n' || s_[p_] == '\r' || s_[p_] == '\t')) ++p_;
  }
  bool Lit(std::string_view w) {
    if (s_.substr(p_, w.size()) != w) return false;
    p_ += w.size();
    return true;
  }
  bool Value(int depth) {
    if (depth > kMaxDepth || p_ >= s_.size()) return false;
    switch (s_[p_]) {
      case '{': return Container(depth, '}', true);
      case '[': return Container(depth, ']', false);
      case '"': return String();
      case 't': return Lit("true");
      case 'f': return Lit("false");
      case 'n': return Lit("null");
      default: return Number();
    }
  }
  bool Container(int depth, char close, bool object) {
    ++p_;
    Ws();
    if (At(p_) == static_cast<uint8_t>(close)) return ++p_, true;
    for (;;) {
      if (object) {
        if (At(p_) != '"' || !String()) return false;
        Ws();
        if (At(p_) != ':') return false;
        ++p_;
        Ws();
      }
      if (!Value(depth + 1)) return false;
      Ws();
      if (At(p_) == ',') {
        ++p_;
        Ws();
        continue;
      }
      if (At(p_) != static_cast<uint8_t>(close)) return false;
      ++p_;
      return true;
    }
  }
  bool Digits() {
    size_t start = p_;
    while (At(p_) >= '0' && At(p_) <= '9') ++p_;
    return p_ > start;
  }
  bool Number() {
    if (At(p_) == '-') ++p_;
    if (At(p_) == '0') {
      ++p_;
    } else if (!Digits()) {
      return false;
    }
    if (At(p_) == '.') {
      ++p_;
      if (!Digits()) return false;
    }
    if (At(p_) == 'e' || At(p_) == 'E') {
      ++p_;
      if (At(p_) == '+' || At(p_) == '-') ++p_;
      if (!Digits()) return false;
    }
    return true;
  }
  static bool Hex(uint8_t c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }
  bool String() {
    ++p_;  // the opening quote
    while (p_ < s_.size()) {
      const uint8_t c = At(p_);
      if (c == '"') return ++p_, true;
      if (c < 0x20) return false;
      if (c == '\\') {
        const uint8_t e = At(p_ + 1);
        if (e == 'u') {
          for (size_t k = 2; k < 6; ++k)
            if (!Hex(At(p_ + k))) return false;
          p_ += 6;
        } else if (e == '"' || e == '\\' || e == '/' || e == 'b' || e == 'f' || e == 'n' || e == 'r' || e == 't') {
          p_ += 2;
        } else {
          return false;
        }
        continue;
      }
      if (c < 0x80) {
        ++p_;
        continue;
      }
      if (!Utf8Sequence()) return false;
    }
    return false;  // unterminated
  }
  bool Utf8Sequence() {
    const size_t n = Utf8SequenceLength(s_.substr(p_));
    p_ += n;
    return n != 0;
  }

  std::string_view s_;
  size_t p_ = 0;
};

inline bool IsValidJson(std::string_view s) { return JsonCheck(s).Valid(); }

}  // namespace nettrace::fuzz
