// core/api — the small JSON reading the request parser needs: one flat object of strings,
// numbers, booleans and nulls (nested values are skipped), and numbers written back the
// shortest way that reads back exactly (as JavaScript writes them).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"

namespace nettrace::api {

struct JsonMember {
  enum Kind { kString, kNumber, kBool, kNull, kOther } kind = kNull;
  std::string key;
  std::string text;  // kString: the decoded string; kNumber: the number as written
  double number = 0;
  bool flag = false;
};

// The members of a JSON object, in order. A malformed document gives the members before
// the fault and an invalid-argument error naming the position.
Status ParseFlatJsonObject(std::string_view json, std::vector<JsonMember>* members);

// The shortest decimal form of v that reads back as v ("300", "12.5", "1e+21").
std::string JsonNumber(double v);

}  // namespace nettrace::api
