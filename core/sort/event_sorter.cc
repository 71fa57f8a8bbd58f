#include "sort/event_sorter.h"

#include <algorithm>
#include <limits>

namespace nettrace {

void EventSorter::FindRun(uint64_t captureThread) {
  bool added = false;
  uint32_t& run = runOf_.At(captureThread, &added);
  if (added) run = static_cast<uint32_t>(runs_.size()), runs_.emplace_back();
  lastCaptureThread_ = captureThread;
  lastRun_ = run;
}

void EventSorter::EndRegion() {
  Release(std::numeric_limits<uint64_t>::max());
  runs_.clear();
  runOf_.Clear();
}

void EventSorter::Emit(const SortItem& item) {
  bool late = released_ && SortedBefore(item, SortItem{lastTimestamp_, lastOrdinal_});
  if (late) {
    ++lateEvents_;
  } else {
    lastTimestamp_ = item.timestamp;
    lastOrdinal_ = item.ordinal;
    released_ = true;
  }
  sink_->OnSorted(item, late);
}

// Restores the heap below slot i after its key grew: one sift down. Replacing the top this
// way costs about two comparisons per level, where pop_heap + push_heap cost about three;
// and a run whose next item still comes first (a thread's burst) stops after two.
void EventSorter::SiftDown(size_t i) {
  const HeapEntry x = heap_[i];
  const size_t n = heap_.size();
  for (;;) {
    size_t c = 2 * i + 1;
    if (c >= n) break;
    if (c + 1 < n && HeadBefore(heap_[c + 1], heap_[c])) ++c;
    if (!HeadBefore(heap_[c], x)) break;
    heap_[i] = heap_[c];
    i = c;
  }
  heap_[i] = x;
}

void EventSorter::EmitBurst(Run& run, uint64_t limit) {
  const size_t n = heap_.size();
  const HeapEntry* second = n < 2 ? nullptr : n == 2 || HeadBefore(heap_[1], heap_[2]) ? &heap_[1] : &heap_[2];
  const size_t first = run.head + 1;
  size_t end = first;
  for (; end < run.items.size(); ++end) {
    const SortItem& next = run.items[end];
    if (next.timestamp > limit || (second && !HeadBefore({next.timestamp, next.ordinal, 0}, *second))) break;
  }
  if (end == first) return;
  // The run is sorted: when its first item is not late, none after it is.
  if (!released_ || !SortedBefore(run.items[first], SortItem{lastTimestamp_, lastOrdinal_})) {
    const SortItem& last = run.items[end - 1];
    lastTimestamp_ = last.timestamp, lastOrdinal_ = last.ordinal, released_ = true;
    sink_->OnSortedRun(std::span<const SortItem>(run.items.data() + first, end - first));
  } else {
    for (size_t i = first; i < end; ++i) Emit(run.items[i]);
  }
  pending_ -= end - first;
  run.head = end - 1;
}

void EventSorter::Release(uint64_t limit) {
  // Min-heap of run heads. Entries carry the head's key so comparisons touch only the
  // heap (not the runs' items): this loop is the sorter's hot path.
  heap_.clear();
  for (uint32_t r = 0; r < runs_.size(); ++r) {
    Run& run = runs_[r];
    if (!run.sorted) {
      std::stable_sort(run.items.begin() + static_cast<std::ptrdiff_t>(run.head), run.items.end(), SortedBefore<SortItem>);
      run.sorted = true;
    }
    if (run.head < run.items.size()) heap_.push_back({run.items[run.head].timestamp, run.items[run.head].ordinal, r});
  }
  for (size_t i = heap_.size() / 2; i-- > 0;) SiftDown(i);
  uint32_t previousRun = UINT32_MAX;
  while (!heap_.empty() && heap_.front().timestamp <= limit) {
    HeapEntry& top = heap_.front();
    Run& run = runs_[top.run];
    Emit(run.items[run.head]);
    --pending_;
    // When the same run comes first twice in a row (a thread's burst: a rundown, one
    // thread's buffer), its next items are emitted while they still come before every
    // other run's head (the smaller of the top's children), one comparison each and no
    // heap work. Interleaved runs skip the attempt: it would only add comparisons.
    if (top.run == previousRun) EmitBurst(run, limit);
    previousRun = top.run;
    if (++run.head < run.items.size()) {
      top.timestamp = run.items[run.head].timestamp;
      top.ordinal = run.items[run.head].ordinal;
    } else {
      top = heap_.back();
      heap_.pop_back();
    }
    if (!heap_.empty()) SiftDown(0);
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
