#include "symbols/method_map.h"

#include <algorithm>
#include <tuple>

namespace nettrace {

void MethodMap::NewAddedBlock() { added_.emplace_back().reserve(kAddedBlock); }

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
  if (!added_.empty()) MergeNewRanges();
  BorrowNames();
  ApplyUnloads();
  maxEndUpTo_.resize(ranges_.size());
  uint64_t maxEnd = 0;
  for (size_t i = 0; i < ranges_.size(); ++i) maxEndUpTo_[i] = maxEnd = std::max(maxEnd, ranges_[i].end());
}

// A live session finishes the map at every snapshot (TraceSession::Snapshot): re-sorting
// every range each time cost 4.9 ms a snapshot on average on a trace of 107k ranges read in
// 64 KiB chunks (2.2 s in 453 snapshots, 25x the read itself; now 0.7 ms). ranges_ is already
// sorted and merged, so only the added ranges are sorted, then merged in one pass. The result
// is the full sort's: the order is (start, size, methodId, rejitId, loadTime, then file
// order), and every sorted range came before every added one in file order.
void MethodMap::MergeNewRanges() {
  const size_t old = ranges_.size();
  auto added = [&](uint32_t i) -> const MethodRange& { return added_[i / kAddedBlock][i % kAddedBlock]; };
  // Sort by address through compact (start, index) pairs: the index keeps equal starts in
  // file order, and only the rare runs of one start need the full key (sorting the 72-byte
  // ranges themselves was a fifth of reading a rundown-heavy trace).
  const size_t count = AddedCount();
  std::vector<std::pair<uint64_t, uint32_t>> order(count);
  for (size_t i = 0; i < count; ++i) order[i] = {added(static_cast<uint32_t>(i)).start, static_cast<uint32_t>(i)};
  std::sort(order.begin(), order.end());
  auto full = [&](const std::pair<uint64_t, uint32_t>& x, const std::pair<uint64_t, uint32_t>& y) {
    const MethodRange &a = added(x.second), &b = added(y.second);
    return std::tie(a.size, a.methodId, a.rejitId, a.loadTime, x.second) <
           std::tie(b.size, b.methodId, b.rejitId, b.loadTime, y.second);
  };
  for (size_t i = 0, j; i < order.size(); i = j) {
    for (j = i + 1; j < order.size() && order[j].first == order[i].first;) ++j;
    if (j - i > 1) std::sort(order.begin() + static_cast<ptrdiff_t>(i), order.begin() + static_cast<ptrdiff_t>(j), full);
  }
  auto before = [](const MethodRange& a, const MethodRange& b) {
    return std::tie(a.start, a.size, a.methodId, a.rejitId, a.loadTime) <
           std::tie(b.start, b.size, b.methodId, b.rejitId, b.loadTime);
  };
  // One code body is typically announced two or three times (MethodLoadVerbose, then the
  // rundown's DCEnd): keep one range, alive from the earliest announcement.
  auto key = [](const MethodRange& r) { return std::make_tuple(r.start, r.size, r.methodId, r.rejitId); };
  std::vector<MethodRange> merged;
  merged.reserve(old + count);
  auto put = [&](const MethodRange& r) {
    if (!merged.empty() && key(merged.back()) == key(r)) {
      MethodRange& m = merged.back();
      m.loadTime = std::min(m.loadTime, r.loadTime);
      m.unloadTime = std::max(m.unloadTime, r.unloadTime);
      if (!m.verbose && r.verbose) m.names = r.names, m.verbose = true;
      return;
    }
    merged.push_back(r);
  };
  size_t i = 0, j = 0;
  while (i < old || j < order.size()) {
    // On equal keys the sorted range goes first: it came first in file order.
    if (j == order.size() || (i < old && !before(added(order[j].second), ranges_[i]))) put(ranges_[i++]);
    else put(added(order[j++].second));
  }
  ranges_ = std::move(merged);
  added_.clear();
}

