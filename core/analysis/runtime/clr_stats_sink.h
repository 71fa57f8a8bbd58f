// core/analysis — the GC and JIT statistics (gc_stats.h, jit_stats.h) as one time-ordered
// sink of the sorted tap (model/sorted_tap.h): it forwards the CLR runtime events the two
// analyses read, in (timestamp, file order), with the OS process and thread each belongs to
// as the resolver knew them when the event was read (v6 threads name theirs; v4/v5 traces
// are one process and carry OS thread ids).
#pragma once

#include "analysis/runtime/gc_stats.h"
#include "analysis/runtime/jit_stats.h"
#include "model/sorted_tap.h"

namespace nettrace {

class ClrStatsSink final : public TimeOrderedSink {
 public:
  void OnTraceInfo(const TraceInfo& info) override {
    gc_.OnTraceInfo(info);
    jit_.OnTraceInfo(info);
  }
  bool Reads(EventKind k) const override { return ReadsKind(k); }
  TapFilterRule FilterRule(EventKind k) const override { return GcStats::FilterRule(k); }  // no JIT kind among them
  bool Keeps(const EventRecord& e, const ResolvedEvent& r) override { return gc_.Keeps(e, r); }
  bool ReadsFromHeader(EventKind k) const override { return GcStats::ReadsFromHeader(k); }  // nor here
  const bool* HeaderGate() const override { return gc_.HeaderGate(); }
  void OnTimeOrdered(const TimeOrderedEvent& e) override {
    if (JitStats::Reads(e.kind)) jit_.OnEvent(e);
    else gc_.OnEvent(e);  // the kinds of the two do not overlap (ReadsKind)
  }

  // The kinds GcStats and JitStats read, so that every other event (most of a trace) is not
  // held by the tap.
  static bool ReadsKind(EventKind k) {
    switch (k) {
      case EventKind::kGcStart: case EventKind::kGcStop: case EventKind::kGcRestartEEStop:
      case EventKind::kGcHeapStats: case EventKind::kGcSuspendEEStop: case EventKind::kGcSuspendEEStart:
      case EventKind::kGcAllocationTick: case EventKind::kGcPerHeapHistory:
        return true;
      default:
        return JitStats::Reads(k);
    }
  }

  const GcStats& gc() const { return gc_; }
  const JitStats& jit() const { return jit_; }

 private:
  GcStats gc_;
  JitStats jit_;
};

}  // namespace nettrace
