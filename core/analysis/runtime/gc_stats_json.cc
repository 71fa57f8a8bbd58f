// GcStats' JSON and CSV forms (docs/views.md): per process the GCs as TraceEvent's TraceGC and
// the totals as its GCStats (TraceGarbageCollector.Calculate: complete GCs only).
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "analysis/runtime/gc_stats.h"
#include "base/json_writer.h"

namespace nettrace {

namespace {
const char* const kGenNames[5] = {"gen0", "gen1", "gen2", "loh", "poh"};

struct Totals {
  uint64_t count = 0, induced = 0;
  double maxPauseMs = 0, totalPauseMs = 0, maxSuspendMs = 0, totalAllocatedMB = 0, maxAllocRateMBSec = 0;
};

// A double TraceEvent may compute as NaN or ±Infinity (a zero interval): null then.
void Number(JsonWriter& w, double v) {
  if (std::isfinite(v)) w.Fixed(v, 6);
  else w.Null();
}

void AddTo(Totals* t, const GcRecord& gc) {
  ++t->count;
  if (GcIsInduced(gc.reason)) ++t->induced;  // GCStats.NumInduced
  t->totalPauseMs += gc.pauseMs;
  t->maxPauseMs = std::max(t->maxPauseMs, gc.pauseMs);
  t->maxSuspendMs = std::max(t->maxSuspendMs, gc.suspendMs);
  t->totalAllocatedMB += gc.allocedSinceLastGCMB;
  t->maxAllocRateMBSec = std::max(t->maxAllocRateMBSec, gc.allocRateMBSec);
}

void WriteTotals(JsonWriter& w, const Totals& t) {
  w.Key("count").UInt(t.count);
  w.Key("induced").UInt(t.induced);
  w.Key("totalPauseMs").Fixed(t.totalPauseMs, 6);
  w.Key("maxPauseMs").Fixed(t.maxPauseMs, 6);
  w.Key("meanPauseMs").Fixed(t.count ? t.totalPauseMs / static_cast<double>(t.count) : 0.0, 6);
  w.Key("maxSuspendMs").Fixed(t.maxSuspendMs, 6);
  w.Key("totalAllocatedMB");
  Number(w, t.totalAllocatedMB);
  w.Key("maxAllocRateMBSec");
  Number(w, t.maxAllocRateMBSec);
}

uint64_t Sum(const uint64_t (&v)[5]) { return v[0] + v[1] + v[2] + v[3] + v[4]; }

void WriteGc(JsonWriter& w, const GcRecord& gc) {
  w.BeginObject();
  w.Key("number").Int(gc.number);
  w.Key("generation").Int(gc.generation);
  w.Key("type").String(GcTypeName(gc.type));
  w.Key("reason").String(GcReasonName(gc.reason));
  w.Key("isInduced").Bool(GcIsInduced(gc.reason));
  w.Key("isComplete").Bool(gc.isComplete);
  w.Key("startMs").Fixed(gc.startMs, 6);
  w.Key("durationMs").Fixed(gc.durationMs, 6);
  w.Key("pauseStartMs").Fixed(gc.pauseStartMs, 6);
  w.Key("pauseMs").Fixed(gc.pauseMs, 6);
  w.Key("suspendMs").Fixed(gc.suspendMs, 6);
  w.Key("heapSizeBeforeMB");
  Number(w, gc.heapSizeBeforeMB);
  w.Key("allocedSinceLastGCMB");
  Number(w, gc.allocedSinceLastGCMB);
  w.Key("allocRateMBSec");
  Number(w, gc.allocRateMBSec);
  w.Key("pauseTimePercentageSinceLastGC");
  Number(w, gc.pauseTimePercentageSinceLastGC);
  w.Key("heapSizeAfterBytes");
  if (gc.hasHeapStats) w.UInt(Sum(gc.genSizeAfter));
  else w.Null();
  w.Key("promotedBytes");
  if (gc.hasHeapStats) w.UInt(Sum(gc.promoted));
  else w.Null();
  w.Key("genSizeAfterBytes");
  if (gc.hasHeapStats) {
    w.BeginObject();
    for (int g = 0; g < 5; ++g) w.Key(kGenNames[g]).UInt(gc.genSizeAfter[g]);
    w.EndObject();
  } else {
    w.Null();
  }
  w.Key("pinnedObjectCount");
  if (gc.hasHeapStats) w.UInt(gc.pinnedObjectCount);
  else w.Null();
  w.EndObject();
}
}  // namespace

std::string GcStats::ToJson() const {
  const std::vector<GcRecord>& gcs = Gcs();
  JsonWriter w;
  w.BeginObject().Key("processes").BeginArray();
  for (size_t begin = 0; begin < gcs.size();) {
    size_t end = begin;
    while (end < gcs.size() && gcs[end].processId == gcs[begin].processId) ++end;
    Totals all, gens[3];
    for (size_t i = begin; i < end; ++i) {
      if (!gcs[i].isComplete) continue;
      AddTo(&all, gcs[i]);
      if (gcs[i].generation >= 0 && gcs[i].generation <= 2) AddTo(&gens[gcs[i].generation], gcs[i]);
    }
    w.BeginObject().Key("processId").UInt(gcs[begin].processId);
    w.Key("totals").BeginObject();
    WriteTotals(w, all);
    // GCStats.GetGCPauseTimePercentage: total pause over ProcessDuration (the first complete
    // GC's pause start to the last GC/HeapStats).
    const double duration = ProcessDurationMs(gcs[begin].processId);
    w.Key("processDurationMs").Fixed(duration, 6);
    w.Key("pausedPercent").Fixed(duration == 0 ? 0.0 : all.totalPauseMs * 100 / duration, 6);
    w.EndObject();
    w.Key("generations").BeginArray();
    for (int g = 0; g < 3; ++g) {
      w.BeginObject().Key("generation").UInt(static_cast<uint64_t>(g));
      WriteTotals(w, gens[g]);
      w.EndObject();
    }
    w.EndArray();
    w.Key("gcs").BeginArray();
    for (size_t i = begin; i < end; ++i) WriteGc(w, gcs[i]);
    w.EndArray().EndObject();
    begin = end;
  }
  w.EndArray();
  if (marksDropped()) w.Key("eventsNotMeasured").UInt(marksDropped());
  w.EndObject();
  return w.Take();
}

std::string GcStats::ToCsv() const {
  std::string out =
      "processId,number,generation,type,reason,isInduced,isComplete,startMs,durationMs,pauseStartMs,pauseMs,"
      "suspendMs,heapSizeBeforeMB,allocedSinceLastGCMB,allocRateMBSec,pauseTimePercentageSinceLastGC,heapSizeAfterBytes,promotedBytes,gen0AfterBytes,gen1AfterBytes,gen2AfterBytes,"
      "lohAfterBytes,pohAfterBytes,pinnedObjectCount\n";
  char buf[64];
  auto fixed = [&](double v) {
    if (!std::isfinite(v)) return std::string();
    std::snprintf(buf, sizeof buf, "%.6f", v);
    return std::string(buf);
  };
  for (const GcRecord& gc : Gcs()) {
    out += std::to_string(gc.processId) + ',' + std::to_string(gc.number) + ',' + std::to_string(gc.generation) + ',' +
           GcTypeName(gc.type) + ',' + GcReasonName(gc.reason) + ',' + (GcIsInduced(gc.reason) ? "true" : "false") +
           ',' + (gc.isComplete ? "true" : "false") + ',' + fixed(gc.startMs) + ',' + fixed(gc.durationMs) + ',' +
           fixed(gc.pauseStartMs) + ',' + fixed(gc.pauseMs) + ',' + fixed(gc.suspendMs) + ',' +
           fixed(gc.heapSizeBeforeMB) + ',' + fixed(gc.allocedSinceLastGCMB) + ',' + fixed(gc.allocRateMBSec) + ',' +
           fixed(gc.pauseTimePercentageSinceLastGC);
    if (gc.hasHeapStats) {
      out += ',' + std::to_string(Sum(gc.genSizeAfter)) + ',' + std::to_string(Sum(gc.promoted));
      for (uint64_t s : gc.genSizeAfter) out += ',' + std::to_string(s);
      out += ',' + std::to_string(gc.pinnedObjectCount);
    } else {
      out += ",,,,,,,,";
    }
    out += '\n';
  }
  return out;
}

}  // namespace nettrace