// Non-verbose loads carry no names: borrow them from a verbose range of the method (the
// first in address order). Only the methods of nameless ranges are looked up (usually
// none), so a map whose ranges all have names costs one pass.
void MethodMap::BorrowNames() {
  std::vector<uint64_t> nameless;
  for (const MethodRange& r : ranges_)
    if (!r.verbose) nameless.push_back(r.methodId);
  if (nameless.empty()) return;
  std::sort(nameless.begin(), nameless.end());
  nameless.erase(std::unique(nameless.begin(), nameless.end()), nameless.end());
  std::vector<std::pair<uint64_t, size_t>> verboseOf;  // (methodId, index)
  for (size_t i = 0; i < ranges_.size(); ++i)
    if (ranges_[i].verbose && std::binary_search(nameless.begin(), nameless.end(), ranges_[i].methodId))
      verboseOf.emplace_back(ranges_[i].methodId, i);
  std::sort(verboseOf.begin(), verboseOf.end());
  for (MethodRange& r : ranges_) {
    if (r.verbose) continue;
    auto it = std::lower_bound(verboseOf.begin(), verboseOf.end(), std::make_pair(r.methodId, size_t{0}));
    if (it == verboseOf.end() || it->first != r.methodId) continue;
    r.names = ranges_[it->second].names, r.verbose = true;
  }
}

// Unloads end the lifetime of the code at that address loaded before them. They are kept:
// an unload read before its load (another thread's buffer) must still apply at the next
// Finish, and applying one again is a no-op (only a range still alive takes it). Ranges are
// sorted by start, so each unload finds its ranges by binary search.
void MethodMap::ApplyUnloads() {
  for (const MethodRange& u : pendingUnloads_) {
    auto it = std::lower_bound(ranges_.begin(), ranges_.end(), u.start,
                               [](const MethodRange& r, uint64_t start) { return r.start < start; });
    for (; it != ranges_.end() && it->start == u.start; ++it)
      if (it->methodId == u.methodId && it->loadTime <= u.unloadTime && it->unloadTime == kForever)
        it->unloadTime = u.unloadTime;
  }
}

std::vector<MethodNamesRef> MethodMap::InSourceNamesAt(const std::vector<uint64_t>& addresses) const {
  std::vector<MethodNamesRef> out;
  if (!names_.keepsInSource()) return out;
  for (uint64_t address : addresses) {
    auto it = std::upper_bound(ranges_.begin(), ranges_.end(), address,
                               [](uint64_t a, const MethodRange& r) { return a < r.start; });
    // Every range holding the address, as Find walks them: any of them may name the frame.
    for (size_t i = static_cast<size_t>(it - ranges_.begin()); i-- > 0 && maxEndUpTo_[i] > address;) {
      const MethodRange& r = ranges_[i];
      if (address < r.end() && r.verbose && r.names.inSource() && !names_.IsLoaded(r.names)) out.push_back(r.names);
    }
  }
  return out;
}

void MethodMap::TakeLoadedNames() {
  bool unterminated = false;
  for (MethodRange& r : ranges_) {
    if (!r.verbose || !r.names.inSource() || !names_.IsLoaded(r.names)) continue;
    if (names_.Unterminated(r.names)) r.names = MethodNamesRef{}, r.verbose = false, unterminated = true;
    else r.names = names_.Resolve(r.names);
  }
  if (unterminated) BorrowNames();
}

bool MethodMap::SameFrame(const MethodRange& a, const MethodRange& b) const {
  if (a.moduleId != b.moduleId) return false;
  if (a.named() != b.named()) return false;
  return a.named() ? names_.Same(a.names, b.names) : a.methodId == b.methodId;
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
    if (any && timeDependent && !SameFrame(*any, r)) *timeDependent = true;
    if (!any) any = &r;
    if (r.loadTime <= timestamp && timestamp < r.unloadTime && (!alive || r.loadTime > alive->loadTime)) alive = &r;
  }
  return alive ? alive : any;
}

}  // namespace nettrace
