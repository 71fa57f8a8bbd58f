#include "analysis/summary/drop_tracker.h"

namespace nettrace {

void DropTracker::Lost(uint64_t thread, uint64_t count, uint64_t from, uint64_t to) {
  total_ += count;
  ++gaps_;
  perThread_[thread] += count;
  if (ranges_.size() < kMaxRanges) ranges_.push_back({thread, count, from, to});
}

DropTracker::State& DropTracker::Add(uint64_t thread) {
  bool added = false;
  State& s = threads_.At(thread, &added);
  uint32_t& row = capturedRow_.At(thread, &added);
  if (added) {
    row = static_cast<uint32_t>(captured_.size());
    captured_.push_back({thread, 0});
  }
  s.row = row;
  s.first = true;
  return s;
}

// The last thread's event, when it is the thread's first or its number is not the next one.
void DropTracker::OnOtherEvent(uint64_t thread, uint32_t sequence, uint64_t timestamp) {
  State& s = *last_;
  if (s.first) {
    // Numbering starts at 1; a huge first number is not evidence of loss but of a
    // writer that does not number (or restarted a recycled id), so it is not counted.
    if (sequence > 1 && sequence < 0x80000000u) Lost(thread, sequence - 1, 0, timestamp);
    s.first = false;
  } else {
    const int32_t gap = static_cast<int32_t>(sequence - (s.last + 1));  // wrap-aware
    if (gap > 0) Lost(thread, static_cast<uint32_t>(gap), s.lastTimestamp, timestamp);
  }
  s.last = sequence;
  s.lastTimestamp = timestamp;
}

void DropTracker::OnLowerBound(uint64_t thread, uint32_t sequence, uint64_t timestamp) {
  last_ = nullptr;  // adding a thread may have moved the others' states
  State& s = StateOf(thread);
  if (s.first) {
    if (sequence > 0 && sequence < 0x80000000u) Lost(thread, sequence, 0, timestamp);
    s.first = false;
    s.last = sequence;
    s.lastTimestamp = timestamp;
    return;
  }
  const int32_t gap = static_cast<int32_t>(sequence - s.last);
  if (gap > 0) {
    Lost(thread, static_cast<uint32_t>(gap), s.lastTimestamp, timestamp);
    s.last = sequence;
  }
}

}  // namespace nettrace
