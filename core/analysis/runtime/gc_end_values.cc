// TraceGC.OnEnd's derived values (TraceEvent Analysis.GC): heap size before, allocations since
// the previous GC and their rate, and the pause's share of the time since the previous GC —
// computed, as TraceEvent does, for complete GCs from the GC and the one before it.
#include <algorithm>

#include "analysis/runtime/gc_stats.h"

namespace nettrace {

namespace {
constexpr uint32_t kBackgroundGC = 1;
constexpr int kGen0 = 0, kLoh = 3;

bool ValidGenData(const GcRecord& gc, int gen) { return gc.perHeapCount > 0 && gc.genDataCount > static_cast<uint32_t>(gen); }

// GetGenSizeBeforeMB: the per-heap histories' SizeBefore when they cover the generation; else
// the size after of the latest earlier GC with HeapStats — searched down to index 1 only, as
// TraceEvent's loop returns 0 on reaching index 0 — and for Gen0 at least the allocation ticks;
// for LOH and POH at least the GC's own size after, when it has HeapStats (a background GC
// without per-heap histories during which the LOH grew: its size before is not below it).
double GenSizeBeforeMB(const GcRecord* gcs, size_t index, int gen) {
  const GcRecord& gc = gcs[index];
  if (ValidGenData(gc, gen)) return gc.genSizeBeforeMB[gen];
  const double gen0Ticks = gen == kGen0 ? gc.allocTickMB[0] : 0.0;
  if (index == 0) return gen0Ticks;
  for (size_t j = index - 1;; --j) {
    if (j == 0) return 0;
    if (!gcs[j].hasHeapStats) continue;
    const uint64_t previous = gcs[j].genSizeAfter[gen];
    if (gen == kGen0) return std::max(static_cast<double>(previous) / 1000000.0, gen0Ticks);
    if (gen >= kLoh && gc.hasHeapStats) return static_cast<double>(std::max(previous, gc.genSizeAfter[gen])) / 1000000.0;
    return static_cast<double>(previous) / 1000000.0;
  }
}

// GetUserAllocatedPerHeap (PerHeapHistory v2+): this GC's object space before minus the
// previous GC's object size after (for LOH/POH after a gen0 GC, which leaves their "after"
// unset, the previous GC's object space before).
double UserAllocatedPerHeap(const GcRecord* gcs, size_t index, size_t heap, int gen) {
  const GcRecord& gc = gcs[index];
  if (!ValidGenData(gc, gen)) return 0;
  int64_t prev = 0;
  if (index > 0) {
    const GcRecord& p = gcs[index - 1];
    if (!p.heaps.empty() && heap < p.heaps.size()) {
      prev = p.heaps[heap][5 + gen];
      if (gen >= kLoh && prev == 0 && p.generation < 1) prev = p.heaps[heap][gen];
    }
  }
  return static_cast<double>(CSharpLongSub(static_cast<uint64_t>(gc.heaps[heap][gen]), static_cast<uint64_t>(prev)));
}

// GetUserAllocated for Gen0, LOH or POH: the per-heap histories of this GC and the one before
// when both have them; else the allocation ticks (small ones for Gen0, the others for LOH —
// and for POH too, as TraceEvent counts them).
double UserAllocatedMB(const GcRecord* gcs, size_t index, int gen) {
  const GcRecord& gc = gcs[index];
  if (gc.type == kBackgroundGC && gen == kGen0) return gc.allocTickMB[0];
  if (gc.perHeapCount > 0 && index > 0 && gcs[index - 1].perHeapCount > 0) {
    double total = 0;
    for (size_t h = 0; h < gc.heaps.size(); ++h) total += UserAllocatedPerHeap(gcs, index, h, gen) / 1000000.0;
    return total;
  }
  return gc.allocTickMB[gen == kGen0 ? 0 : 1];
}

// GetPauseTimePercentageSinceLastGC.
double PauseTimePercentage(const GcRecord* gcs, size_t index) {
  const GcRecord& gc = gcs[index];
  if (gc.type == kBackgroundGC) {
    const double previousStop = index > 0 ? gcs[index - 1].startMs + gcs[index - 1].durationMs : gcs[0].startMs;
    return gc.pauseMs * 100 / ((gc.startMs + gc.durationMs) - previousStop);
  }
  return gc.pauseMs * 100 / (gc.pauseMs + gc.durationSinceLastRestartMs);
}
}  // namespace

void ComputeGcEndValues(std::vector<GcRecord>& all, size_t first, size_t end) {
  GcRecord* gcs = all.data() + first;
  for (size_t i = 0; i < end - first; ++i) {
    GcRecord& gc = gcs[i];
    if (!gc.isComplete) continue;
    gc.allocedSinceLastGCMB = UserAllocatedMB(gcs, i, 0) + UserAllocatedMB(gcs, i, 3) + UserAllocatedMB(gcs, i, 4);
    gc.allocRateMBSec = gc.allocedSinceLastGCMB * 1000.0 / gc.durationSinceLastRestartMs;
    double before = 0;
    for (int g = 0; g < 5; ++g) before += GenSizeBeforeMB(gcs, i, g);
    gc.heapSizeBeforeMB = before;
    gc.pauseTimePercentageSinceLastGC = PauseTimePercentage(gcs, i);
  }
}

}  // namespace nettrace
