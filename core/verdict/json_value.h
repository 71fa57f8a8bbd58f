// core/verdict — a JSON document read whole into values: what a budget file is, and what the
// engine's own view documents (`nettrace gc`, `exceptions`, …) are read back as when a budget
// measures them. core/api's reader takes one flat object only (a request); a budget file nests
// (budgets, each with its query), so this one keeps the tree. Strict RFC 8259: one value,
// no comments, no trailing commas; a fault is an invalid-argument error naming the byte
// offset, its line and column. Depth is capped (kMaxDepth), so hostile nesting cannot
// exhaust the stack.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/status.h"

namespace nettrace::verdict {

struct JsonMember;

struct JsonValue {
  enum Kind : uint8_t { kNull, kBool, kNumber, kString, kArray, kObject } kind = kNull;
  bool boolean = false;
  double number = 0;
  std::string text;                                     // kString
  std::vector<JsonValue> items;                         // kArray
  std::vector<JsonMember> members;                      // kObject, in document order
  uint64_t offset = 0;                                  // where the value starts in the document

  // The member named `key` (the first, if repeated), or nullptr (also when not an object).
  const JsonValue* Find(std::string_view key) const;
  // The number at `key`, or `otherwise` when it is absent or not a number.
  double Number(std::string_view key, double otherwise = 0) const;
  // The array at `key`, or an empty one.
  const std::vector<JsonValue>& Items(std::string_view key) const;
};

// An object's member. Not a std::pair: pair's constructors ask whether JsonValue is default
// constructible while JsonValue is still being defined, which clang refuses.
struct JsonMember {
  std::string key;
  JsonValue value;
};

inline constexpr int kMaxDepth = 64;

// Parses `text` as one JSON value. `what` names the document in error messages
// ("budgets.json"); errors say "what:line:column: …" and carry the byte offset.
Status ParseJson(std::string_view text, std::string_view what, JsonValue* out);

// A kind's name as a budget file's errors use it ("an object", "a number").
const char* JsonKindName(JsonValue::Kind kind);

}  // namespace nettrace::verdict
