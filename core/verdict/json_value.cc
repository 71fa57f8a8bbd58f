#include "verdict/json_value.h"

#include <cmath>
#include <cstdlib>

namespace nettrace::verdict {

namespace {

class Reader {
 public:
  Reader(std::string_view s, std::string_view what) : s_(s), what_(what) {}

  Status Document(JsonValue* out) {
    NETTRACE_RETURN_IF_ERROR(Value(out, 0));
    Space();
    if (p_ != s_.size()) return Fail("unexpected text after the JSON value");
    return Status();
  }

 private:
  Status Fail(const std::string& why) const {
    size_t line = 1, column = 1;
    for (size_t i = 0; i < p_ && i < s_.size(); ++i) line += s_[i] == '\n', column = s_[i] == '\n' ? 1 : column + 1;
    return Status::Error(ErrorCode::kInvalidArgument, p_,
                         std::string(what_) + ":" + std::to_string(line) + ":" + std::to_string(column) + ": " + why);
  }
  void Space() {
    while (p_ < s_.size() && (s_[p_] == ' ' || s_[p_] == '\n' || s_[p_] == '\r' || s_[p_] == '\t')) ++p_;
  }
  bool Literal(std::string_view word) {
    if (s_.substr(p_, word.size()) != word) return false;
    p_ += word.size();
    return true;
  }

  Status Value(JsonValue* out, int depth) {
    Space();
    if (depth > kMaxDepth) return Fail("nested deeper than " + std::to_string(kMaxDepth) + " levels");
    if (p_ >= s_.size()) return Fail("the document ends where a value was expected");
    out->offset = p_;
    const char c = s_[p_];
    if (c == '{') return Object(out, depth);
    if (c == '[') return Array(out, depth);
    if (c == '"') return out->kind = JsonValue::kString, String(&out->text);
    if (Literal("true")) return out->kind = JsonValue::kBool, out->boolean = true, Status();
    if (Literal("false")) return out->kind = JsonValue::kBool, Status();
    if (Literal("null")) return out->kind = JsonValue::kNull, Status();
    if (c == '-' || (c >= '0' && c <= '9')) return Number(out);
    return Fail(std::string("unexpected character '") + c + "'");
  }

  Status Object(JsonValue* out, int depth) {
    out->kind = JsonValue::kObject;
    ++p_;
    Space();
    if (p_ < s_.size() && s_[p_] == '}') return ++p_, Status();
    for (;;) {
      Space();
      if (p_ >= s_.size() || s_[p_] != '"') return Fail("expected a member name in quotes");
      std::string key;
      NETTRACE_RETURN_IF_ERROR(String(&key));
      Space();
      if (p_ >= s_.size() || s_[p_] != ':') return Fail("expected ':' after a member name");
      ++p_;
      out->members.push_back(JsonMember{std::move(key), JsonValue()});
      NETTRACE_RETURN_IF_ERROR(Value(&out->members.back().value, depth + 1));
      Space();
      if (p_ < s_.size() && s_[p_] == ',') { ++p_; continue; }
      if (p_ < s_.size() && s_[p_] == '}') return ++p_, Status();
      return Fail("expected ',' or '}' in an object");
    }
  }

  Status Array(JsonValue* out, int depth) {
    out->kind = JsonValue::kArray;
    ++p_;
    Space();
    if (p_ < s_.size() && s_[p_] == ']') return ++p_, Status();
    for (;;) {
      out->items.emplace_back();
      NETTRACE_RETURN_IF_ERROR(Value(&out->items.back(), depth + 1));
      Space();
      if (p_ < s_.size() && s_[p_] == ',') { ++p_; continue; }
      if (p_ < s_.size() && s_[p_] == ']') return ++p_, Status();
      return Fail("expected ',' or ']' in an array");
    }
  }

