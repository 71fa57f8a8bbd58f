// GcStats' replay: TraceEvent's GC handlers (TraceLoadedDotNetRuntime.SetupCallbacks in
// TraceManagedProcess.cs) applied to the kept marks, per process, in time order.
#include <algorithm>

#include "analysis/runtime/gc_stats.h"
#include "analysis/runtime/gc_suspension.h"
#include "analysis/runtime/process_time_order.h"

namespace nettrace {

namespace {
constexpr uint32_t kNonConcurrentGC = 0, kBackgroundGC = 1;
constexpr uint32_t kReasonPMFullGC = 12;
}  // namespace

// TraceGarbageCollector.GetCurrentGC: the last GC while incomplete, else the background GC
// in progress.
GcRecord* GcStats::Current(const ReplayState& s) const {
  if (gcs_.size() == s.first) return nullptr;
  if (!gcs_.back().isComplete) return &gcs_.back();
  return s.currentBGC >= 0 ? &gcs_[static_cast<size_t>(s.currentBGC)] : nullptr;
}

// GCStats.ProcessDuration: the first complete GC's pause start to the last GC/HeapStats.
double GcStats::ProcessDuration(const ReplayState& s) const {
  for (size_t i = s.first; i < gcs_.size(); ++i)
    if (gcs_[i].isComplete) return gcs_[i].pauseStartMs == 0.0 ? 0.0 : s.lastRestartEnd - gcs_[i].pauseStartMs;
  return 0.0;
}

void GcStats::Replay() const {
  if (replayed_) return;
  replayed_ = true;
  const std::vector<uint32_t> order = ProcessTimeOrder(marks_, late_);
  ReplayState s;
  uint64_t process = UINT64_MAX;
  for (uint32_t i : order) {
    const Mark& m = marks_[i];
    if (m.processId != process) {
      if (process != UINT64_MAX) processDurationMs_[process] = ProcessDuration(s);
      process = m.processId;
      s = ReplayState{};
      s.first = gcs_.size();
    }
    Apply(m, s);
  }
  if (process != UINT64_MAX) processDurationMs_[process] = ProcessDuration(s);
  // TraceGC.OnEnd's values for complete GCs, process by process (gc_end_values.cc).
  for (size_t begin = 0; begin < gcs_.size();) {
    size_t end = begin;
    while (end < gcs_.size() && gcs_[end].processId == gcs_[begin].processId) ++end;
    ComputeGcEndValues(gcs_, begin, end);
    begin = end;
  }
}

void GcStats::Apply(const Mark& m, ReplayState& s) const {
  const double t = Ms(m.timestamp);
  const int64_t tid = static_cast<int64_t>(m.threadId);
  switch (m.kind) {
    case Kind::kSuspendStart:
      (m.a == kSuspendForGC ? s.susGC : s.susBGC) = tid;
      s.susTime = t;
      break;
    case Kind::kSuspendStop:
      if (tid != s.susBGC && tid != s.susGC) break;
      if (s.susBGC > 0 && s.currentBGC >= 0) gcs_[static_cast<size_t>(s.currentBGC)].suspendMs += t - s.susTime;
      s.susEnd = t;
      break;
    case Kind::kRestartStop:
      if (tid == s.susBGC || tid == s.susGC) OnRestart(t, s);
      break;
    case Kind::kGcStart: OnGcStart(m, t, s); break;
    case Kind::kGcStop:
      if (GcRecord* gc = Current(s)) gc->durationMs = t - gc->startMs;
      break;
    case Kind::kAllocTick: {
      const int64_t amount = ClampAllocationAmount(AllocationTickValue{m.count, m.a, true}, &s.seenBadTick);
      s.hasAllocTicks = true;
      s.allocCur[m.a == 0 ? 0 : 1] += static_cast<double>(amount) / 1000000.0;
      break;
    }
    case Kind::kHeapStats: OnHeapStats(m, t, s); break;
    case Kind::kPerHeap: {
      GcRecord* gc = Current(s);
      if (!gc) break;
      const Detail& d = details_[m.detail];
      if (gc->perHeapCount++ == 0) gc->genDataCount = d.genCount;
      gc->heaps.push_back(d.heap);
      for (uint32_t g = 0; g < 5 && g < d.genCount; ++g) gc->genSizeBeforeMB[g] += static_cast<double>(d.sizes[g]) / 1000000.0;
      break;
    }
    default: break;
  }
}

// RestartEEStop on the suspending thread: the pause ends. A background GC (or a GC restarted
// before its GC/Stop: TraceEvent then marks it concurrent) adds pauses (AddConcurrentPauseTime:
// after a SuspendForGCPrep the pause since it adds, else the pause spans from its start).
void GcStats::OnRestart(double t, ReplayState& s) const {
  if (GcRecord* gc = Current(s)) {
    const bool concurrent = gc->type == kBackgroundGC || gc->durationMs == 0;
    if (gc->type != kBackgroundGC && gc->durationMs == 0) gc->isConcurrent = true;
    if (concurrent) {
      if (s.susBGC > 0) gc->pauseMs += t - s.susTime;
      else gc->pauseMs = t - gc->pauseStartMs;
    } else {
      gc->pauseMs = t - gc->pauseStartMs;
      if (gc->hasHeapStats) gc->isComplete = true;
    }
  }
  s.susTime = -1, s.susBGC = s.susGC = -1;
}

void GcStats::OnGcStart(const Mark& m, double t, ReplayState& s) const {
  // TraceEvent also starts a GC under another kind of suspension; we keep only GC ones.
  if (s.susGC <= 0) return;
  if (gcs_.size() > s.first && gcs_.back().number == m.count) return;  // a repeated GC/Start
  GcRecord gc;
  gc.processId = m.processId, gc.number = m.count, gc.generation = static_cast<int32_t>(m.b);
  gc.reason = m.a, gc.type = m.c;
  const bool ephemeralAtBgcStart = gcs_.size() > s.first && gcs_.back().type == kBackgroundGC &&
                                   !gcs_.back().isComplete && m.c == kNonConcurrentGC;
  if (ephemeralAtBgcStart || gc.reason == kReasonPMFullGC) {
    gc.pauseStartMs = t;
    if (gc.reason == kReasonPMFullGC)
      if (GcRecord* last = Current(s)) last->isComplete = true;
  } else {
    gc.pauseStartMs = s.susTime;
    if (s.susEnd == -1) s.susEnd = t;
    gc.suspendMs = s.susEnd - s.susTime;
  }
  gc.startMs = t;
  if (gc.type == kBackgroundGC) {
    s.currentBGC = static_cast<int64_t>(gcs_.size());
    gc.pauseMs = gc.suspendMs;  // its first suspension, before AddConcurrentPauseTime
  }
  gcs_.push_back(gc);
}

// GC/HeapStats: sizes after; the allocation ticks since the last one; a background GC ends.
void GcStats::OnHeapStats(const Mark& m, double t, ReplayState& s) const {
  GcRecord* gc = Current(s);
  if (gc) {
    gc->durationSinceLastRestartMs = (gc->type == kBackgroundGC ? t : gc->pauseStartMs) - s.lastRestartEnd;
    if (s.hasAllocTicks) {
      gc->hasAllocTicks = true;
      for (int k = 0; k < 2; ++k) gc->allocTickMB[k] = s.allocCur[k] - s.allocAtLast[k];
    }
  }
  s.allocAtLast[0] = s.allocCur[0], s.allocAtLast[1] = s.allocCur[1], s.lastRestartEnd = t;
  if (!gc) return;
  const Detail& d = details_[m.detail];
  gc->hasHeapStats = true;
  std::copy(std::begin(d.sizes), std::end(d.sizes), gc->genSizeAfter);
  std::copy(std::begin(d.promoted), std::end(d.promoted), gc->promoted);
  gc->pinnedObjectCount = d.pinned;
  if (gc->type == kBackgroundGC && s.currentBGC >= 0) {  // where a background GC ends
    gcs_[static_cast<size_t>(s.currentBGC)].isComplete = true;
    s.currentBGC = -1;
  }
  if (gc->isConcurrent) gc->isComplete = true;
}

}  // namespace nettrace
