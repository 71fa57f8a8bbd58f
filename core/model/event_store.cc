#include "model/event_store.h"

#include <algorithm>

namespace nettrace {

void EventStore::Put(const SortItem& item) {
  const uint32_t row = static_cast<uint32_t>(type_.size());
  if (pages_.empty() || item.timestamp < pages_.back().base || item.timestamp - pages_.back().base > 0xFFFFFFFFull)
    pages_.push_back({row, item.timestamp});
  tsOffset_.push_back(static_cast<uint32_t>(item.timestamp - pages_.back().base));
  type_.push_back(item.type);
  thread_.push_back(item.thread);
  stack_.push_back(item.stack);
  if (ordinalPages_.empty() || ordinalPages_.back().base != regionBase_) ordinalPages_.push_back({row, regionBase_});
  uint32_t rel = item.ordinal - regionBase_;
  if (item.ordinal < regionBase_ || rel >= kOrdinalSpill) {
    spilled_.emplace_back(row, item.ordinal);
    rel = kOrdinalSpill;
  }
  ordinal_.push_back({{static_cast<uint8_t>(rel), static_cast<uint8_t>(rel >> 8), static_cast<uint8_t>(rel >> 16)}});
  if (item.labels) labels_.emplace_back(row, item.labels);
}

void EventStore::Append(const SortItem& item, bool late) {
  if (late) InsertLate(item);
  else Put(item);
}

// Rare path (an IsSorted hint that did not hold): find the item's place among the rows
// already stored and shift the later rows down by one. Correct, and linear in the rows
// after the insertion point, which a mis-set hint keeps to one batch.
void EventStore::InsertLate(const SortItem& item) {
  size_t pos = size();
  while (pos > 0) {
    uint64_t ts = timestamp(pos - 1);
    if (ts < item.timestamp || (ts == item.timestamp && ordinal(pos - 1) < item.ordinal)) break;
    --pos;
  }
  // Collect the tail, rewrite from pos with the item first.
  std::vector<SortItem> tail;
  for (size_t r = pos; r < size(); ++r)
    tail.push_back({timestamp(r), ordinal(r), type_[r], thread_[r], stack_[r], labels(r).value});
  const size_t n = size() - pos;
  for (size_t i = 0; i < n; ++i) {
    tsOffset_.pop_back(), type_.pop_back(), thread_.pop_back(), stack_.pop_back(), ordinal_.pop_back();
  }
  while (!pages_.empty() && pages_.back().firstRow >= pos) pages_.pop_back();
  while (!labels_.empty() && labels_.back().first >= pos) labels_.pop_back();
  while (!ordinalPages_.empty() && ordinalPages_.back().firstRow >= pos) ordinalPages_.pop_back();
  while (!spilled_.empty() && spilled_.back().first >= pos) spilled_.pop_back();
  Put(item);
  for (const SortItem& t : tail) Put(t);
}

uint64_t EventStore::timestamp(size_t row) const {
  // Pages are few (one per 2^32 ticks of trace time, ~4 s at 1 GHz): binary search.
  auto it = std::upper_bound(pages_.begin(), pages_.end(), row,
                             [](size_t r, const Page& p) { return r < p.firstRow; });
  return (it - 1)->base + tsOffset_[row];
}

LabelListIndex EventStore::labels(size_t row) const {
  auto it = std::lower_bound(labels_.begin(), labels_.end(), std::make_pair(static_cast<uint32_t>(row), uint32_t{0}));
  if (it != labels_.end() && it->first == row) return LabelListIndex(it->second);
  return LabelListIndex(0);
}

uint32_t EventStore::ordinal(size_t row) const {
  const Ordinal24& o = ordinal_[row];
  const uint32_t rel = o.b[0] | (uint32_t{o.b[1]} << 8) | (uint32_t{o.b[2]} << 16);
  if (rel == kOrdinalSpill) {
    auto it = std::lower_bound(spilled_.begin(), spilled_.end(), std::make_pair(static_cast<uint32_t>(row), uint32_t{0}));
    return it->second;
  }
  auto it = std::upper_bound(ordinalPages_.begin(), ordinalPages_.end(), row,
                             [](size_t r, const Page& p) { return r < p.firstRow; });
  return static_cast<uint32_t>((it - 1)->base) + rel;
}

RowLocation EventStore::Locate(size_t row) const {
  const uint32_t ord = ordinal(row);
  auto it = std::upper_bound(blocks_.begin(), blocks_.end(), ord,
                             [](uint32_t o, const EventBlockRef& b) { return o < b.firstOrdinal; });
  const EventBlockRef& b = *(it - 1);
  return {b.contentOffset, b.contentSize, ord - b.firstOrdinal, b.generation};
}

size_t EventStore::LowerBound(uint64_t ts) const {
  size_t lo = 0, hi = size();
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (timestamp(mid) < ts) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

size_t EventStore::columnBytes() const {
  return tsOffset_.residentBytes() + type_.residentBytes() + thread_.residentBytes() + stack_.residentBytes() +
         ordinal_.residentBytes();
}

size_t EventStore::residentBytes() const {
  return columnBytes() + (pages_.capacity() + ordinalPages_.capacity()) * sizeof(Page) +
         (labels_.capacity() + spilled_.capacity()) * 8 + blocks_.capacity() * sizeof(EventBlockRef);
}

}  // namespace nettrace
