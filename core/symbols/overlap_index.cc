#include "symbols/overlap_index.h"

#include <algorithm>

#include "symbols/method_range.h"

namespace nettrace {

bool OverlapIndex::Holds(const std::vector<MethodRange>& ranges, uint32_t range, uint64_t address) {
  const MethodRange& r = ranges[range];
  return r.start <= address && address < r.end();
}

uint32_t OverlapIndex::Last(const std::vector<MethodRange>& rs, uint64_t address) {
  auto it = std::upper_bound(rs.begin(), rs.end(), address, [](uint64_t a, const MethodRange& r) { return a < r.start; });
  return it == rs.begin() ? kNone : static_cast<uint32_t>(it - rs.begin() - 1);
}

uint32_t OverlapIndex::Leaf(uint64_t address) const {
  auto it = std::upper_bound(coords_.begin(), coords_.end(), address);
  if (it == coords_.begin() || it == coords_.end()) return kNone;
  return static_cast<uint32_t>(it - coords_.begin() - 1);
}

void OverlapIndex::Build(const std::vector<MethodRange>& ranges) {
  const size_t n = ranges.size();
  overlaps_.assign(n, 0);
  treeRanges_ = 0;
  // Sorted by start: a range overlaps an earlier one when their furthest end passes its start,
  // and a later one when the next start falls before its end.
  uint64_t maxEnd = 0;
  for (size_t i = 0; i < n; ++i) {
    const MethodRange& r = ranges[i];
    if ((i > 0 && maxEnd > r.start) || (i + 1 < n && ranges[i + 1].start < r.end())) overlaps_[i] = 1, ++treeRanges_;
    maxEnd = std::max(maxEnd, r.end());
  }
  coords_.clear(), nodeStart_.clear(), entries_.clear(), nodeLast_.clear(), segStart_.clear(), segments_.clear();
  leaves_ = 0;
  if (treeRanges_ == 0) return;
  for (size_t i = 0; i < n; ++i)
    if (overlaps_[i]) coords_.push_back(ranges[i].start), coords_.push_back(ranges[i].end());
  std::sort(coords_.begin(), coords_.end());
  coords_.erase(std::unique(coords_.begin(), coords_.end()), coords_.end());
  leaves_ = 1;
  while (leaves_ < coords_.size() - 1) leaves_ *= 2;
  // Each range into the O(log n) nodes that cover its leaves exactly (twice: count, then fill).
  auto forNodes = [&](const MethodRange& r, auto&& visit) {
    uint32_t lo = static_cast<uint32_t>(std::lower_bound(coords_.begin(), coords_.end(), r.start) - coords_.begin()) + leaves_;
    uint32_t hi = static_cast<uint32_t>(std::lower_bound(coords_.begin(), coords_.end(), r.end()) - coords_.begin()) + leaves_;
    for (; lo < hi; lo >>= 1, hi >>= 1) {
      if (lo & 1) visit(lo++);
      if (hi & 1) visit(--hi);
    }
  };
  nodeStart_.assign(2 * size_t{leaves_} + 1, 0);
  for (size_t i = 0; i < n; ++i)
    if (overlaps_[i]) forNodes(ranges[i], [&](uint32_t node) { ++nodeStart_[node + 1]; });
  for (size_t k = 1; k < nodeStart_.size(); ++k) nodeStart_[k] += nodeStart_[k - 1];
  entries_.resize(nodeStart_.back());
  std::vector<uint32_t> fill(nodeStart_.begin(), nodeStart_.end() - 1);
  for (size_t i = 0; i < n; ++i)
    if (overlaps_[i]) forNodes(ranges[i], [&](uint32_t node) { entries_[fill[node]++] = static_cast<uint32_t>(i); });
  BuildTimelines(ranges);
}

// Per node: the range alive and loaded last, as a function of time. Sorted by (loadTime,
// index), a node's ranges are pushed as their load comes; the top of the stack is then the
// one loaded last, and a range is dropped for good once its unload has passed (time only
// moves on). Each range is pushed and popped once: O(k log k) a node, for the sort.
void OverlapIndex::BuildTimelines(const std::vector<MethodRange>& rs) {
  const size_t nodes = nodeStart_.size() - 1;
  nodeLast_.assign(nodes, kNone);
  segStart_.assign(nodes + 1, 0);
  std::vector<uint64_t> times;
  std::vector<uint32_t> stack;
  for (size_t node = 0; node < nodes; ++node) {
    segStart_[node] = static_cast<uint32_t>(segments_.size());
    auto first = entries_.begin() + nodeStart_[node], last = entries_.begin() + nodeStart_[node + 1];
    if (first == last) continue;
    nodeLast_[node] = *std::max_element(first, last);
    std::sort(first, last, [&](uint32_t a, uint32_t b) {
      return rs[a].loadTime != rs[b].loadTime ? rs[a].loadTime < rs[b].loadTime : a < b;
    });
    times.assign(1, 0);
    for (auto it = first; it != last; ++it) {
      times.push_back(rs[*it].loadTime);
      if (rs[*it].unloadTime != kForever) times.push_back(rs[*it].unloadTime);
    }
    std::sort(times.begin(), times.end());
    times.erase(std::unique(times.begin(), times.end()), times.end());
    stack.clear();
    auto next = first;
    for (uint64_t t : times) {
      for (; next != last && rs[*next].loadTime <= t; ++next) stack.push_back(*next);
      while (!stack.empty() && rs[stack.back()].unloadTime <= t) stack.pop_back();
      const uint32_t alive = stack.empty() ? kNone : stack.back();
      if (segments_.size() == segStart_[node] || segments_.back().range != alive) segments_.push_back({t, alive});
    }
  }
  segStart_[nodes] = static_cast<uint32_t>(segments_.size());
}

uint32_t OverlapIndex::Find(const std::vector<MethodRange>& rs, uint64_t address, uint64_t t, TimeSpan* span) const {
  if (span) *span = TimeSpan{};
  const uint32_t last = Last(rs, address);
  if (last == kNone) return kNone;
  if (!overlaps_[last]) return Holds(rs, last, address) ? last : kNone;
  const uint32_t leaf = Leaf(address);
  if (leaf == kNone) return kNone;
  uint32_t alive = kNone, any = kNone;
  TimeSpan held;
  for (uint32_t n = leaf + leaves_; n >= 1; n >>= 1) {
    const uint32_t s0 = segStart_[n], s1 = segStart_[n + 1];
    if (s0 == s1) continue;
    if (any == kNone || nodeLast_[n] > any) any = nodeLast_[n];
    // The segment holding t (the first starts at 0), and when it ends.
    auto it = std::upper_bound(segments_.begin() + s0, segments_.begin() + s1, t,
                               [](uint64_t x, const Segment& s) { return x < s.from; }) - 1;
    held.Narrow({it->from, it + 1 == segments_.begin() + s1 ? kForever : (it + 1)->from});
    const uint32_t r = it->range;
    if (r != kNone && (alive == kNone || rs[r].loadTime > rs[alive].loadTime ||
                       (rs[r].loadTime == rs[alive].loadTime && r > alive)))
      alive = r;
  }
  if (span) *span = held;
  return alive != kNone ? alive : any;
}

}  // namespace nettrace
