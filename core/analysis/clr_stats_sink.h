// core/analysis — the GC and JIT statistics (gc_stats.h, jit_stats.h) as one sink of the
// reading pipeline: it knows which OS process and thread each event belongs to (v6 threads
// name theirs; v4/v5 traces are one process and carry OS thread ids) and forwards the CLR
// runtime events the two analyses read.
#pragma once

#include <unordered_map>

#include "analysis/gc_stats.h"
#include "analysis/jit_stats.h"
#include "format/record_sink.h"

namespace nettrace {

class ClrStatsSink final : public RecordSink {
 public:
  Status OnTraceInfo(const TraceInfo& info) override {
    info_ = info;
    gc_.OnTraceInfo(info);
    jit_.OnTraceInfo(info);
    return Status::Ok();
  }
  Status OnMetadata(const EventMetadata& m) override {
    gc_.OnMetadata(m);
    jit_.OnMetadata(m);
    return Status::Ok();
  }
  Status OnThread(const ThreadInfo& t) override {
    threads_[t.index] = {t.osProcessId.value_or(0), t.osThreadId.value_or(t.index)};
    return Status::Ok();
  }
  Status OnEvent(const EventRecord& e) override {
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

  const GcStats& gc() const { return gc_; }
  const JitStats& jit() const { return jit_; }

 private:
  TraceInfo info_;
  GcStats gc_;
  JitStats jit_;
  std::unordered_map<uint64_t, std::pair<uint64_t, uint64_t>> threads_;  // v6 index → (pid, tid)
};

}  // namespace nettrace
