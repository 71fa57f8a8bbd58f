// core/analysis — which suspensions a GC statistic reads: a SuspendEEStart whose Reason is
// SuspendForGC (1) or SuspendForGCPrep (6), as TraceEvent's GCStats keeps them, then that
// thread's SuspendEEStop and RestartEEStop. Every other suspension (the sample profiler's, a
// debugger's) is ignored, which the sorted tap's filter (GcSuspendFilter) lets it know
// before it holds the event.
#pragma once

#include <cstdint>

#include "format/payload/clr_field_read.h"
#include "format/records.h"
#include "model/sorted_tap.h"
#include "resolve/type_resolver.h"

namespace nettrace {

inline constexpr uint32_t kSuspendForGC = 1, kSuspendForGCPrep = 6;

inline bool IsGcSuspendReason(uint64_t reason) { return reason == kSuspendForGC || reason == kSuspendForGCPrep; }

// TimeOrderedSink::Keeps for a sink that reads SuspendEEStart only for a GC.
class GcSuspendFilter {
 public:
  static TapFilterRule Rule(EventKind kind) {
    return kind == EventKind::kGcSuspendEEStart ? TapFilterRule::kGcSuspensionsOnly : TapFilterRule::kNone;
  }
  // Only the in-place read: a payload that needs decoding (no template placing Reason) is
  // kept, and the sink decodes it. An absent Reason reads as 0 there too: not a GC's.
  bool Keeps(const EventRecord& e, const ResolvedEvent& r) {
    if (r.kind != EventKind::kGcSuspendEEStart) return true;
    const ClrFieldRead read = reason_.Read(r.definition->clrLayout, e.payload);
    if (read.result == ClrFieldRead::Result::kNotFixed) return true;
    return read.result == ClrFieldRead::Result::kValue && IsGcSuspendReason(read.value);
  }

 private:
  ClrIntegerField reason_{"Reason"};
};

}  // namespace nettrace
