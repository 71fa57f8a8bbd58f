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
    // Both analyses must see every metadata (no short-circuit).
    const bool gcWants = gc_.OnMetadata(m), jitWants = jit_.OnMetadata(m);
    const bool wanted = gcWants || jitWants;
    if (m.id < kDenseIds) {
      if (wanted && m.id >= wanted_.size()) wanted_.resize(m.id + 1);
      if (m.id < wanted_.size()) wanted_[m.id] = wanted;
    }
    return Status::Ok();
  }
  Status OnThread(const ThreadInfo& t) override {
    threads_[t.index] = {t.osProcessId.value_or(0), t.osThreadId.value_or(t.index)};
    return Status::Ok();
  }
  Status OnEvent(const EventRecord& e) override {
    // Most events are of other types: one array lookup skips them (ids beyond the dense
    // range, rare, go to both analyses, which look them up themselves).
    if (e.metadataId < kDenseIds && (e.metadataId >= wanted_.size() || !wanted_[e.metadataId])) return Status::Ok();
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
  static constexpr uint32_t kDenseIds = 1u << 16;
  std::vector<uint8_t> wanted_;  // metadata id → read by either analysis
  TraceInfo info_;
  GcStats gc_;
  JitStats jit_;
  std::unordered_map<uint64_t, std::pair<uint64_t, uint64_t>> threads_;  // v6 index → (pid, tid)
};

}  // namespace nettrace