  // RFC 8259 §6: -? int frac? exp?, int without leading zeros.
  Status Number(JsonValue* out) {
    const size_t begin = p_;
    auto digits = [&] {
      const size_t from = p_;
      while (p_ < s_.size() && s_[p_] >= '0' && s_[p_] <= '9') ++p_;
      return p_ > from;
    };
    if (s_[p_] == '-') ++p_;
    if (p_ < s_.size() && s_[p_] == '0') ++p_;
    else if (!digits()) return Fail("a number needs digits");
    if (p_ < s_.size() && s_[p_] == '.' && (++p_, !digits())) return Fail("a number needs digits after '.'");
    if (p_ < s_.size() && (s_[p_] == 'e' || s_[p_] == 'E')) {
      ++p_;
      if (p_ < s_.size() && (s_[p_] == '+' || s_[p_] == '-')) ++p_;
      if (!digits()) return Fail("a number needs digits in its exponent");
    }
    const std::string text(s_.substr(begin, p_ - begin));
    out->kind = JsonValue::kNumber;
    out->number = std::strtod(text.c_str(), nullptr);
    if (!std::isfinite(out->number)) return p_ = begin, Fail("a number out of range");
    return Status();
  }

  static void Utf8(uint32_t cp, std::string* out) {
    if (cp < 0x80) {
      *out += static_cast<char>(cp);
    } else if (cp < 0x800) {
      *out += static_cast<char>(0xC0 | cp >> 6), *out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      *out += static_cast<char>(0xE0 | cp >> 12), *out += static_cast<char>(0x80 | (cp >> 6 & 0x3F));
      *out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
      *out += static_cast<char>(0xF0 | cp >> 18), *out += static_cast<char>(0x80 | (cp >> 12 & 0x3F));
      *out += static_cast<char>(0x80 | (cp >> 6 & 0x3F)), *out += static_cast<char>(0x80 | (cp & 0x3F));
    }
  }

  bool Hex4(uint32_t* v) {
    if (p_ + 4 > s_.size()) return false;
    *v = 0;
    for (int i = 0; i < 4; ++i) {
      const char c = s_[p_++];
      const int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
      if (d < 0) return false;
      *v = *v << 4 | static_cast<uint32_t>(d);
    }
    return true;
  }

  Status String(std::string* out) {
    ++p_;  // the opening quote
    while (p_ < s_.size() && s_[p_] != '"') {
      const char c = s_[p_];
      if (static_cast<unsigned char>(c) < 0x20) return Fail("a control character inside a string");
      ++p_;
      if (c != '\\') {
        *out += c;
        continue;
      }
      if (p_ >= s_.size()) break;
      const char e = s_[p_++];
      uint32_t cp = 0;
      switch (e) {
        case '"': case '\\': case '/': *out += e; break;
        case 'b': *out += '\b'; break;
        case 'f': *out += '\f'; break;
        case 'n': *out += '\n'; break;
        case 'r': *out += '\r'; break;
        case 't': *out += '\t'; break;
        case 'u':
          if (!Hex4(&cp)) return Fail("a \\u escape needs four hex digits");
          if (cp >= 0xD800 && cp < 0xDC00) {  // a surrogate pair: the low half must follow
            uint32_t low = 0;
            if (!Literal("\\u") || !Hex4(&low) || low < 0xDC00 || low > 0xDFFF) return Fail("an unpaired surrogate escape");
            cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
          } else if (cp >= 0xDC00 && cp < 0xE000) {
            return Fail("an unpaired surrogate escape");
          }
          Utf8(cp, out);
          break;
        default: return Fail(std::string("unknown escape '\\") + e + "'");
      }
    }
    if (p_ >= s_.size()) return Fail("a string is not closed");
    ++p_;
    return Status();
  }

  std::string_view s_, what_;
  size_t p_ = 0;
};

}  // namespace

const JsonValue* JsonValue::Find(std::string_view key) const {
  for (const auto& [k, v] : members)
    if (k == key) return &v;
  return nullptr;
}

double JsonValue::Number(std::string_view key, double otherwise) const {
  const JsonValue* v = Find(key);
  return v && v->kind == kNumber ? v->number : otherwise;
}

const std::vector<JsonValue>& JsonValue::Items(std::string_view key) const {
  static const std::vector<JsonValue> kNone;
  const JsonValue* v = Find(key);
  return v && v->kind == kArray ? v->items : kNone;
}

Status ParseJson(std::string_view text, std::string_view what, JsonValue* out) {
  *out = JsonValue();
  return Reader(text, what).Document(out);
}

const char* JsonKindName(JsonValue::Kind kind) {
  switch (kind) {
    case JsonValue::kNull: return "null";
    case JsonValue::kBool: return "a boolean";
    case JsonValue::kNumber: return "a number";
    case JsonValue::kString: return "a string";
    case JsonValue::kArray: return "an array";
    case JsonValue::kObject: return "an object";
  }
  return "a value";
}

}  // namespace nettrace::verdict
