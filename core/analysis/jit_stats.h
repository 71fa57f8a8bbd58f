// core/analysis — one record per jitted method, as TraceEvent's TraceJittedMethod
// (Analysis.JIT, what PerfView's JITStats shows), and the totals of its JITStats.
//
// TraceEvent's pairing: Method/JittingStarted opens a method on its thread; the next
// Method/LoadVerbose or Method/Load flagged Jitted on that thread completes the most recent
// method still open there (or, with none open, is a method of its own with JIT time 0). The
// events come from the sorted tap (model/sorted_tap.h) in (timestamp, file order), so the
// pairing is done while streaming and the methods are created in TraceEvent's list order
// (time order across threads); they are sorted by time at the end only when a late event (a
// writer's lying IsSorted marks) came out of order. Memory: one record per jitted method
// (the result itself).
//
// Multicore JIT (ProfileOptimization): TraceEvent takes the thread of the first private
// ClrMulticoreJit/Common event (Microsoft-Windows-DotNETRuntimePrivate 201, keyword 0x20000)
// whose String1 is GROUPWAIT or JITTHREAD as the process's background JIT thread; a method
// completed on that thread from then on is MulticoreJitBackground. Kept as (thread, time) per
// process and applied when the result is read, so the streaming order does not matter.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "events/event_kind.h"
#include "format/payload/clr_payload_fields.h"
#include "format/records.h"
#include "model/sorted_tap.h"

namespace nettrace {

struct JitRecord {
  uint64_t processId = 0;
  uint64_t threadId = 0;
  uint64_t timestamp = 0;  // of Method/JittingStarted (or of the load, without one)
  uint64_t ordinal = 0;    // the event's ordinal (file order): ties in time keep it
  uint64_t moduleId = 0;
  std::string name;  // Namespace.Name(signature's parameters), as TraceEvent names it
  double startMs = 0, jitTimeMs = 0;
  uint32_t ilSize = 0;
  uint64_t nativeSize = 0;
  uint8_t tier = 0;  // OptimizationTier (MethodFlags bits 7-9), 0 Unknown
  uint64_t versionId = 0;
  bool completed = false;
  bool multicoreJitBackground = false;  // set by JitStats::Methods() (see above)
  uint64_t loadTimestamp = 0;           // of the completing load event
};

class JitStats {
 public:
  void OnTraceInfo(const TraceInfo& info) { info_ = info; }
  // The resolver's kinds these statistics read: method loads, JittingStarted, module loads
  // (for their paths) and the private multicore-JIT event.
  static bool Reads(EventKind k) {
    switch (k) {
      case EventKind::kMethodLoad: case EventKind::kMethodLoadVerbose: case EventKind::kMethodJittingStarted:
      case EventKind::kPrivateMulticoreJit:
        return true;
      default:
        return IsModuleKind(k);
    }
  }
  // An event of the sorted tap (the kinds Reads lists; the others are ignored).
  void OnEvent(const TimeOrderedEvent& e);

  // The methods per process (ascending id), each process's in time order.
  const std::vector<JitRecord>& Methods() const;
  // The module path TraceEvent shows (ModuleILPath of the module's load events).
  std::string ModulePath(uint64_t processId, uint64_t moduleId) const;

  std::string ToJson() const;  // docs/views.md
  std::string ToCsv() const;

 private:
  struct BackgroundThread {
    uint64_t threadId = 0, timestamp = UINT64_MAX;
  };
  static bool IsModuleKind(EventKind k) {
    return k == EventKind::kModuleLoad || k == EventKind::kModuleUnload || k == EventKind::kRundownModuleDCEnd;
  }
  void OnMulticoreJit(ClrPayloadFields& p, uint64_t timestamp, uint64_t processId, uint64_t threadId);
  std::string MethodName(ClrPayloadFields& p);
  double Ms(uint64_t ts) const;
  template <typename Before>
  void Reorder(Before before) const;

  TraceInfo info_;
  // The integer fields read per event, each placed once per layout (clr_field_read.h);
  // one per event kind that reads it, so that alternating kinds do not place it again.
  struct Fields {
    ClrIntegerField moduleOfModule{"ModuleID"}, moduleOfStart{"ModuleID"}, moduleOfLoad{"ModuleID"};
    ClrIntegerField ilSize{"MethodILSize"}, flags{"MethodFlags"}, size{"MethodSize"}, rejit{"ReJITID"};
  } fields_;
  mutable std::vector<JitRecord> methods_;
  mutable bool sorted_ = false;
  bool late_ = false;  // a late event came: methods_ are not in time order
  // Open (not yet loaded) methods per (process, thread), indexes into methods_, newest last.
  // Mutable: Methods() reorders methods_ and moves these indexes with them (Reorder).
  mutable std::unordered_map<uint64_t, std::unordered_map<uint64_t, std::vector<size_t>>> open_;
  std::unordered_map<uint64_t, std::unordered_map<uint64_t, std::string>> modules_;
  std::unordered_map<uint64_t, BackgroundThread> backgroundJit_;  // per process, earliest
  std::string text_;  // a string field being read (its capacity is reused)
};

// TraceEvent's OptimizationTier name; CompilationThreadKind name for a record.
std::string OptimizationTierName(uint8_t tier);
const char* CompilationThreadKindName(const JitRecord& m);

}  // namespace nettrace
