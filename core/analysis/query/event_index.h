// core/analysis — the event table's index: the store's rows grouped by (event type, thread),
// each group's rows ascending. Built once, on the first query that filters by type or
// thread, so that such a page costs O(groups + page), not a pass over every row in range
// (event_query.h). 4 bytes a row.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "model/event_store.h"

namespace nettrace {

class EventIndex {
 public:
  struct Group {
    uint16_t type = 0, thread = 0;  // EventTypeIndex, ThreadIndex values
    uint32_t begin = 0, end = 0;    // its rows: rows_[begin, end)
  };

  // Two passes over the store's type and thread columns; types and threads: how many the
  // model has (a row with a type or thread beyond them is still indexed).
  EventIndex(const EventStore& store, size_t types, size_t threads);

  // The store's row count when built: a grown (live) store needs a new index.
  size_t storeRows() const { return storeRows_; }
  const std::vector<Group>& groups() const { return groups_; }
  std::span<const uint32_t> Rows(const Group& g) const { return {rows_.data() + g.begin, g.end - g.begin}; }

 private:
  static constexpr size_t kDenseGroupsMax = size_t{1} << 22;  // a 16 MiB table while building
  size_t storeRows_ = 0;
  std::vector<Group> groups_;
  std::vector<uint32_t> rows_;
};

}  // namespace nettrace
