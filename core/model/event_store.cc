#include "model/event_store.h"

#include <algorithm>

namespace nettrace {

namespace {
// Below this many late events a merge waits (unless the read ends): a pass over a small
// store is cheap, but not worth doing for every single late event.
constexpr size_t kMinLateMerge = 4096;
}  // namespace

void EventStore::StartChunks(size_t row) {
  tsChunk_ = tsOffset_.ChunkOf(row);
  typeChunk_ = type_.ChunkOf(row);
  threadChunk_ = thread_.ChunkOf(row);
  stackChunk_ = stack_.ChunkOf(row);
  ordinalChunk_ = ordinal_.ChunkOf(row);
}

uint32_t EventStore::Spill(uint32_t row, uint32_t ordinal) {
  spilled_.emplace_back(row, ordinal);
  return kOrdinalSpill;
}

void EventStore::AddLabels(uint32_t row, uint32_t labels) { labels_.emplace_back(row, labels); }

// Put's rare cases: a row that starts a chunk, a time page (every 2^32 ticks, or a time
// before the page's base: regions sort independently, so a region may start before the last
// one ended), or a region's ordinal page.
void EventStore::Open(uint32_t row, uint64_t timestamp) {
  if ((row & (ChunkedVector<uint16_t>::kChunkSize - 1)) == 0) StartChunks(row);
  if (pages_.empty() || timestamp < pages_.back().base || timestamp - pages_.back().base > 0xFFFFFFFFull)
    pages_.push_back({row, timestamp});
  if (ordinalPages_.empty() || ordinalPages_.back().base != regionBase_) ordinalPages_.push_back({row, regionBase_});
  pageBase_ = pages_.back().base, ordinalPageBase_ = ordinalPages_.back().base;
  open_ = true;
}

void EventStore::AppendLate(const SortItem& item) {
  late_.push_back({item, regionBase_});
  if (late_.size() >= std::max<size_t>(kMinLateMerge, size() / 4)) MergeLate();
}

// One pass over the stored rows and the (sorted) late items, both in (timestamp, ordinal)
// order, into fresh columns. Each row keeps the region base it was stored under, so its
// ordinal keeps its compact form unless late items of another region land among its rows.
void EventStore::MergeLate() {
  if (late_.empty()) return;
  std::stable_sort(late_.begin(), late_.end(),
                   [](const LateItem& a, const LateItem& b) { return SortedBefore(a.item, b.item); });
  EventStore merged;
  merged.blocks_ = std::move(blocks_);
  auto put = [&merged](const SortItem& item, uint32_t base) {
    merged.regionBase_ = base;
    merged.Put(item);
  };
  size_t page = 0, ordinalPage = 0, label = 0, next = 0;
  for (size_t row = 0; row < size(); ++row) {
    while (page + 1 < pages_.size() && pages_[page + 1].firstRow <= row) ++page;
    while (ordinalPage + 1 < ordinalPages_.size() && ordinalPages_[ordinalPage + 1].firstRow <= row) ++ordinalPage;
    while (label < labels_.size() && labels_[label].first < row) ++label;
    const uint32_t labelList = label < labels_.size() && labels_[label].first == row ? labels_[label].second : 0;
    const SortItem stored{pages_[page].base + tsOffset_[row], ordinal(row), type_[row], thread_[row], stack_[row], labelList};
    for (; next < late_.size() && SortedBefore(late_[next].item, stored); ++next) put(late_[next].item, late_[next].regionBase);
    put(stored, static_cast<uint32_t>(ordinalPages_[ordinalPage].base));
  }
  for (; next < late_.size(); ++next) put(late_[next].item, late_[next].regionBase);
  merged.regionBase_ = regionBase_;
  merged.lateMerges_ = lateMerges_ + 1;
  *this = std::move(merged);  // late_ of the fresh store is empty
}

size_t EventStore::PageOf(const std::vector<Page>& pages, size_t row, size_t from) {
  if (from >= pages.size() || pages[from].firstRow > row) {
    // Pages are few next to rows (one per 2^32 ticks, or per region): binary search.
    auto it = std::upper_bound(pages.begin(), pages.end(), row,
                               [](size_t r, const Page& p) { return r < p.firstRow; });
    return static_cast<size_t>(it - pages.begin()) - 1;
  }
  while (from + 1 < pages.size() && pages[from + 1].firstRow <= row) ++from;
  return from;
}

uint64_t EventStore::timestamp(size_t row) const {
  return pages_[PageOf(pages_, row, pages_.size())].base + tsOffset_[row];
}

LabelListIndex EventStore::labels(size_t row) const {
  auto it = std::lower_bound(labels_.begin(), labels_.end(), std::make_pair(static_cast<uint32_t>(row), uint32_t{0}));
  if (it != labels_.end() && it->first == row) return LabelListIndex(it->second);
  return LabelListIndex(0);
}

uint32_t EventStore::ordinal(size_t row) const {
  const uint32_t rel = Relative(ordinal_[row]);
  if (rel == kOrdinalSpill) {
    auto it = std::lower_bound(spilled_.begin(), spilled_.end(), std::make_pair(static_cast<uint32_t>(row), uint32_t{0}));
    return it->second;
  }
  return static_cast<uint32_t>(ordinalPages_[PageOf(ordinalPages_, row, ordinalPages_.size())].base) + rel;
}

uint64_t EventStore::RowCursor::timestamp(size_t row) {
  page_ = PageOf(store_.pages_, row, page_);
  return store_.pages_[page_].base + store_.tsOffset_[row];
}

uint32_t EventStore::RowCursor::ordinal(size_t row) {
  const uint32_t rel = Relative(store_.ordinal_[row]);
  if (rel == kOrdinalSpill) return store_.ordinal(row);  // rare: a search in the spilled ordinals
  ordinalPage_ = PageOf(store_.ordinalPages_, row, ordinalPage_);
  return static_cast<uint32_t>(store_.ordinalPages_[ordinalPage_].base) + rel;
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
         (labels_.capacity() + spilled_.capacity()) * 8 + blocks_.capacity() * sizeof(EventBlockRef) +
         late_.capacity() * sizeof(LateItem);
}

}  // namespace nettrace
