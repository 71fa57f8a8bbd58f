// core/analysis — the GC and JIT statistics (gc_stats.h, jit_stats.h) as one sink of the
// reading pipeline: it knows which OS process and thread each event belongs to (v6 threads
// name theirs; v4/v5 traces are one process and carry OS thread ids) and forwards the CLR
// runtime events the two analyses read.
#pragma once

#include <unordered_map>
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
  Status OnMetadata(const EventMetadata& m) override {
    // Both analyses must see every metadata (no short-circuit): a redefined id forgets.
    const EventKind kind = types_->KindOf(m.id);
    gc_.OnMetadata(m, kind), jit_.OnMetadata(m, kind);
    return Status::Ok();
  }
  Status OnThread(const ThreadInfo& t) override {
    threads_[t.index] = {t.osProcessId.value_or(0), t.osThreadId.value_or(t.index)};
    return Status::Ok();
  }
  Status OnEvent(const EventRecord& e) override {
    // Most events are of no kind the analyses read: the resolver's one lookup skips them.
    if (!Reads(types_->KindOf(e.metadataId)) && !jit_.ReadsUnkinded(e.metadataId)) return Status::Ok();
    uint64_t process = info_.processId, thread = e.thread;
    if (info_.formatMajor >= 6) {
      auto it = threads_.find(e.thread);
      process = it == threads_.end() ? 0 : it->second.first;
      thread = it == threads_.end() ? e.thread : it->second.second;
    }
    gc_.OnEvent(e, process, thread);
    jit_.OnEvent(e, process, thread);
    return Status::Ok();
  }

  // The kinds GcStats and JitStats read (their OnMetadata's), so that the rundown's many
  // method events cost one lookup here.
  static bool Reads(EventKind k) {
    switch (k) {
      case EventKind::kGcStart: case EventKind::kGcStop: case EventKind::kGcRestartEEStop:
      case EventKind::kGcHeapStats: case EventKind::kGcSuspendEEStop: case EventKind::kGcSuspendEEStart:
      case EventKind::kGcAllocationTick: case EventKind::kGcPerHeapHistory: case EventKind::kMethodLoad:
      case EventKind::kMethodLoadVerbose: case EventKind::kMethodJittingStarted: case EventKind::kModuleLoad:
      case EventKind::kModuleUnload: case EventKind::kRundownModuleDCEnd: return true;
      default: return false;
    }
  }

  const GcStats& gc() const { return gc_; }
  const JitStats& jit() const { return jit_; }

 private:
  const TypeResolver* types_;  // what each metadata id is (the stage before this one)
  TraceInfo info_;
  GcStats gc_;
  JitStats jit_;
  std::unordered_map<uint64_t, std::pair<uint64_t, uint64_t>> threads_;  // v6 index → (pid, tid)
};

}  // namespace nettrace
