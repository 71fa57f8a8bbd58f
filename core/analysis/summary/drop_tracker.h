// core/analysis — finds events the writer numbered but never wrote
// (NetTraceFormat.md §Event Sequence Numbers). Two rules:
//   1. a capture thread's sequence numbers go up by one per event: a jump means the
//      events in between were dropped (numbers wrap at 2^32);
//   2. a sequence point (or v6 RemoveThread) gives a lower bound of the last number a
//      thread attempted: above the last one seen, the difference was dropped.
// A thread first seen at number N lost N-1 events before it. Each loss is kept as a
// time range (between the last event seen on that thread and the event or sequence
// point that revealed it) so a timeline can show where data is missing.
// It also counts the events each capture thread captured: the state of a capture thread is
// looked up once per event, here, and not again by the summary (written v6 traces switch
// capture thread at nearly every event, so each look-up counts).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <unordered_map>
#include <vector>

#include "base/small_key_map.h"

namespace nettrace {

struct DropRange {
  uint64_t thread = 0;  // capture thread key: v4/v5 thread id, v6 thread index
  uint64_t count = 0;
  uint64_t fromTimestamp = 0;  // last event seen before the loss (0: none seen)
  uint64_t toTimestamp = 0;    // the event or sequence point that revealed it
};

class DropTracker {
 public:
  static constexpr size_t kMaxRanges = 10000;

  // Inline: the usual event is the next number of the last thread seen. False then: no
  // loss was found (true: one may have been, the totals may have changed).
  bool OnEvent(uint64_t thread, uint32_t sequence, uint64_t timestamp) {
    if (!last_ || lastKey_ != thread) Switch(thread);
    ++captured_[last_->row].count;
    if (!last_->first && sequence == last_->last + 1) {
      last_->last = sequence;
      last_->lastTimestamp = timestamp;
      return false;
    }
    OnOtherEvent(thread, sequence, timestamp);
    return true;
  }
  // A lower bound for a thread's last attempted number, known at `timestamp`.
  void OnLowerBound(uint64_t thread, uint32_t sequence, uint64_t timestamp);
  // v6: the thread index leaves the table (RemoveThread, or a thread-flush sequence
  // point): a later definition of the same index starts numbering again.
  void Forget(uint64_t thread) {
    threads_.Erase(thread);
    last_ = nullptr;
  }
  void ForgetAll() {
    threads_.Clear();
    last_ = nullptr;
  }

  uint64_t total() const { return total_; }
  uint64_t gaps() const { return gaps_; }
  // Per capture thread, over the whole trace.
  const std::map<uint64_t, uint64_t>& perThread() const { return perThread_; }
  // In the order found; at most kMaxRanges (the totals count everything).
  const std::vector<DropRange>& ranges() const { return ranges_; }
  // Events captured per capture thread key, over the whole trace (a v6 index defined again
  // after it left the table adds to its key's row), in the order the keys were first seen.
  struct Captured {
    uint64_t thread = 0;
    uint64_t count = 0;
  };
  const std::vector<Captured>& captured() const { return captured_; }

 private:
  struct State {
    uint32_t last = 0;
    uint32_t row = 0;    // the thread's row in captured_
    bool first = false;  // no event or lower bound numbered yet (since it entered the table)
    uint64_t lastTimestamp = 0;
  };
  void Lost(uint64_t thread, uint64_t count, uint64_t from, uint64_t to);
  // Makes `thread` the last thread, adding its state when it has none.
  void Switch(uint64_t thread) {
    State* s = threads_.Find(thread);
    last_ = s ? s : &Add(thread);
    lastKey_ = thread;
  }
  // The state of a thread, added when it has none (its captured row kept from before).
  State& StateOf(uint64_t thread) {
    State* s = threads_.Find(thread);
    return s ? *s : Add(thread);
  }
  State& Add(uint64_t thread);
  void OnOtherEvent(uint64_t thread, uint32_t sequence, uint64_t timestamp);

  SmallKeyMap<State> threads_;  // looked up, never iterated
  State* last_ = nullptr;  // the last thread's state (events come in runs per thread)
  uint64_t lastKey_ = 0;
  std::map<uint64_t, uint64_t> perThread_;
  std::vector<Captured> captured_;
  SmallKeyMap<uint32_t> capturedRow_;  // key → its row in captured_ (asked when a state is added)
  std::vector<DropRange> ranges_;
  uint64_t total_ = 0, gaps_ = 0;
};

}  // namespace nettrace
