// core/model — the current region's file ids (stack ids, label list ids) mapped to the
// table indexes interned for them. Writers number them densely from 1 within a region, and
// every event with a stack asks: a vector answers those with one load; ids beyond kDense
// (hostile input only) go to a map, so memory stays bounded whatever the ids.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

namespace nettrace {

class RegionIdMap {
 public:
  void Set(uint32_t id, uint32_t value) {
    if (id >= kDense) {
      sparse_[id] = value;
      return;
    }
    if (id >= dense_.size()) dense_.resize(size_t{id} + 1, 0);
    dense_[id] = value;
  }
  // 0 for an id the region did not define (the reference tracker counts those).
  uint32_t Get(uint32_t id) const {
    if (id < dense_.size()) return dense_[id];
    if (id < kDense || sparse_.empty()) return 0;
    auto it = sparse_.find(id);
    return it == sparse_.end() ? 0 : it->second;
  }
  // At a sequence point: ids restart (the vector keeps its capacity for the next region).
  void Clear() {
    dense_.clear();
    sparse_.clear();
  }

 private:
  static constexpr uint32_t kDense = uint32_t{1} << 20;  // 4 MiB of entries at most
  std::vector<uint32_t> dense_;
  std::unordered_map<uint32_t, uint32_t> sparse_;
};

}  // namespace nettrace
