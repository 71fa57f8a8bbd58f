// core/export/profile — the string table pprof and OTLP profiles both reference by index:
// entry 0 is "" (both formats require it), each distinct string once, in first-use order.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace nettrace {

class ProfileStringTable {
 public:
  ProfileStringTable() { Intern(""); }
  int32_t Intern(const std::string& s) {
    auto [it, added] = index_.emplace(s, static_cast<int32_t>(strings_.size()));
    if (added) strings_.push_back(s);
    return it->second;
  }
  // The index of a string interned before (0, "", for one that was not).
  int32_t Of(const std::string& s) const {
    const auto it = index_.find(s);
    return it == index_.end() ? 0 : it->second;
  }
  const std::vector<std::string>& strings() const { return strings_; }

 private:
  std::vector<std::string> strings_;
  std::unordered_map<std::string, int32_t> index_;
};

}  // namespace nettrace
