// core/analysis — the order in which marks kept from the sorted tap (model/sorted_tap.h) are
// replayed per process: each process's in (timestamp, file order), the processes one after
// another in ascending id. The marks came in (timestamp, file order), so only the processes
// need grouping (a stable sort, skipped when there is one process); only after a late event
// (a writer whose IsSorted marks lie) are they sorted by time, which restores that order.
// GC statistics and the summary's runtime signals both replay their marks this way.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "sort/event_sorter.h"

namespace nettrace {

// Marks: a std::vector or base/chunked_vector.h's ChunkedVector of a type with processId,
// timestamp and ordinal members.
template <typename Marks>
std::vector<uint32_t> ProcessTimeOrder(const Marks& marks, bool late) {
  std::vector<uint32_t> order(marks.size());
  for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  if (late) {
    std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
      const auto &x = marks[a], &y = marks[b];
      if (x.processId != y.processId) return x.processId < y.processId;
      return SortedBefore(x, y);
    });
  } else {
    auto byProcess = [&](uint32_t a, uint32_t b) { return marks[a].processId < marks[b].processId; };
    if (!std::is_sorted(order.begin(), order.end(), byProcess)) std::stable_sort(order.begin(), order.end(), byProcess);
  }
  return order;
}

}  // namespace nettrace
