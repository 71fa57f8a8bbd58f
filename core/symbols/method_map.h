// core/symbols — managed code ranges announced by the runtime itself (MethodLoad(Verbose),
// MethodUnload(Verbose), and the rundown's MethodDCStart/DCEnd(Verbose)), resolvable by
// address at an event's time. JIT-compiled code lives only between its load and unload
// events, and addresses of unloaded (collectible) code may be reused, so each range keeps
// its lifetime; rundown ranges are taken as alive over the whole trace (DCStart lists what
// existed before the session began, DCEnd what still exists at its end).
// Invariant after Finish(): ranges_ sorted by start address, identical announcements of
// one code body merged into one range.
#pragma once

#include <cstdint>
#include <vector>

#include "symbols/method_names.h"
#include "symbols/method_range.h"
#include "symbols/overlap_index.h"

namespace nettrace {

class MethodMap {
 public:
  // A MethodLoad / rundown announcement; `timestamp` 0 means "before the trace".
  // Inline: a rundown adds a hundred thousand ranges, and the call cost 17 instructions of
  // each (HeartRateMonitor, callgrind).
  void AddLoad(const MethodRange& range) {
    if (range.size == 0) return;  // nothing can resolve into an empty range
    if (added_.empty() || added_.back().size() == kAddedBlock) NewAddedBlock();
    added_.back().push_back(range);
    finished_ = false;
  }
  // MethodUnload(Verbose): the code at `start` of `methodId` stops existing at `timestamp`.
  void AddUnload(uint64_t methodId, uint64_t start, uint64_t timestamp);
  // Sorts and merges; call once after the last Add (later Adds need another Finish(), which
  // sorts only the ranges added since and merges them in).
  void Finish();

  // The range holding `address` at time `timestamp` (ticks): the most recently loaded one
  // alive then; failing that, the last in address order of those holding it (a sample racing
  // its load event). nullptr when no range holds the address. *span (optional): the times
  // over which the same range is the answer (all time unless ranges overlap there).
  // O(log² n) whatever the overlap (overlap_index.h).
  //
  // TraceEvent names an address once for the whole trace instead (TraceLog.cs,
  // TraceCodeAddresses.AddMethod and ForAllUnresolvedCodeAddressesInRange): each
  // MethodUnloadVerbose or rundown MethodDCStopVerbose names the addresses in its range seen
  // in stacks so far and not named yet, and at the end of the trace the JIT'd methods'
  // MethodLoadVerbose events, in load order, name the rest ("If we already resolved, that
  // means that the address was reused, so only add something if it does not already have
  // information associated with it"). The two agree whenever one method holds an address
  // while it is sampled; where code was unloaded and its addresses reused, TraceEvent names
  // the later samples by the first method, we by the method alive at each sample.
  const MethodRange* Find(uint64_t address, uint64_t timestamp, TimeSpan* span = nullptr) const {
    const uint32_t i = index_.Find(ranges_, address, timestamp, span);
    return i == OverlapIndex::kNone ? nullptr : &ranges_[i];
  }

  // Names kept in source (MethodNamePool): the refs still to load of the ranges holding any
  // of these addresses (sorted ascending), after Finish. Empty once every such range's
  // names are copied (or known to be unterminated).
  std::vector<MethodNamesRef> InSourceNamesAt(const std::vector<uint64_t>& addresses) const;
  // After names were loaded (MethodNamePool::Load): each range takes its copy; a range whose
  // names were not terminated has none, as if it had been announced without names, and
  // borrows them as such a range does. Its new ref may need loading in turn.
  void TakeLoadedNames();

  const std::vector<MethodRange>& ranges() const { return ranges_; }
  size_t size() const { return ranges_.size(); }
  // Bytes held for ranges: the sorted ones and those added since (capacity, as allocated).
  size_t residentBytes() const;
  // Where AddLoad's ranges keep their names, and how a frame decodes them.
  MethodNamePool& names() { return names_; }
  const MethodNamePool& names() const { return names_; }

 private:
  void NewAddedBlock();
  // Sorts the added ranges and merges their repeated announcements among themselves, in
  // place of added_ (ranges_ and the index built over it are left as the last Finish made them).
  void CompactAdded();
  // Merges added_ (sorted, file order for equal keys) into `into`, which is sorted and merged.
  void MergeAddedInto(std::vector<MethodRange>& into);
  void MergeNewRanges();
  void BorrowNames();
  void ApplyUnloads();

  std::vector<MethodRange> ranges_;  // sorted and merged (Finish)
  // Ranges added since, in file order, in blocks of kAddedBlock that are never reallocated:
  // one growing vector moved every range again at each doubling (a rundown's hundred
  // thousand 72-byte ranges, a twentieth of reading a rundown-heavy trace).
  static constexpr size_t kAddedBlock = 4096;
  std::vector<std::vector<MethodRange>> added_;
  // Every block of added_ but the last is full.
  size_t AddedCount() const { return added_.empty() ? 0 : (added_.size() - 1) * kAddedBlock + added_.back().size(); }
  // A trace that announces its code again and again (a rundown at every rotation of a
  // long-running session, a trace written several times back to back) kept every
  // announcement until Finish: 72 bytes each, most of the memory of a rundown-heavy trace's
  // read. Once the added ranges reach kCompactAt and twice what the last compaction left,
  // they are merged among themselves, so they hold about what their distinct code bodies
  // need; the doubling keeps the extra sorting O(n log n) where every range is distinct.
  static constexpr size_t kCompactAt = size_t{1} << 18;
  size_t compacted_ = 0;  // AddedCount() after the last compaction
  MethodNamePool names_;
  OverlapIndex index_;  // Find's, over ranges_ (built by Finish)
  // Unloads seen before their load (file order is not time order across threads).
  std::vector<MethodRange> pendingUnloads_;
  bool finished_ = true;
};

}  // namespace nettrace
