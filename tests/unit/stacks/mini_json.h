// A small strict JSON parser for tests of the engine's JSON outputs (speedscope, Chrome
// trace, flame graphs): enough to check that a document is valid JSON and to walk it.
#pragma once

#include <cctype>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace nettrace::test {

struct Json {
  enum Kind { kNull, kBool, kNumber, kString, kArray, kObject } kind = kNull;
  bool boolean = false;
  double number = 0;
  std::string string;
  std::vector<Json> array;
  std::map<std::string, Json> object;
  bool Has(const std::string& k) const { return kind == kObject && object.count(k); }
  const Json& operator[](const std::string& k) const { return object.at(k); }
  const Json& operator[](size_t i) const { return array.at(i); }
};

class JsonParser {
 public:
  explicit JsonParser(const std::string& text) : s_(text) {}
  // False on any syntax error or trailing garbage.
  bool Parse(Json* out) {
    if (!Value(out, 0)) return false;
    Ws();
    return p_ == s_.size();
  }

 private:
  void Ws() {
    while (p_ < s_.size() && (s_[p_] == ' ' || s_[p_] == '\n' || s_[p_] == '\r' || s_[p_] == '\t')) ++p_;
  }
  bool Lit(const char* w) {
    size_t n = std::char_traits<char>::length(w);
    if (s_.compare(p_, n, w) != 0) return false;
    p_ += n;
    return true;
  }
  bool Str(std::string* out) {
    if (p_ >= s_.size() || s_[p_] != '"') return false;
    ++p_;
    while (p_ < s_.size() && s_[p_] != '"') {
      char c = s_[p_++];
      if (static_cast<unsigned char>(c) < 0x20) return false;
      if (c != '\\') {
        *out += c;
        continue;
      }
      if (p_ >= s_.size()) return false;
      char e = s_[p_++];
      switch (e) {
        case '"': case '\\': case '/': *out += e; break;
        case 'b': *out += '\b'; break;
        case 'f': *out += '\f'; break;
        case 'n': *out += '\n'; break;
        case 'r': *out += '\r'; break;
        case 't': *out += '\t'; break;
        case 'u':
          if (p_ + 4 > s_.size()) return false;
          for (int i = 0; i < 4; ++i)
            if (!std::isxdigit(static_cast<unsigned char>(s_[p_ + i]))) return false;
          *out += '?';  // the tests do not look inside escaped code points
          p_ += 4;
          break;
        default: return false;
      }
    }
    if (p_ >= s_.size()) return false;
    ++p_;
    return true;
  }
  bool Value(Json* v, int depth) {
    if (depth > 200) return false;
    Ws();
    if (p_ >= s_.size()) return false;
    char c = s_[p_];
    if (c == '{') {
      v->kind = Json::kObject;
      ++p_;
      Ws();
      if (p_ < s_.size() && s_[p_] == '}') return ++p_, true;
      for (;;) {
        Ws();
        std::string key;
        if (!Str(&key)) return false;
        Ws();
        if (p_ >= s_.size() || s_[p_++] != ':') return false;
        Json child;
        if (!Value(&child, depth + 1) || v->object.count(key)) return false;  // no duplicate keys
        v->object.emplace(std::move(key), std::move(child));
        Ws();
        if (p_ >= s_.size()) return false;
        if (s_[p_] == ',') { ++p_; continue; }
        if (s_[p_] == '}') return ++p_, true;
        return false;
      }
    }
    if (c == '[') {
      v->kind = Json::kArray;
      ++p_;
      Ws();
      if (p_ < s_.size() && s_[p_] == ']') return ++p_, true;
      for (;;) {
        Json child;
        if (!Value(&child, depth + 1)) return false;
        v->array.push_back(std::move(child));
        Ws();
        if (p_ >= s_.size()) return false;
        if (s_[p_] == ',') { ++p_; continue; }
        if (s_[p_] == ']') return ++p_, true;
        return false;
      }
    }
    if (c == '"') return v->kind = Json::kString, Str(&v->string);
    if (Lit("true")) return v->kind = Json::kBool, v->boolean = true, true;
    if (Lit("false")) return v->kind = Json::kBool, true;
    if (Lit("null")) return v->kind = Json::kNull, true;
    // Numbers: -?digits(.digits)?([eE][+-]?digits)?
    size_t start = p_;
    if (s_[p_] == '-') ++p_;
    auto digits = [&] {
      size_t b = p_;
      while (p_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[p_]))) ++p_;
      return p_ > b;
    };
    if (!digits()) return false;
    if (p_ < s_.size() && s_[p_] == '.' && (++p_, !digits())) return false;
    if (p_ < s_.size() && (s_[p_] == 'e' || s_[p_] == 'E')) {
      ++p_;
      if (p_ < s_.size() && (s_[p_] == '+' || s_[p_] == '-')) ++p_;
      if (!digits()) return false;
    }
    v->kind = Json::kNumber;
    v->number = std::strtod(s_.substr(start, p_ - start).c_str(), nullptr);
    return true;
  }
  const std::string& s_;
  size_t p_ = 0;
};

inline bool ParseJson(const std::string& text, Json* out) {
  *out = Json{};
  return JsonParser(text).Parse(out);
}

}  // namespace nettrace::test
