#include "symbols/method_map.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace nettrace {

void MethodMap::AddLoad(MethodRange range) {
  if (range.size == 0) return;  // nothing can resolve into an empty range
  ranges_.push_back(std::move(range));
  finished_ = false;
}

void MethodMap::AddUnload(uint64_t methodId, uint64_t start, uint64_t timestamp) {
  MethodRange r;
  r.methodId = methodId;
  r.start = start;
  r.unloadTime = timestamp;
  pendingUnloads_.push_back(std::move(r));
  finished_ = false;
}

void MethodMap::Finish() {
  if (finished_) return;
  finished_ = true;
  auto key = [](const MethodRange& r) { return std::make_tuple(r.start, r.size, r.methodId, r.rejitId); };
  std::stable_sort(ranges_.begin(), ranges_.end(), [&](const MethodRange& a, const MethodRange& b) {
    return std::tie(a.start, a.size, a.methodId, a.rejitId, a.loadTime) <
           std::tie(b.start, b.size, b.methodId, b.rejitId, b.loadTime);
  });
  // One code body is typically announced two or three times (MethodLoadVerbose, then the
  // rundown's DCEnd): keep one range, alive from the earliest announcement.
  std::vector<MethodRange> merged;
  merged.reserve(ranges_.size());
  for (MethodRange& r : ranges_) {
    if (!merged.empty() && key(merged.back()) == key(r)) {
      MethodRange& m = merged.back();
      m.loadTime = std::min(m.loadTime, r.loadTime);
      m.unloadTime = std::max(m.unloadTime, r.unloadTime);
      if (!m.verbose && r.verbose) {
        m.nameSpace = std::move(r.nameSpace), m.name = std::move(r.name), m.signature = std::move(r.signature);
        m.verbose = true;
      }
      continue;
    }
    merged.push_back(std::move(r));
  }
  ranges_ = std::move(merged);

  // Non-verbose loads carry no names: borrow them from any verbose range of the method.
  std::unordered_map<uint64_t, size_t> verboseOf;
  for (size_t i = 0; i < ranges_.size(); ++i)
    if (ranges_[i].verbose) verboseOf.emplace(ranges_[i].methodId, i);
  for (MethodRange& r : ranges_) {
    if (r.verbose) continue;
    auto it = verboseOf.find(r.methodId);
    if (it == verboseOf.end()) continue;
    const MethodRange& v = ranges_[it->second];
    r.nameSpace = v.nameSpace, r.name = v.name, r.signature = v.signature, r.verbose = true;
  }

  // Unloads end the lifetime of the code at that address loaded before them.
  std::multimap<std::pair<uint64_t, uint64_t>, size_t> byIdStart;
  for (size_t i = 0; i < ranges_.size(); ++i) byIdStart.emplace(std::make_pair(ranges_[i].methodId, ranges_[i].start), i);
  for (const MethodRange& u : pendingUnloads_) {
    auto [lo, hi] = byIdStart.equal_range({u.methodId, u.start});
    for (auto it = lo; it != hi; ++it) {
      MethodRange& r = ranges_[it->second];
      if (r.loadTime <= u.unloadTime && r.unloadTime == kForever) r.unloadTime = u.unloadTime;
    }
  }
  pendingUnloads_.clear();

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
    if (any && timeDependent && (any->name != r.name || any->nameSpace != r.nameSpace || any->moduleId != r.moduleId))
      *timeDependent = true;
    if (!any) any = &r;
    if (r.loadTime <= timestamp && timestamp < r.unloadTime && (!alive || r.loadTime > alive->loadTime)) alive = &r;
  }
  return alive ? alive : any;
}

}  // namespace nettrace
