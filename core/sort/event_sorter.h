// core/sort — puts events in global timestamp order while the file streams.
//
// The format's guarantees (NetTraceFormat.md §Event TimeStamp sorting) make this a merge,
// not a sort: (1) each capture thread's events are already in time order, (2) sequence
// points separate regions that sort independently and concatenate in file order, (3) an
// event marked IsSorted promises every later event in the file is at least as late, so
// everything pending up to its timestamp can be released early. Within a region we keep
// one run per capture thread and k-way merge the run heads with a tournament (loser) tree;
// ties keep file order (stable). Memory holds only the pending events of the current
// region — with IsSorted marks, only the writer's current batch.
//
// IsSorted is only a hint (format-pitfalls.md §5: writers disagree on its polarity). If a
// later event turns out to be earlier than what was already released, the sorter still
// emits it and flags it `late`; the store puts late events in place (model/event_store).
//
// A region holds at most kMaxPending events (24 bytes each: 6 MiB), whatever the file: a
// trace without sequence points or IsSorted marks would otherwise be held whole until its
// end (a 2 MB trace of a million empty events took 177 MB). At the bound the sorter first
// releases what no thread can come before any more — up to the earliest of the threads'
// latest timestamps, since each thread's events are in time order — and, if that frees less
// than half (a thread fell silent), everything: events that then arrive earlier than what
// was released come out `late`, and the store still puts them in place. Output order is the
// same either way; only memory and the late-merge work differ.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <unordered_map>
#include <vector>

#include "base/small_key_map.h"

namespace nettrace {

struct SortItem {
  uint64_t timestamp = 0;
  uint32_t ordinal = 0;  // file order; the tie-breaker
  uint16_t type = 0;
  uint16_t thread = 0;
  uint32_t stack = 0;
  uint32_t labels = 0;
};

// The order the sorter releases items in, and the store keeps its rows in: timestamp, then
// file order. For any type with timestamp and ordinal members: the analyses put what they
// keep of the events (their marks) back into this order after a late event.
template <typename T>
bool SortedBefore(const T& a, const T& b) {
  return a.timestamp != b.timestamp ? a.timestamp < b.timestamp : a.ordinal < b.ordinal;
}

class SortedSink {
 public:
  virtual ~SortedSink() = default;
  // Events in (timestamp, ordinal) order, except `late` ones (see above).
  virtual void OnSorted(const SortItem& item, bool late) = 0;
  // Consecutive items of one run, none late, in order: a thread's burst (a rundown, one
  // thread's buffer) in one call, not a virtual call and its prologue per event.
  virtual void OnSortedRun(std::span<const SortItem> items) {
    for (const SortItem& item : items) OnSorted(item, false);
  }
};

class EventSorter {
 public:
  explicit EventSorter(SortedSink* sink) : sink_(sink) {}

  // captureThread: the run key (v4/v5 capture thread id, v6 capture thread index).
  // Inline: every event comes through here, most from the capture thread of the last one
  // (a block holds one thread's buffer at a time), which needs no look-up.
  void Push(uint64_t captureThread, const SortItem& item, bool isSorted) {
    if (runs_.empty() || captureThread != lastCaptureThread_) FindRun(captureThread);
    Run& run = runs_[lastRun_];
    if (run.sorted && run.items.size() > run.head && SortedBefore(item, run.items.back())) {
      // The format promises per-thread order; a writer that breaks it still gets a correct
      // result (the run is sorted before merging), just not the cheap one.
      run.sorted = false;
      ++unsortedRuns_;
    }
    run.items.push_back(item);
    if (item.timestamp > run.latest) run.latest = item.timestamp;
    if (++pending_ > peakPending_) peakPending_ = pending_;
    if (isSorted) Release(item.timestamp);
    else if (pending_ >= kMaxPending) Bound();
  }
  static constexpr size_t kMaxPending = size_t{1} << 18;
  // A sequence point (or the end of input): release everything pending.
  void EndRegion();

  size_t pending() const { return pending_; }
  // Each item pushed and not yet released, in no particular order (a summary asked for while
  // reading counts them with what was released).
  template <typename F>
  void ForEachPending(F&& f) const {
    for (const Run& run : runs_)
      for (size_t i = run.head; i < run.items.size(); ++i) f(run.items[i]);
  }
  size_t peakPending() const { return peakPending_; }
  uint64_t unsortedRuns() const { return unsortedRuns_; }
  uint64_t lateEvents() const { return lateEvents_; }
  // Releases forced by kMaxPending (not by a sequence point or an IsSorted mark).
  uint64_t boundedReleases() const { return boundedReleases_; }

 private:
  // Makes the run of this capture thread the last run (a new one if it has none).
  void FindRun(uint64_t captureThread);
  struct Run {
    std::vector<SortItem> items;
    size_t head = 0;
    bool sorted = true;
    uint64_t latest = 0;  // the latest timestamp pushed (the thread cannot come before it again)
  };
  void Bound();
  // Releases pending items with timestamp <= limit, in order.
  void Release(uint64_t limit);
  void Emit(const SortItem& item);

  SortedSink* sink_;
  std::vector<Run> runs_;
  SmallKeyMap<uint32_t> runOf_;  // capture thread → its run in runs_
  uint64_t lastCaptureThread_ = 0;  // the run of the last Push (valid while runs_ is not empty)
  uint32_t lastRun_ = 0;
  size_t pending_ = 0, peakPending_ = 0;
  bool released_ = false;
  uint64_t lastTimestamp_ = 0;
  uint32_t lastOrdinal_ = 0;
  uint64_t unsortedRuns_ = 0, lateEvents_ = 0, boundedReleases_ = 0;
  // Release's tournament over the heads of the runs with items pending (rebuilt by each
  // Release). A leaf's key is its run's head's (timestamp, ordinal), or kDone once the run
  // has no head: the ordinal is held in 64 bits, so that kDone comes after every real key,
  // even one with timestamp 2^64-1 and ordinal 2^32-1 (a hostile file's).
  struct HeadKey {
    uint64_t timestamp;
    uint64_t ordinal;  // kDone: 2^64-1
  };
  static constexpr HeadKey kDone{UINT64_MAX, UINT64_MAX};
  static HeadKey KeyOf(const SortItem& item) { return {item.timestamp, item.ordinal}; }
  static bool KeyBefore(const HeadKey& a, const HeadKey& b) { return SortedBefore(a, b); }
  std::vector<uint32_t> leafRun_;  // the run at each leaf: those with items pending
  std::vector<HeadKey> keys_;      // by leaf; leaves beyond leafRun_ are kDone
  std::vector<uint32_t> tree_;     // tree_[0]: the winning leaf; tree_[n], n >= 1: the leaf that lost there
  uint32_t leaves_ = 1;            // a power of two >= leafRun_.size()
  std::vector<uint32_t> scratch_;  // BuildTree's winners (its storage kept from one Release to the next)
  void BuildTree();
  // Emits the run's items after its head while they come before every other run's head.
  void EmitBurst(Run& run, uint32_t leaf, uint64_t limit);
};

}  // namespace nettrace
