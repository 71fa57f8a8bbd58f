#include "symbols/method_map.h"

#include <algorithm>
#include <tuple>

namespace nettrace {

void MethodMap::NewAddedBlock() {
  if (AddedCount() >= std::max(kCompactAt, 2 * compacted_)) {
    CompactAdded();
    if (!added_.empty() && added_.back().size() < kAddedBlock) return;  // the last block has room
  }
  added_.emplace_back().reserve(kAddedBlock);
}

// The compacted ranges go back into blocks in address order: MergeAddedInto takes a block
// position for file order only between ranges of one key, and compaction left one range per
// key, so the ranges added after them still come after them. The merged range keeps the
// earliest load, the latest unload and the names of the first verbose announcement in its
// (load time, file order) at the compaction; where a later announcement loaded earlier brings
// other names for the same code body, Finish keeps those compacted ones: the same method's.
void MethodMap::CompactAdded() {
  std::vector<MethodRange> compact;
  MergeAddedInto(compact);
  for (size_t i = 0; i < compact.size(); i += kAddedBlock) {
    added_.emplace_back().reserve(kAddedBlock);
    added_.back().assign(compact.begin() + static_cast<ptrdiff_t>(i),
                         compact.begin() + static_cast<ptrdiff_t>(std::min(compact.size(), i + kAddedBlock)));
  }
  compacted_ = compact.size();
}

size_t MethodMap::residentBytes() const {
  size_t bytes = (ranges_.capacity() + pendingUnloads_.capacity()) * sizeof(MethodRange);
  for (const std::vector<MethodRange>& block : added_) bytes += block.capacity() * sizeof(MethodRange);
  return bytes;
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
  if (!added_.empty()) MergeNewRanges();
  BorrowNames();
  ApplyUnloads();
  index_.Build(ranges_);
}

// A live session finishes the map at every snapshot (TraceSession::Snapshot): re-sorting
// every range each time cost 4.9 ms a snapshot on average on a trace of 107k ranges read in
// 64 KiB chunks (2.2 s in 453 snapshots, 25x the read itself; now 0.7 ms). ranges_ is already
// sorted and merged, so only the added ranges are sorted, then merged in one pass. The result
// is the full sort's: the order is (start, size, methodId, rejitId, loadTime, then file
// order), and every sorted range came before every added one in file order.
void MethodMap::MergeNewRanges() {
  MergeAddedInto(ranges_);
  compacted_ = 0;
}

void MethodMap::MergeAddedInto(std::vector<MethodRange>& into) {
  const size_t old = into.size();
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
  // Room for the distinct added keys only: a trace announcing its code many times would
  // otherwise reserve for every announcement, at the moment the announcements are held too.
  size_t distinct = 0;
  for (size_t k = 0; k < order.size(); ++k)
    distinct += k == 0 || key(added(order[k].second)) != key(added(order[k - 1].second));
  std::vector<MethodRange> merged;
  merged.reserve(old + distinct);
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
    if (j == order.size() || (i < old && !before(added(order[j].second), into[i]))) put(into[i++]);
    else put(added(order[j++].second));
  }
  into = std::move(merged);
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
// Finish, and applying one again is a no-op (only a range still alive takes it).
// Each unload, in file order, ends every range of its method and start still alive and loaded
// no later than it: the ranges it ends are always a prefix by load time of those not ended
// yet, so per (start, method) the ranges are sorted by load time once and the unloads move
// one cursor through them. Walking every range of a start per unload was quadratic when one
// address range is reused by thousands of dynamic methods.
void MethodMap::ApplyUnloads() {
  if (pendingUnloads_.empty()) return;
  std::vector<uint32_t> unloads(pendingUnloads_.size());
  for (uint32_t i = 0; i < unloads.size(); ++i) unloads[i] = i;
  auto key = [](const MethodRange& r) { return std::make_pair(r.start, r.methodId); };
  // File order within a (start, method): the order the unloads apply in.
  std::stable_sort(unloads.begin(), unloads.end(),
                   [&](uint32_t a, uint32_t b) { return key(pendingUnloads_[a]) < key(pendingUnloads_[b]); });
  // Per start the unloads name: its ranges by (method, load time), then per method a cursor.
  std::vector<uint32_t> atStart;
  auto byMethodThenLoad = [&](uint32_t a, uint32_t b) {
    return std::tie(ranges_[a].methodId, ranges_[a].loadTime, a) < std::tie(ranges_[b].methodId, ranges_[b].loadTime, b);
  };
  for (size_t u = 0, next; u < unloads.size(); u = next) {
    const uint64_t start = pendingUnloads_[unloads[u]].start;
    for (next = u + 1; next < unloads.size() && pendingUnloads_[unloads[next]].start == start;) ++next;
    atStart.clear();
    auto it = std::lower_bound(ranges_.begin(), ranges_.end(), start,
                               [](const MethodRange& r, uint64_t s) { return r.start < s; });
    for (; it != ranges_.end() && it->start == start; ++it) atStart.push_back(static_cast<uint32_t>(it - ranges_.begin()));
    std::sort(atStart.begin(), atStart.end(), byMethodThenLoad);
    for (size_t m = u, mNext; m < next; m = mNext) {
      const uint64_t method = pendingUnloads_[unloads[m]].methodId;
      for (mNext = m + 1; mNext < next && pendingUnloads_[unloads[mNext]].methodId == method;) ++mNext;
      auto first = std::lower_bound(atStart.begin(), atStart.end(), method,
                                    [&](uint32_t r, uint64_t id) { return ranges_[r].methodId < id; });
      auto cursor = first;
      for (size_t j = m; j < mNext; ++j) {
        const uint64_t time = pendingUnloads_[unloads[j]].unloadTime;
        for (; cursor != atStart.end() && ranges_[*cursor].methodId == method && ranges_[*cursor].loadTime <= time; ++cursor)
          if (ranges_[*cursor].unloadTime == kForever) ranges_[*cursor].unloadTime = time;
      }
    }
  }
}

std::vector<MethodNamesRef> MethodMap::InSourceNamesAt(const std::vector<uint64_t>& addresses) const {
  std::vector<MethodNamesRef> out;
  if (!names_.keepsInSource()) return out;
  // Every range holding an address: any of them may name the frame at some time.
  std::vector<uint8_t> taken(ranges_.size());
  index_.ForEachHolding(ranges_, addresses, [&](uint32_t i) {
    const MethodRange& r = ranges_[i];
    if (taken[i] || !r.verbose || !r.names.inSource() || names_.IsLoaded(r.names)) return;
    taken[i] = 1;
    out.push_back(r.names);
  });
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


}  // namespace nettrace
