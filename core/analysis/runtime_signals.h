// core/analysis — runtime signals for the summary's "runtime" key, gathered from the sorted
// tap (model/sorted_tap.h: the events in (timestamp, file order)); the summary writes them
// into its JSON. GCs by generation with their pauses, exceptions by type, allocation ticks
// by type, JIT'd methods, lock contentions. Only the few CLR runtime events involved have
// their payloads decoded (format/payload_decoder.h, CLR manifest templates).
//
// GC pauses have one definition, TraceEvent's (TraceGC.PauseDurationMSec, summed per
// generation over complete GCs as GCStats does): WriteJson takes them from the GC statistics
// (analysis/gc_stats.h), the numbers the GC view shows; this sink counts GC/Start events.
// Memory: per-type maps are capped (kMaxTrackedNames distinct names each; later names go
// to "other").
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "analysis/gc_stats.h"
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

  void OnTraceInfo(const TraceInfo& info) override { info_ = info; }
  bool Reads(EventKind kind) const override { return KindOf(kind) != Kind::kNone; }
  // e.processId: the OS process of the event's thread (v4/v5: the trace's process).
  void OnTimeOrdered(const TimeOrderedEvent& e) override;

  // Writes "runtime": {...} into an open object (docs/summary-json.md); the GC pauses by
  // generation are gc's (none: every pause total is 0).
  void WriteJson(JsonWriter& w, const GcStats* gc) const;

 private:
  enum class Kind : uint8_t {
    kNone,
    kGcStart,         // runtime 1
    kAllocationTick,  // runtime 10
    kException,       // runtime 80
    kContention,      // runtime 81
    kJittingStarted,  // runtime 145
    kMethodLoad,      // runtime 141/143
  };
  static Kind KindOf(EventKind resolved);
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
  // The fields read per event, each placed once per layout (clr_field_read.h).
  struct Fields {
    ClrIntegerField depth{"Depth"}, type{"Type"}, gcReason{"Reason"};
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

  uint64_t genCounts_[4] = {};  // GC/Start by Depth (3: beyond 2)
  uint64_t gcs_ = 0, induced_ = 0, background_ = 0;
  std::unordered_map<std::string, Named> exceptions_, allocations_;
  uint64_t exceptionCount_ = 0, otherExceptions_ = 0, otherExceptionBytes_ = 0;
  uint64_t allocationTicks_ = 0, otherAllocations_ = 0, otherAllocationBytes_ = 0;
  uint64_t contentions_ = 0, jittingStarted_ = 0, jittedMethodLoads_ = 0;
};

}  // namespace nettrace
