#include "analysis/query/event_index.h"

#include "base/flat_u64_map.h"

namespace nettrace {

EventIndex::EventIndex(const EventStore& store, size_t types, size_t threads) : storeRows_(store.size()) {
  // Group ids by first appearance: from a table of every (type, thread) when it is small,
  // else from a map (a row beyond the counts given goes to the map too).
  const bool dense = types * threads <= kDenseGroupsMax;
  std::vector<uint32_t> slots(dense ? types * threads : 0, UINT32_MAX);
  FlatU64Map ids;
  std::vector<uint32_t> count;
  auto added = [&](uint16_t type, uint16_t thread) {
    groups_.push_back({type, thread, 0, 0});
    count.push_back(0);
    return static_cast<uint32_t>(groups_.size() - 1);
  };
  // Out of line, so that the look-up below is inlined into the passes over the rows.
  auto slowGroupOf = [&](uint16_t type, uint16_t thread) __attribute__((noinline)) {
    if (dense && type < types && thread < threads) return slots[type * threads + thread] = added(type, thread);
    const auto [id, fresh] = ids.Emplace((uint64_t{type} << 16) | thread, static_cast<uint32_t>(groups_.size()));
    return fresh ? added(type, thread) : id;
  };
  // The table's look-up: a few instructions a row.
  auto groupOf = [&](size_t row) __attribute__((always_inline)) {
    const uint16_t type = store.type(row).value, thread = store.thread(row).value;
    if (dense && type < types && thread < threads) {
      const uint32_t slot = slots[type * threads + thread];
      if (slot != UINT32_MAX) return slot;
    }
    return slowGroupOf(type, thread);
  };
  for (size_t row = 0; row < storeRows_; ++row) ++count[groupOf(row)];
  uint32_t at = 0;
  for (size_t g = 0; g < groups_.size(); ++g) {
    groups_[g].begin = groups_[g].end = at;
    at += count[g];
  }
  // The second pass finds every group in the table or the map: none is added.
  rows_.resize(storeRows_);
  for (size_t row = 0; row < storeRows_; ++row) rows_[groups_[groupOf(row)].end++] = static_cast<uint32_t>(row);
}

}  // namespace nettrace
