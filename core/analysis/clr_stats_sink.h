// core/analysis — the GC and JIT statistics (gc_stats.h, jit_stats.h) as one sink of the
// reading pipeline: it forwards the CLR runtime events the two analyses read with the OS
// process and thread each belongs to — the resolver's thread (v6 threads name theirs; v4/v5
// traces are one process and carry OS thread ids).
#pragma once

#include <vector>

#include "analysis/gc_stats.h"
#include "analysis/jit_stats.h"
#include "format/record_sink.h"
#include "resolve/type_resolver.h"

namespace nettrace {

class ClrStatsSink final : public RecordSink {
 public:
  explicit ClrStatsSink(const TypeResolver* types) : types_(types) {}
  Status OnTraceInfo(const TraceInfo& info) override {
    info_ = info;
    gc_.OnTraceInfo(info);
    jit_.OnTraceInfo(info);
    return Status::Ok();
  }
  Status OnEvent(const EventRecord& e) override {
    // Most events are of no kind the analyses read: the resolver's one lookup skips them.
    const EventKind kind = types_->current().kind;
    if (!Reads(kind)) return Status::Ok();
    uint64_t process = info_.processId, thread = e.thread;
    if (info_.formatMajor >= 6) {
      const ResolvedEvent& r = types_->current();
      const ThreadEntry* t = r.threadKnown ? &types_->threads()[r.thread] : nullptr;
      process = t ? t->processId.value_or(0) : 0;
      thread = t ? t->osThreadId.value_or(e.thread) : e.thread;
    }
    gc_.OnEvent(e, kind, *types_, process, thread);
    jit_.OnEvent(e, kind, types_->MetadataOf(e.metadataId), process, thread);
    return Status::Ok();
  }

  // The kinds GcStats and JitStats read, so that every other event (most of a trace) costs
  // one switch here.
  static bool Reads(EventKind k) {
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
  const TypeResolver* types_;  // what each metadata id is (the stage before this one)
  TraceInfo info_;
  GcStats gc_;
  JitStats jit_;
};

}  // namespace nettrace
