// core/symbols — which of several method ranges holding one address names it at a time,
// in O(log² n) whatever the overlap. Code ranges of a process rarely overlap, but short-lived
// dynamic methods and re-JIT can reuse one address range thousands of times (a load, samples,
// an unload, the next load at the same addresses); walking every range holding the address
// for each sample made a 1.3 MB trace take 44 s to name its frames.
//
// The rule (MethodMap::Find): of the ranges holding the address, the one alive at the time
// (loadTime <= t < unloadTime) loaded last; failing that (a sample racing its load event, or
// code announced only by a rundown that ended before), the last in address order. Each
// answer comes with the time span over which it holds, so callers resolve an address (or a
// whole stack) again only when the time moves out of it.
//
// How: ranges that overlap no other range (nearly all) are found by one binary search. The
// others go into a segment tree over the elementary address intervals their bounds make;
// each range sits in O(log n) nodes, and each node keeps the timeline of its ranges — the
// range alive and loaded last, piecewise constant in time — built by one sweep. A query
// walks one root-to-leaf path and searches each node's timeline.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace nettrace {

struct MethodRange;

// A time span [from, until) in ticks over which an answer holds.
struct TimeSpan {
  uint64_t from = 0;
  uint64_t until = UINT64_MAX;
  bool Holds(uint64_t t) const { return from <= t && t < until; }
  void Narrow(const TimeSpan& o) {
    if (o.from > from) from = o.from;
    if (o.until < until) until = o.until;
  }
};

class OverlapIndex {
 public:
  static constexpr uint32_t kNone = UINT32_MAX;

  // `ranges` sorted by start (MethodMap's invariant). Queries take the same vector again
  // (the index keeps no pointer to it, so the map that owns both may move).
  void Build(const std::vector<MethodRange>& ranges);

  // The index into ranges of the range naming `address` at `t` (kNone: none holds it), and
  // in *span (optional) when that answer holds.
  uint32_t Find(const std::vector<MethodRange>& ranges, uint64_t address, uint64_t t, TimeSpan* span) const;

  // Calls f(index) for every range holding one of `addresses`; a range may come more than
  // once. Bounded by the ranges holding them, each tree node visited once.
  template <typename F>
  void ForEachHolding(const std::vector<MethodRange>& ranges, const std::vector<uint64_t>& addresses, F&& f) const;

  // Ranges that overlap another one (the tree's), for tests and statistics.
  size_t overlapping() const { return treeRanges_; }

 private:
  // The range with the largest start <= address, or kNone.
  static uint32_t Last(const std::vector<MethodRange>& ranges, uint64_t address);
  static bool Holds(const std::vector<MethodRange>& ranges, uint32_t range, uint64_t address);
  // The leaf (elementary interval) holding the address, or kNone.
  uint32_t Leaf(uint64_t address) const;
  void BuildTimelines(const std::vector<MethodRange>& ranges);

  std::vector<uint8_t> overlaps_;  // per range: 1 if another range overlaps it (it is in the tree)
  size_t treeRanges_ = 0;
  // The tree: leaves are [coords_[j], coords_[j+1]); node n's ranges are
  // entries_[nodeStart_[n] .. nodeStart_[n+1]), sorted by (loadTime, index).
  std::vector<uint64_t> coords_;
  uint32_t leaves_ = 0;  // a power of two >= coords_.size() - 1
  std::vector<uint32_t> nodeStart_, entries_;
  std::vector<uint32_t> nodeLast_;  // per node: its range last in address order (kNone if empty)
  // Per node, its timeline: segments [time, next segment's time) → range alive and loaded
  // last (kNone: none alive), in segments_[segStart_[n] .. segStart_[n+1]).
  struct Segment {
    uint64_t from;
    uint32_t range;
  };
  std::vector<uint32_t> segStart_;
  std::vector<Segment> segments_;
};

template <typename F>
void OverlapIndex::ForEachHolding(const std::vector<MethodRange>& ranges, const std::vector<uint64_t>& addresses,
                                  F&& f) const {
  std::vector<uint8_t> visited(nodeStart_.empty() ? 0 : nodeStart_.size() - 1);
  for (uint64_t address : addresses) {
    const uint32_t last = Last(ranges, address);
    if (last == kNone) continue;
    if (!overlaps_[last]) {
      if (Holds(ranges, last, address)) f(last);
      continue;
    }
    const uint32_t leaf = Leaf(address);
    if (leaf == kNone) continue;
    for (uint32_t n = leaf + leaves_; n >= 1; n >>= 1) {
      if (visited[n]) break;  // its ancestors were visited with it
      visited[n] = 1;
      for (uint32_t i = nodeStart_[n]; i < nodeStart_[n + 1]; ++i) f(entries_[i]);
    }
  }
}

}  // namespace nettrace
