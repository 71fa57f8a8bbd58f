// core/analysis — one record per GC, as TraceEvent's TraceGC (Analysis.GC, what PerfView's
// GCStats shows), and the totals of its GCStats, built while the file streams by.
//
// TraceEvent pairs the GC events of a process in time order with a small state machine
// (SuspendEEStart for a GC → GC/Start → GC/Stop → GC/HeapStats → RestartEEStop on the
// suspending thread; background GCs end at their HeapStats). The events come from the sorted
// tap (model/sorted_tap.h) in (timestamp, file order); the few involved are kept as compact
// marks (memory grows with the number of GCs and of allocation ticks, never with other
// events) and replayed per process at the end, in the order they came — sorted by time only
// when a late event (a writer's lying IsSorted marks) came out of order:
//   - GC/Start, GC/Stop, GC/HeapStats, GC/PerHeapHistory (sizes per heap), always;
//   - GC/AllocationTick (its amount): TraceEvent estimates allocations between GCs from them
//     when the per-heap history cannot tell (the first GC, background GCs); one tick comes
//     per ~100 KB allocated, so these grow with the allocation volume, as GCs do;
//   - GC/SuspendEEStart with a GC reason (SuspendForGC, SuspendForGCPrep), and the
//     SuspendEEStop / RestartEEStop that follow it on the same thread (a thread's events come
//     in its own time order); the many other suspensions (the sample profiler's) are dropped,
//     as TraceEvent ignores them.
// At most kMaxMarks marks (56 bytes each; HeapStats and PerHeapHistory add a 176-byte detail)
// are kept; beyond that the JSON says how many GC events were not measured.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "analysis/gc_suspension.h"
#include "base/chunked_vector.h"
#include "events/event_kind.h"
#include "format/payload/allocation_tick.h"
#include "format/payload/clr_field_read.h"
#include "format/records.h"
#include "model/sorted_tap.h"

namespace nettrace {

// TraceGC's fields as we compute them (times in ms relative to the trace's sync time, as
// TraceEvent's TimeStampRelativeMSec; sizes in bytes where TraceEvent divides by 1e6).
struct GcRecord {
  uint64_t processId = 0;
  int64_t number = 0;      // GC/Start Count
  int32_t generation = 0;  // GC/Start Depth
  uint32_t type = 0;       // GCType: 0 NonConcurrentGC, 1 BackgroundGC, 2 ForegroundGC
  uint32_t reason = 0;     // GCReason
  bool isComplete = false;
  double startMs = 0, durationMs = 0, pauseStartMs = 0, pauseMs = 0, suspendMs = 0;
  bool hasHeapStats = false;
  uint64_t genSizeAfter[5] = {};  // HeapStats GenerationSize0..4 (Gen0, Gen1, Gen2, LOH, POH)
  uint64_t promoted[5] = {};      // HeapStats TotalPromotedSize0..4
  uint64_t pinnedObjectCount = 0;
  // Sum over heaps of PerHeapHistory SizeBefore per generation (genDataCount generations).
  uint32_t perHeapCount = 0;
  uint32_t genDataCount = 0;
  double genSizeBeforeMB[5] = {};  // summed heap by heap, as TraceEvent does
  // Per heap, per generation: object space before (size - free list - free objects) and
  // object size after (size after - fragmentation), PerHeapHistory GenData v2+.
  std::vector<std::array<int64_t, 10>> heaps;
  // Allocation ticks since the previous GC/HeapStats (MB; [0] small, [1] large and pinned).
  bool hasAllocTicks = false;
  double allocTickMB[2] = {};
  double durationSinceLastRestartMs = 0;
  // TraceGC values computed at the end (OnEnd): allocations and pause share.
  double allocedSinceLastGCMB = 0, allocRateMBSec = 0, pauseTimePercentageSinceLastGC = 0;
  bool isConcurrent = false;        // RestartEE before GC/Stop (TraceGC.IsConcurrentGC)
  // TraceGC.HeapSizeBeforeMB (set for complete GCs, as TraceEvent's OnEnd does).
  double heapSizeBeforeMB = 0;
};

class GcStats {
 public:
  static constexpr size_t kMaxMarks = size_t{1} << 20;

  void OnTraceInfo(const TraceInfo& info) { info_ = info; }
  // The sorted tap's filter (TimeOrderedSink::Keeps): suspensions not for a GC are not read.
  static TapFilterRule FilterRule(EventKind kind) { return GcSuspendFilter::Rule(kind); }
  bool Keeps(const EventRecord& e, const ResolvedEvent& r) { return suspensions_.Keeps(e, r); }
  // A GC's SuspendEEStop and RestartEEStop count by their thread and time alone: the tap need
  // not copy them (TimeOrderedSink::ReadsFromHeader).
  static bool ReadsFromHeader(EventKind kind) {
    return kind == EventKind::kGcSuspendEEStop || kind == EventKind::kGcRestartEEStop;
  }
  // Open while a thread's GC suspension is, or once marks_ is full (every event read then
  // counts as dropped). Closed, a stop or restart would only note that it came late, which
  // changes no result: marks that came in time order sort to the same order.
  const bool* HeaderGate() const { return &headerGate_; }
  // An event of the sorted tap (the kinds ClrStatsSink::ReadsKind lists; others are ignored).
  void OnEvent(const TimeOrderedEvent& e);

  // Replays the marks (once) and returns every GC, per process in ascending process id, each
  // process's GCs in TraceEvent's order.
  const std::vector<GcRecord>& Gcs() const;
  uint64_t marksDropped() const { return dropped_; }

