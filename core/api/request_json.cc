#include "api/request_json.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>

namespace nettrace::api {

namespace {

class Reader {
 public:
  explicit Reader(std::string_view s) : s_(s) {}

  Status Error(const char* what) const {
    return Status::Error(ErrorCode::kInvalidArgument, kNoOffset,
                         std::string("request JSON: ") + what + " at character " + std::to_string(pos_));
  }
  void Space() {
    while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\n' || s_[pos_] == '\r' || s_[pos_] == '\t')) ++pos_;
  }
  bool Eat(char c) {
    Space();
    if (pos_ < s_.size() && s_[pos_] == c) return ++pos_, true;
    return false;
  }
  char Peek() {
    Space();
    return pos_ < s_.size() ? s_[pos_] : '\0';
  }

  // A string literal at pos_ (after its opening quote was seen by Peek) → UTF-8.
  bool String(std::string* out) {
    if (!Eat('"')) return false;
    while (pos_ < s_.size()) {
      const char c = s_[pos_++];
      if (c == '"') return true;
      if (c != '\\') {
        *out += c;
        continue;
      }
      if (pos_ >= s_.size()) return false;
      const char e = s_[pos_++];
      switch (e) {
        case 'b': *out += '\b'; break;
        case 'f': *out += '\f'; break;
        case 'n': *out += '\n'; break;
        case 'r': *out += '\r'; break;
        case 't': *out += '\t'; break;
        case 'u': {
          uint32_t cp = 0;
          if (!Hex4(&cp)) return false;
          // A surrogate pair is one code point.
          if (cp >= 0xD800 && cp < 0xDC00 && s_.substr(pos_, 2) == "\\u") {
            pos_ += 2;
            uint32_t low = 0;
            if (!Hex4(&low)) return false;
            cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
          }
          Utf8(cp, out);
          break;
        }
        default: *out += e;  // \" \\ \/
      }
    }
    return false;
  }

  // Skips a value of any kind (nested objects and arrays included).
  bool Skip() {
    const char c = Peek();
    if (c == '"') {
      std::string ignored;
      return String(&ignored);
    }
    if (c == '{' || c == '[') {
      ++pos_;
      const char close = c == '{' ? '}' : ']';
      if (Eat(close)) return true;
      do {
        if (c == '{') {
          std::string key;
          if (!String(&key) || !Eat(':')) return false;
        }
        if (!Skip()) return false;
      } while (Eat(','));
      return Eat(close);
    }
    const size_t start = pos_;
    while (pos_ < s_.size() && s_[pos_] != ',' && s_[pos_] != '}' && s_[pos_] != ']') ++pos_;
    return pos_ > start;
  }

  // One member's value: the kinds an option can take, anything else skipped as kOther.
  bool Value(JsonMember* m) {
    const char c = Peek();
    if (c == '"') return m->kind = JsonMember::kString, String(&m->text);
    if (c == '{' || c == '[') return m->kind = JsonMember::kOther, Skip();
    const size_t start = pos_;
    if (!Skip()) return false;
    std::string word(s_.substr(start, pos_ - start));
    while (!word.empty() && (word.back() == ' ' || word.back() == '\n' || word.back() == '\r' || word.back() == '\t'))
      word.pop_back();
    if (word == "true" || word == "false") return m->kind = JsonMember::kBool, m->flag = word == "true", true;
    if (word == "null") return m->kind = JsonMember::kNull, true;
    char* end = nullptr;
    m->number = std::strtod(word.c_str(), &end);
    m->text = word;
    m->kind = JsonMember::kNumber;
    return *end == '\0';
  }

 private:
  bool Hex4(uint32_t* out) {
    if (pos_ + 4 > s_.size()) return false;
    for (int i = 0; i < 4; ++i) {
      const char h = s_[pos_++];
      const int d = h >= '0' && h <= '9' ? h - '0' : h >= 'a' && h <= 'f' ? h - 'a' + 10 : h >= 'A' && h <= 'F' ? h - 'A' + 10 : -1;
      if (d < 0) return false;
      *out = *out * 16 + static_cast<uint32_t>(d);
    }
    return true;
  }
  static void Utf8(uint32_t cp, std::string* out) {
    if (cp < 0x80) {
      *out += static_cast<char>(cp);
    } else if (cp < 0x800) {
      *out += static_cast<char>(0xC0 | (cp >> 6));
      *out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      *out += static_cast<char>(0xE0 | (cp >> 12));
      *out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      *out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
      *out += static_cast<char>(0xF0 | (cp >> 18));
      *out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
      *out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      *out += static_cast<char>(0x80 | (cp & 0x3F));
    }
  }

  std::string_view s_;
  size_t pos_ = 0;
};

}  // namespace

Status ParseFlatJsonObject(std::string_view json, std::vector<JsonMember>* members) {
  Reader r(json);
  if (!r.Eat('{')) return r.Error("expected an object");
  if (r.Eat('}')) return Status();
  do {
    JsonMember m;
    if (!r.String(&m.key)) return r.Error("expected a member name");
    if (!r.Eat(':')) return r.Error("expected ':'");
    if (!r.Value(&m)) return r.Error("bad value");
    members->push_back(std::move(m));
  } while (r.Eat(','));
  if (!r.Eat('}')) return r.Error("expected '}'");
  return Status();
}

std::string JsonNumber(double v) {
  char buf[32];
  // Whole numbers as integers ("300", not "3e+02"), as JavaScript writes them.
  if (v == static_cast<double>(static_cast<int64_t>(v)) && v > -9007199254740992.0 && v < 9007199254740992.0) {
    std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(v));
    return buf;
  }
  for (int precision = 1; precision <= 17; ++precision) {
    std::snprintf(buf, sizeof buf, "%.*g", precision, v);
    if (std::strtod(buf, nullptr) == v) break;
  }
  return buf;
}

}  // namespace nettrace::api
