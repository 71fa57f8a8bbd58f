#include "analysis/event_index.h"

#include "base/flat_u64_map.h"

namespace nettrace {

EventIndex::EventIndex(const EventStore& store) : storeRows_(store.size()) {
  // Group ids by first appearance; consecutive rows mostly share their group (a thread's
  // bursts), so the last one is tried before the map.
  FlatU64Map ids;
  std::vector<uint32_t> count;
  auto groupOf = [&](size_t row, uint64_t* lastKey, uint32_t* lastId) {
    const uint64_t key = (uint64_t{store.type(row).value} << 16) | store.thread(row).value;
    if (key == *lastKey) return *lastId;
    const auto [id, added] = ids.Emplace(key, static_cast<uint32_t>(groups_.size()));
    if (added) {
      groups_.push_back({store.type(row).value, store.thread(row).value, 0, 0});
      count.push_back(0);
    }
    *lastKey = key, *lastId = id;
    return id;
  };
  uint64_t lastKey = ~uint64_t{0};
  uint32_t lastId = 0;
  for (size_t row = 0; row < storeRows_; ++row) ++count[groupOf(row, &lastKey, &lastId)];
  uint32_t at = 0;
  for (size_t g = 0; g < groups_.size(); ++g) {
    groups_[g].begin = groups_[g].end = at;
    at += count[g];
  }
  rows_.resize(storeRows_);
  lastKey = ~uint64_t{0};
  for (size_t row = 0; row < storeRows_; ++row) rows_[groups_[groupOf(row, &lastKey, &lastId)].end++] = static_cast<uint32_t>(row);
}

}  // namespace nettrace
