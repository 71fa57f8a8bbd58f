#include "sort/event_sorter.h"

#include <algorithm>
#include <limits>

namespace nettrace {

namespace {
bool Before(const SortItem& a, const SortItem& b) {
  return a.timestamp != b.timestamp ? a.timestamp < b.timestamp : a.ordinal < b.ordinal;
}
}  // namespace

void EventSorter::Push(uint64_t captureThread, const SortItem& item, bool isSorted) {
  auto [it, inserted] = runOf_.try_emplace(captureThread, static_cast<uint32_t>(runs_.size()));
  if (inserted) runs_.emplace_back();
  Run& run = runs_[it->second];
  if (run.sorted && run.items.size() > run.head && Before(item, run.items.back())) {
    // The format promises per-thread order; a writer that breaks it still gets a correct
    // result (the run is sorted before merging), just not the cheap one.
    run.sorted = false;
    ++unsortedRuns_;
  }
  run.items.push_back(item);
  peakPending_ = std::max(peakPending_, ++pending_);
  if (isSorted) Release(item.timestamp);
}

void EventSorter::EndRegion() {
  Release(std::numeric_limits<uint64_t>::max());
  runs_.clear();
  runOf_.clear();
}

void EventSorter::Emit(const SortItem& item) {
  bool late = released_ && Before(item, SortItem{lastTimestamp_, lastOrdinal_});
  if (late) {
    ++lateEvents_;
  } else {
    lastTimestamp_ = item.timestamp;
    lastOrdinal_ = item.ordinal;
    released_ = true;
  }
  sink_->OnSorted(item, late);
}

void EventSorter::Release(uint64_t limit) {
  // Min-heap of run heads. Entries carry the head's key so comparisons touch only the
  // heap (not the runs' items): this loop is the sorter's hot path.
  heap_.clear();
  for (uint32_t r = 0; r < runs_.size(); ++r) {
    Run& run = runs_[r];
    if (!run.sorted) {
      std::stable_sort(run.items.begin() + static_cast<std::ptrdiff_t>(run.head), run.items.end(), Before);
      run.sorted = true;
    }
    if (run.head < run.items.size()) heap_.push_back({run.items[run.head].timestamp, run.items[run.head].ordinal, r});
  }
  auto greater = [](const HeapEntry& a, const HeapEntry& b) {
    return a.timestamp != b.timestamp ? a.timestamp > b.timestamp : a.ordinal > b.ordinal;
  };
  std::make_heap(heap_.begin(), heap_.end(), greater);
  while (!heap_.empty() && heap_.front().timestamp <= limit) {
    std::pop_heap(heap_.begin(), heap_.end(), greater);
    Run& run = runs_[heap_.back().run];
    Emit(run.items[run.head]);
    --pending_;
    if (++run.head < run.items.size()) {
      heap_.back().timestamp = run.items[run.head].timestamp;
      heap_.back().ordinal = run.items[run.head].ordinal;
      std::push_heap(heap_.begin(), heap_.end(), greater);
    } else {
      heap_.pop_back();
    }
  }
  // Drop released prefixes so a long region with many IsSorted marks stays small.
  for (Run& run : runs_) {
    if (run.head == run.items.size()) {
      run.items.clear();
      run.head = 0;
    } else if (run.head > 4096 && run.head * 2 > run.items.size()) {
      run.items.erase(run.items.begin(), run.items.begin() + static_cast<std::ptrdiff_t>(run.head));
      run.head = 0;
    }
  }
}

}  // namespace nettrace