  // {"processes":[{"processId","gcs":[…],"totals":{…},"generations":[…]}]} (docs/views.md).
  std::string ToJson() const;
  // One line per GC, with a header (docs/views.md).
  std::string ToCsv() const;

 private:
  enum class Kind : uint8_t {
    kNone, kSuspendStart, kSuspendStop, kRestartStop, kGcStart, kGcStop, kHeapStats, kPerHeap, kAllocTick
  };
  static Kind KindOf(EventKind resolved);  // the resolver's kinds read here (kNone: every other)
  struct Mark {
    uint64_t timestamp = 0;
    uint64_t processId = 0;
    uint64_t threadId = 0;
    Kind kind = Kind::kNone;
    uint32_t a = 0, b = 0, c = 0;  // Start: reason, depth, type; SuspendStart: reason; AllocTick: kind
    int64_t count = 0;             // Start/Stop: Count; AllocTick: amount in bytes
    uint32_t detail = UINT32_MAX;  // HeapStats / PerHeap: index into details_
    uint32_t ordinal = 0;          // file order: the tie-breaker when late events force a sort
  };
  struct Detail {
    std::array<int64_t, 10> heap{};  // PerHeap: GcRecord::heaps' entry
    uint64_t sizes[5] = {};
    uint64_t promoted[5] = {};
    uint64_t pinned = 0;
    uint32_t genCount = 0;
  };
  // TraceEvent's per-process state while replaying (GCStats' suspend*/allocTick* fields).
  struct ReplayState {
    size_t first = 0;  // the process's first GC in gcs_
    int64_t susGC = -1, susBGC = -1, currentBGC = -1;
    double susTime = -1, susEnd = -1;
    double allocCur[2] = {}, allocAtLast[2] = {}, lastRestartEnd = 0;
    bool hasAllocTicks = false, seenBadTick = false;
  };
  // The integer fields read per event, each placed once per layout (clr_field_read.h).
  struct Fields {
    ClrIntegerField suspendReason{"Reason"}, gcReason{"Reason"}, count{"Count"}, stopCount{"Count"};
    ClrIntegerField depth{"Depth"}, type{"Type"};
    // GC/HeapStats: by name, eleven scans of the template's names per GC.
    ClrIntegerField sizes[5] = {ClrIntegerField{"GenerationSize0"}, ClrIntegerField{"GenerationSize1"},
                                ClrIntegerField{"GenerationSize2"}, ClrIntegerField{"GenerationSize3"},
                                ClrIntegerField{"GenerationSize4"}};
    ClrIntegerField promoted[5] = {ClrIntegerField{"TotalPromotedSize0"}, ClrIntegerField{"TotalPromotedSize1"},
                                   ClrIntegerField{"TotalPromotedSize2"}, ClrIntegerField{"TotalPromotedSize3"},
                                   ClrIntegerField{"TotalPromotedSize4"}};
    ClrIntegerField pinned{"PinnedObjectCount"};
  };
  void Add(const Mark& m);
  bool Admit(const TimeOrderedEvent& x);
  void OnStop(const TimeOrderedEvent& x, Kind kind);
  void Replay() const;  // gc_replay.cc
  void Apply(const Mark& m, ReplayState& s) const;
  void OnRestart(double t, ReplayState& s) const;
  void OnGcStart(const Mark& m, double t, ReplayState& s) const;
  void OnHeapStats(const Mark& m, double t, ReplayState& s) const;
  GcRecord* Current(const ReplayState& s) const;
  double ProcessDuration(const ReplayState& s) const;
  double Ms(uint64_t ts) const;

  TraceInfo info_;
  GcSuspendFilter suspensions_;
  Fields fields_;
  // In chunks (base/chunked_vector.h), not a std::vector: an allocation-heavy trace keeps a
  // mark per tick, and doubling a vector of them copied it into fresh pages at each step
  // (objver4: 42 % of reading's page faults, perf's page-faults event).
  ChunkedVector<Mark> marks_;
  std::vector<Detail> details_;
  uint64_t dropped_ = 0;
  bool late_ = false;  // a late event came: marks_ are not in time order
  std::map<std::pair<uint64_t, uint64_t>, bool> suspended_;  // (process, thread) in a GC suspension
  bool headerGate_ = false;  // HeaderGate: !suspended_.empty() or marks_ full
  mutable bool replayed_ = false;
  mutable std::vector<GcRecord> gcs_;
  // Per process (as gcs_ is ordered): GCStats.ProcessDuration, from the first complete GC's
  // pause start to the last GC/HeapStats.
  mutable std::map<uint64_t, double> processDurationMs_;

 public:
  double ProcessDurationMs(uint64_t processId) const {
    Replay();
    auto it = processDurationMs_.find(processId);
    return it == processDurationMs_.end() ? 0 : it->second;
  }
};

// TraceEvent's OnEnd values of the complete GCs of one process (gcs[first, end)).
void ComputeGcEndValues(std::vector<GcRecord>& gcs, size_t first, size_t end);

// TraceEvent's enum names (GCType, GCReason) for a record's fields; reasons newer than
// TraceEvent's GCReason by the runtime's own names. GcIsInduced: as GCStats.NumInduced counts.
std::string GcTypeName(uint32_t type);
std::string GcReasonName(uint32_t reason);
bool GcIsInduced(uint32_t reason);

// a - b as TraceEvent computes it: C# long arithmetic, unchecked, so a hostile size field
// wraps modulo 2^64 there; here too, in unsigned arithmetic (signed overflow is undefined).
inline int64_t CSharpLongSub(uint64_t a, uint64_t b) { return static_cast<int64_t>(a - b); }

}  // namespace nettrace
