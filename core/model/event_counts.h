// core/model — what the events are, counted from the sorted stream: the rows the store keeps
// (model/store_builder.h counts each item the sorter releases, late ones included), per type
// and thread, with their stacks and their time range. The summary's event counts are these,
// so they are the store's rows by construction — the rows every view and export reads.
// Counting is order-free; the time range is the sorted rows' first and last timestamps.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "base/strong_index.h"
#include "sort/event_sorter.h"

namespace nettrace {

class EventCounts {
 public:
  struct PerType {
    uint64_t rows = 0;
    uint64_t withFrames = 0;  // rows whose stack has at least one frame
  };

  // An item the sorter released in order (not late): none is earlier than the one before.
  // emptyStack: the store's index of the stack without frames (0: none was defined). Inline:
  // once per event.
  [[gnu::always_inline]] void CountInOrder(const SortItem& item, uint32_t emptyStack) {
    if (rows_ == 0) first_ = item.timestamp;
    last_ = item.timestamp;
    CountRow(item, emptyStack);
  }
  // Any item: a late one, or one still pending in the sorter.
  void Count(const SortItem& item, uint32_t emptyStack) {
    first_ = std::min(first_, item.timestamp);
    last_ = std::max(last_, item.timestamp);
    CountRow(item, emptyStack);
  }

  uint64_t rows() const { return rows_; }
  // Rows whose stack has at least one frame (TraceEvent's notion of an event with a stack:
  // TraceLog gives an event no call stack when its stack is empty), the sum of the types'
  // withFrames. An event that names no stack, or a stack id no stack block defined, has none.
  uint64_t withFrames() const { return withFrames_; }
  // The earliest and latest timestamps (rows() > 0).
  uint64_t firstTimestamp() const { return first_; }
  uint64_t lastTimestamp() const { return last_; }
  // By EventTypeIndex and ThreadIndex; types and threads past the end have no rows.
  const std::vector<PerType>& types() const { return types_; }
  const std::vector<uint64_t>& threads() const { return threads_; }

 private:
  [[gnu::always_inline]] void CountRow(const SortItem& item, uint32_t emptyStack) {
    if (item.type >= types_.size() || item.thread >= threads_.size()) Grow(item);
    PerType& type = types_[item.type];
    ++type.rows;
    if (item.stack != 0 && item.stack != emptyStack) ++withFrames_, ++type.withFrames;
    ++threads_[item.thread];
    ++rows_;
  }
  [[gnu::noinline]] void Grow(const SortItem& item) {
    if (item.type >= types_.size()) types_.resize(item.type + size_t{1});  // ≤ 65,536 entries each
    if (item.thread >= threads_.size()) threads_.resize(item.thread + size_t{1});
  }
  std::vector<PerType> types_;
  std::vector<uint64_t> threads_;
  uint64_t rows_ = 0, withFrames_ = 0;
  uint64_t first_ = UINT64_MAX, last_ = 0;
};

}  // namespace nettrace
