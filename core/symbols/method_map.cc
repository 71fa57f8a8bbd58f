#include "symbols/method_map.h"

#include <algorithm>
#include <tuple>

namespace nettrace {

void MethodMap::AddLoad(MethodRange range) {
  if (range.size == 0) return;  // nothing can resolve into an empty range
  ranges_.push_back(range);
  finished_ = false;
}

void MethodMap::AddUnload(uint64_t methodId, uint64_t start, uint64_t timestamp) {
  MethodRange r;
  r.methodId = methodId;
  r.start = start;
  r.unloadTime = timestamp;
  pendingUnloads_.push_back(r);
  finished_ = false;
}

void MethodMap::Finish() {
  if (finished_) return;
  finished_ = true;
  // Sort by address through compact (start, index) pairs: the index keeps equal starts in
  // file order, and only the rare runs of one start need the full key (sorting the 70-byte
  // ranges themselves was a fifth of reading a rundown-heavy trace).
  std::vector<std::pair<uint64_t, uint32_t>> order(ranges_.size());
  for (size_t i = 0; i < ranges_.size(); ++i) order[i] = {ranges_[i].start, static_cast<uint32_t>(i)};
  std::sort(order.begin(), order.end());
  auto full = [&](const std::pair<uint64_t, uint32_t>& x, const std::pair<uint64_t, uint32_t>& y) {
    const MethodRange &a = ranges_[x.second], &b = ranges_[y.second];
    return std::tie(a.size, a.methodId, a.rejitId, a.loadTime, x.second) <
           std::tie(b.size, b.methodId, b.rejitId, b.loadTime, y.second);
  };
  for (size_t i = 0, j; i < order.size(); i = j) {
    for (j = i + 1; j < order.size() && order[j].first == order[i].first;) ++j;
    if (j - i > 1) std::sort(order.begin() + static_cast<ptrdiff_t>(i), order.begin() + static_cast<ptrdiff_t>(j), full);
  }
  // One code body is typically announced two or three times (MethodLoadVerbose, then the
  // rundown's DCEnd): keep one range, alive from the earliest announcement.
  auto key = [](const MethodRange& r) { return std::make_tuple(r.start, r.size, r.methodId, r.rejitId); };
  std::vector<MethodRange> merged;
  merged.reserve(ranges_.size());
  for (const auto& [start, index] : order) {
    const MethodRange& r = ranges_[index];
    if (!merged.empty() && key(merged.back()) == key(r)) {
      MethodRange& m = merged.back();
      m.loadTime = std::min(m.loadTime, r.loadTime);
      m.unloadTime = std::max(m.unloadTime, r.unloadTime);
      if (!m.verbose && r.verbose) m.names = r.names, m.verbose = true;
      continue;
    }
    merged.push_back(r);
  }
  ranges_ = std::move(merged);

  // Non-verbose loads carry no names: borrow them from a verbose range of the method (the
  // first in address order). Sorted pairs rather than hash maps: no allocation per range.
  std::vector<std::pair<uint64_t, size_t>> verboseOf;  // (methodId, index)
  const bool anyNameless = std::any_of(ranges_.begin(), ranges_.end(), [](const MethodRange& r) { return !r.verbose; });
  for (size_t i = 0; anyNameless && i < ranges_.size(); ++i)
    if (ranges_[i].verbose) verboseOf.emplace_back(ranges_[i].methodId, i);
  std::sort(verboseOf.begin(), verboseOf.end());
  for (MethodRange& r : ranges_) {
    if (r.verbose) continue;
    auto it = std::lower_bound(verboseOf.begin(), verboseOf.end(), std::make_pair(r.methodId, size_t{0}));
    if (it == verboseOf.end() || it->first != r.methodId) continue;
    r.names = ranges_[it->second].names, r.verbose = true;
  }

  // Unloads end the lifetime of the code at that address loaded before them.
  if (!pendingUnloads_.empty()) {
    std::vector<std::tuple<uint64_t, uint64_t, size_t>> byIdStart;  // (methodId, start, index)
    byIdStart.reserve(ranges_.size());
    for (size_t i = 0; i < ranges_.size(); ++i) byIdStart.emplace_back(ranges_[i].methodId, ranges_[i].start, i);
    std::sort(byIdStart.begin(), byIdStart.end());
    for (const MethodRange& u : pendingUnloads_) {
      auto it = std::lower_bound(byIdStart.begin(), byIdStart.end(), std::make_tuple(u.methodId, u.start, size_t{0}));
      for (; it != byIdStart.end() && std::get<0>(*it) == u.methodId && std::get<1>(*it) == u.start; ++it) {
        MethodRange& r = ranges_[std::get<2>(*it)];
        if (r.loadTime <= u.unloadTime && r.unloadTime == kForever) r.unloadTime = u.unloadTime;
      }
    }
  }
  // Kept: a live session sorts the map at each snapshot (TraceSession::Snapshot), and an
  // unload read before its load (another thread's buffer) must still apply at the next Finish.
  // Applying one again is a no-op (only a range still alive takes it).

  maxEndUpTo_.resize(ranges_.size());
  uint64_t maxEnd = 0;
  for (size_t i = 0; i < ranges_.size(); ++i) maxEndUpTo_[i] = maxEnd = std::max(maxEnd, ranges_[i].end());
}

const MethodRange* MethodMap::Find(uint64_t address, uint64_t timestamp, bool* timeDependent) const {
  if (timeDependent) *timeDependent = false;
  auto it = std::upper_bound(ranges_.begin(), ranges_.end(), address,
                             [](uint64_t a, const MethodRange& r) { return a < r.start; });
  const MethodRange* alive = nullptr;
  const MethodRange* any = nullptr;
  // Walk back over ranges starting at or below the address, while one of them (or an
  // earlier one) can still reach it. Code ranges rarely overlap, so this is short.
  for (size_t i = static_cast<size_t>(it - ranges_.begin()); i-- > 0 && maxEndUpTo_[i] > address;) {
    const MethodRange& r = ranges_[i];
    if (address >= r.end()) continue;
    if (any && timeDependent && (!names_.Same(any->names, r.names) || any->moduleId != r.moduleId))
      *timeDependent = true;
    if (!any) any = &r;
    if (r.loadTime <= timestamp && timestamp < r.unloadTime && (!alive || r.loadTime > alive->loadTime)) alive = &r;
  }
  return alive ? alive : any;
}

}  // namespace nettrace
