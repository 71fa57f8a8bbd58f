#include "analysis/drop_tracker.h"

namespace nettrace {

void DropTracker::Lost(uint64_t thread, uint64_t count, uint64_t from, uint64_t to) {
  total_ += count;
  ++gaps_;
  perThread_[thread] += count;
  if (ranges_.size() < kMaxRanges) ranges_.push_back({thread, count, from, to});
}

void DropTracker::OnOtherEvent(uint64_t thread, uint32_t sequence, uint64_t timestamp) {
  if (last_ && lastKey_ == thread) {
    const int32_t gap = static_cast<int32_t>(sequence - (last_->last + 1));  // wrap-aware
    if (gap > 0) Lost(thread, static_cast<uint32_t>(gap), last_->lastTimestamp, timestamp);
    last_->last = sequence;
    last_->lastTimestamp = timestamp;
    return;
  }
  bool first = false;
  State& s = threads_.At(thread, &first);
  last_ = &s;
  lastKey_ = thread;
  if (first) {
    // Numbering starts at 1; a huge first number is not evidence of loss but of a
    // writer that does not number (or restarted a recycled id), so it is not counted.
    if (sequence > 1 && sequence < 0x80000000u) Lost(thread, sequence - 1, 0, timestamp);
  } else {
    const int32_t gap = static_cast<int32_t>(sequence - (s.last + 1));  // wrap-aware
    if (gap > 0) Lost(thread, static_cast<uint32_t>(gap), s.lastTimestamp, timestamp);
  }
  s.last = sequence;
  s.lastTimestamp = timestamp;
}

void DropTracker::OnLowerBound(uint64_t thread, uint32_t sequence, uint64_t timestamp) {
  bool first = false;
  State& s = threads_.At(thread, &first);
  if (first) {
    last_ = nullptr;  // adding a thread may have moved the others' states
    if (sequence > 0 && sequence < 0x80000000u) Lost(thread, sequence, 0, timestamp);
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
