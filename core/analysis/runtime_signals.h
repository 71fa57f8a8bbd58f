// core/analysis — runtime signals for the summary's "runtime" key, gathered from the sorted
// tap (model/sorted_tap.h: the events in (timestamp, file order)); the summary writes them
// into its JSON. GCs by generation with their pauses, exceptions by type, allocation ticks
// by type, JIT'd methods, lock contentions. Only the few CLR runtime events involved have
// their payloads decoded (format/payload_decoder.h, CLR manifest templates).
//
// Memory: per-type maps are capped (kMaxTrackedNames distinct names each; later names go
// to "other"); GC pauses are paired per process, so the three GC events of each collection
// (SuspendEEStart for a GC, GC/Start, and the RestartEEStop of a thread that suspended for a
// GC) are kept as 32-byte marks, in the time order they come, and paired at the end: memory
// grows with the number of GCs, never with the number of other events, and at most
// kMaxGcMarks marks are kept (beyond, pauses are not measured; GCs are still counted).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "analysis/gc_suspension.h"
#include "base/json_writer.h"
#include "events/event_kind.h"
#include "format/payload/allocation_tick.h"
#include "format/payload/clr_field_read.h"
#include "format/records.h"
#include "model/sorted_tap.h"

namespace nettrace {

class RuntimeSignals final : public TimeOrderedSink {
 public:
  static constexpr size_t kMaxTrackedNames = 10000;  // distinct names kept per map
  static constexpr size_t kTopNames = 100;           // names listed in the JSON
  static constexpr size_t kMaxGcMarks = size_t{1} << 20;  // 32 MiB of pause marks at most

  void OnTraceInfo(const TraceInfo& info) override { info_ = info; }
  bool Reads(EventKind kind) const override { return KindOf(kind) != Kind::kNone; }
  TapFilterRule FilterRule(EventKind kind) const override { return GcSuspendFilter::Rule(kind); }
  bool Keeps(const EventRecord& e, const ResolvedEvent& r) override { return suspensions_.Keeps(e, r); }
  // A restart ends a pause by its thread and time alone (the tap need not copy it).
  bool ReadsFromHeader(EventKind kind) const override { return kind == EventKind::kGcRestartEEStop; }
  // Open while a thread's GC suspension is: any other restart would only note that it came
  // late, which changes no result (marks that came in time order sort to the same order).
  const bool* HeaderGate() const override { return &gcSuspensionOpen_; }
  // e.processId: the OS process of the event's thread (v4/v5: the trace's process).
  void OnTimeOrdered(const TimeOrderedEvent& e) override;

  // Writes "runtime": {...} into an open object (docs/summary-json.md).
  void WriteJson(JsonWriter& w) const;

 private:
  enum class Kind : uint8_t {
    kNone,
    kGcStart,         // runtime 1
    kRestartEEStop,   // runtime 3
    kSuspendEEStart,  // runtime 9
    kAllocationTick,  // runtime 10
    kException,       // runtime 80
    kContention,      // runtime 81
    kJittingStarted,  // runtime 145
    kMethodLoad,      // runtime 141/143
  };
  static Kind KindOf(EventKind resolved);
  struct GcMark {
    uint64_t timestamp = 0;
    uint64_t processId = 0;
    uint64_t thread = 0;  // v4/v5 thread id, v6 thread index
    Kind kind = Kind::kNone;
    uint8_t depth = 0;      // GC/Start: generation (0-2), clamped to 3 ("other")
    uint8_t type = 0;       // GC/Start: 0 non-concurrent, 1 background, 2 foreground
    uint8_t reason = 0;     // GC/Start: GC reason; SuspendEEStart: suspend reason
    uint32_t ordinal = 0;   // file order: the tie-breaker when late events force a sort
  };
  struct Named {
    uint64_t count = 0;
    uint64_t bytes = 0;
  };
  // The entry counted (nullptr: "other", the map being full).
  static Named* Add(std::unordered_map<std::string, Named>* map, uint64_t* otherCount, uint64_t* otherBytes,
                    const std::string& name, uint64_t bytes);
  void AddAllocation(std::span<const uint8_t> typeNameUtf16, uint64_t bytes);
  static void WriteNamed(JsonWriter& w, const char* key, const std::unordered_map<std::string, Named>& map,
                         uint64_t otherCount, uint64_t otherBytes, bool withBytes);

  TraceInfo info_;
  GcSuspendFilter suspensions_;
  // The fields read per event, each placed once per layout (clr_field_read.h).
  struct Fields {
    ClrIntegerField depth{"Depth"}, type{"Type"}, gcReason{"Reason"}, suspendReason{"Reason"};
    ClrIntegerField methodFlags{"MethodFlags"};
    ClrStringField typeName{"TypeName"};
  } fields_;
  bool seenBadTick_ = false;  // allocation_tick.h: this reader's flag
  std::string typeName_;  // an AllocationTick's type name (its capacity reused from event to event)
  // allocations_' entry (nullptr: "other") of each type name by its UTF-16 bytes as read:
  // converting every tick's name to UTF-8 and hashing that cost a tenth of reading an
  // allocation-heavy trace. At most kMaxTrackedNames * 2 spellings; later ones are converted.
  std::unordered_map<std::string, Named*> allocationsByUtf16_;
  std::string utf16Key_;  // the name last looked up (its capacity reused)
  // Its entry in allocationsByUtf16_ (whose value may be nullptr: "other"); none when it is
  // not in the map (a name past the spellings kept).
  std::optional<Named*> lastAllocation_;
  void CountAllocation(Named* counted, uint64_t bytes);
  void AddGcMark(const GcMark& m);

  // In the order they came: (timestamp, file order), unless late_.
  std::vector<GcMark> gcMarks_;
  uint64_t gcMarksDropped_ = 0;
  bool late_ = false;  // a late event (lying IsSorted marks) came: gcMarks_ need a sort by time
  // Threads (process, thread) suspended for a GC whose RestartEEStop has not come yet: only
  // their RestartEEStop events are kept (a thread's events come in its own time order).
  std::map<std::pair<uint64_t, uint64_t>, bool> gcSuspended_;
  bool gcSuspensionOpen_ = false;  // !gcSuspended_.empty()
  uint64_t genCounts_[4] = {};  // GC/Start by Depth (3: beyond 2)
  uint64_t gcs_ = 0, induced_ = 0, background_ = 0;
  std::unordered_map<std::string, Named> exceptions_, allocations_;
  uint64_t exceptionCount_ = 0, otherExceptions_ = 0, otherExceptionBytes_ = 0;
  uint64_t allocationTicks_ = 0, otherAllocations_ = 0, otherAllocationBytes_ = 0;
  uint64_t contentions_ = 0, jittingStarted_ = 0, jittedMethodLoads_ = 0;
};

}  // namespace nettrace
