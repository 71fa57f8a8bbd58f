// The metrics a budget can limit (verdict/trace_metrics.h): one row each, measured from the
// view documents the matching command prints (docs/views.md names their fields).
#include <algorithm>
#include <cmath>
#include <cstring>

#include "analysis/stacks/flame_graph.h"
#include "analysis/views/view_format.h"
#include "analysis/views/stack_views.h"
#include "verdict/trace_metrics.h"

namespace nettrace::verdict {

namespace {

Measured Value(double v, std::string note = "") { return {v, std::move(note)}; }
Measured None(std::string why) { return {std::nullopt, std::move(why)}; }

// GCStats sums over the trace's processes (`nettrace gc`'s "totals" and "generations").
double SumTotals(TraceViews& v, const char* key) {
  double sum = 0;
  for (const JsonValue& p : v.Gc().Items("processes"))
    if (const JsonValue* t = p.Find("totals")) sum += t->Number(key);
  return sum;
}

// The pauses of the complete GCs (the GCs GCStats' totals count), every process.
std::vector<uint64_t> PausesNs(TraceViews& v) {
  std::vector<uint64_t> ns;
  for (const JsonValue& p : v.Gc().Items("processes"))
    for (const JsonValue& gc : p.Items("gcs")) {
      const JsonValue* complete = gc.Find("isComplete");
      if (complete && complete->boolean) ns.push_back(static_cast<uint64_t>(std::llround(gc.Number("pauseMs") * 1e6)));
    }
  std::sort(ns.begin(), ns.end());
  return ns;
}

// The pause percentile by the views' nearest-rank rule (analysis/views/view_format.h), on the
// pauses in whole nanoseconds (the document's 6 decimals of a millisecond).
Measured PausePercentile(TraceViews& v, double q) {
  const std::vector<uint64_t> ns = PausesNs(v);
  if (ns.empty()) return None("no complete GC in the trace (GC events need the GC keyword, 0x1)");
  return Value(static_cast<double>(NearestRank(ns, q)) / 1e6, std::to_string(ns.size()) + " GCs");
}

Measured GcCount(TraceViews& v, const MetricArgs&) { return Value(SumTotals(v, "count")); }
Measured Gen2Count(TraceViews& v, const MetricArgs&) {
  double n = 0;
  for (const JsonValue& p : v.Gc().Items("processes"))
    for (const JsonValue& g : p.Items("generations"))
      if (g.Number("generation", -1) == 2) n += g.Number("count");
  return Value(n);
}
Measured PauseP50(TraceViews& v, const MetricArgs&) { return PausePercentile(v, 0.5); }
Measured PauseP99(TraceViews& v, const MetricArgs&) { return PausePercentile(v, 0.99); }
Measured PauseMax(TraceViews& v, const MetricArgs&) {
  const std::vector<uint64_t> ns = PausesNs(v);
  if (ns.empty()) return None("no complete GC in the trace (GC events need the GC keyword, 0x1)");
  return Value(static_cast<double>(ns.back()) / 1e6);
}
Measured PauseTotal(TraceViews& v, const MetricArgs&) { return Value(SumTotals(v, "totalPauseMs")); }
Measured PausedPercent(TraceViews& v, const MetricArgs&) {
  const double duration = SumTotals(v, "processDurationMs");
  if (duration <= 0) return None("no GC interval to measure (fewer than one complete GC with its heap statistics)");
  return Value(100 * SumTotals(v, "totalPauseMs") / duration);
}
Measured AllocatedMB(TraceViews& v, const MetricArgs&) { return Value(SumTotals(v, "totalAllocatedMB")); }
Measured AllocRate(TraceViews& v, const MetricArgs&) {
  const double duration = SumTotals(v, "processDurationMs");
  if (duration <= 0) return None("no GC interval to measure (fewer than one complete GC with its heap statistics)");
  return Value(SumTotals(v, "totalAllocatedMB") / (duration / 1000));
}

// The runtime's unbiased estimate from .NET 10's AllocationSampled events (`nettrace
// allocations` total.bytes); the older GC/AllocationTick ticks are a biased sample, not this
// estimate, so a trace with only those has no value (gc.allocatedMB is GCStats' figure).
Measured AllocationSampledBytes(TraceViews& v, const MetricArgs&) {
  const JsonValue& doc = v.Allocations();
  const JsonValue* source = doc.Find("source");
  if (!source || source->text != "AllocationSampled")
    return None("no AllocationSampled events in the trace (.NET 10+: the AllocationSampling keyword, 0x80000000000)");
  const JsonValue* total = doc.Find("total");
  if (!total) return None("no allocation total in `nettrace allocations`");
  return Value(total->Number("bytes"), std::to_string(static_cast<uint64_t>(total->Number("samples"))) + " samples");
}

Measured JitTime(TraceViews& v, const MetricArgs&) {
  double ms = 0;
  for (const JsonValue& p : v.Jit().Items("processes"))
    if (const JsonValue* t = p.Find("totals")) ms += t->Number("totalJitTimeMs");
  return Value(ms);
}

Measured Exceptions(TraceViews& v, const MetricArgs& a) {
  const JsonValue& doc = v.Exceptions();
  if (a.argument.empty()) return Value(doc.Number("count"));
  for (const JsonValue& t : doc.Items("types"))
    if (const JsonValue* type = t.Find("type"); type && type->text == a.argument) return Value(t.Number("count"));
  return Value(0, "no exception of this type");
}

double WaitMs(TraceViews& v, const char* kind) {
  const JsonValue* k = v.Contention().Find(kind);
  return k ? k->Number("totalNs") / 1e6 : 0;
}
Measured ContentionWait(TraceViews& v, const MetricArgs&) { return Value(WaitMs(v, "lock") + WaitMs(v, "waitHandle")); }
Measured LockWait(TraceViews& v, const MetricArgs&) { return Value(WaitMs(v, "lock")); }

Measured Starvation(TraceViews& v, const MetricArgs&) { return Value(v.ThreadPool().Number("starvationAdjustments")); }

// An activity by "Provider/Name" or by its name alone (then every provider's must agree on
// one: a name two providers use is ambiguous).
Measured Activity(TraceViews& v, const MetricArgs& a, const char* key) {
  const JsonValue* found = nullptr;
  int matches = 0;
  for (const JsonValue& n : v.Activities().Items("names")) {
    const JsonValue* provider = n.Find("provider");
    const JsonValue* name = n.Find("name");
    if (!provider || !name) continue;
    if (a.argument == provider->text + "/" + name->text || a.argument == name->text) found = &n, ++matches;
  }
  if (!found) return None("no activity named '" + a.argument + "' in the trace");
  if (matches > 1) return None("'" + a.argument + "' names activities of several providers: write Provider/Name");
  if (found->Number("finished") == 0) return None("no finished '" + a.argument + "' activity");
  return Value(found->Number(key), std::to_string(static_cast<uint64_t>(found->Number("finished"))) + " finished");
}
Measured ActivityP50(TraceViews& v, const MetricArgs& a) { return Activity(v, a, "p50Ms"); }
Measured ActivityP99(TraceViews& v, const MetricArgs& a) { return Activity(v, a, "p99Ms"); }
Measured ActivityMax(TraceViews& v, const MetricArgs& a) { return Activity(v, a, "maxMs"); }

// A frame pattern's inclusive weight: the flame graph's total when its IncPats adds the
// pattern (only stacks on which some frame matches), against the same selection without it.
struct Inclusive {
  uint64_t matched = 0, total = 0;
  WeightUnit unit = WeightUnit::kSamples;
};
Inclusive PatternWeight(TraceViews& v, const MetricArgs& a) {
  StackQuery q = WithDefaultWeight(v.model(), a.query);
  q.inverted = false;
  Inclusive out;
  const FlameGraph all = BuildFlameGraph(v.model(), q);
  out.total = all.total, out.unit = all.unit;
  std::string& inc = q.transform.includePats;
  inc += (inc.empty() ? "" : ";") + a.argument;
  out.matched = BuildFlameGraph(v.model(), q).total;
  return out;
}
Measured InclusivePercent(TraceViews& v, const MetricArgs& a) {
  const Inclusive w = PatternWeight(v, a);
  if (w.total == 0) return None("the selection has no weight (no " + a.query.event + " events with stacks)");
  return Value(100.0 * static_cast<double>(w.matched) / static_cast<double>(w.total));
}
Measured InclusiveMs(TraceViews& v, const MetricArgs& a) {
  const Inclusive w = PatternWeight(v, a);
  if (w.unit != WeightUnit::kNanoseconds)
    return None(std::string("the selection weighs ") + WeightUnitName(w.unit) +
                ", not time: choose a time weight (thread-time, traceevent-thread-time, wait-time) or the percent metric");
  return Value(static_cast<double>(w.matched) / 1e6);
}
Measured StackTotal(TraceViews& v, const MetricArgs& a) {
  StackQuery q = WithDefaultWeight(v.model(), a.query);
  q.inverted = false;
  const FlameGraph g = BuildFlameGraph(v.model(), q);
  return Value(g.unit == WeightUnit::kNanoseconds ? static_cast<double>(g.total) / 1e6 : static_cast<double>(g.total),
               g.unit == WeightUnit::kNanoseconds ? "ms" : WeightUnitName(g.unit));
}

using A = MetricArgument;

}  // namespace

api::Rows<MetricKind> MetricKinds() {
  // name, unit, argument member, argument, stacks, a comparison total, doc, measure
  static const MetricKind kinds[] = {
      {"gc.count", "count", nullptr, A::kNone, false, true, "complete GCs (`nettrace gc` totals.count, summed over processes)", GcCount},
      {"gc.gen2Count", "count", nullptr, A::kNone, false, true, "complete gen2 GCs (generations[2].count)", Gen2Count},
      {"gc.pauseP50Ms", "ms", nullptr, A::kNone, false, false, "median pause of the complete GCs (nearest rank)", PauseP50},
      {"gc.pauseP99Ms", "ms", nullptr, A::kNone, false, false, "99th-percentile pause of the complete GCs (nearest rank)", PauseP99},
      {"gc.pauseMaxMs", "ms", nullptr, A::kNone, false, false, "longest pause of a complete GC", PauseMax},
      {"gc.pauseTotalMs", "ms", nullptr, A::kNone, false, true, "total pause of the complete GCs (totals.totalPauseMs)", PauseTotal},
      {"gc.pausedPercent", "%", nullptr, A::kNone, false, false,
       "% of the GC interval paused (totals.pausedPercent; several processes: their pauses over their intervals)", PausedPercent},
      {"gc.allocatedMB", "MB", nullptr, A::kNone, false, true, "MB allocated, as GCStats estimates it (totals.totalAllocatedMB)", AllocatedMB},
      {"gc.allocRateMBSec", "MB/s", nullptr, A::kNone, false, false,
       "allocation rate: totalAllocatedMB over the GC interval (totals.processDurationMs)", AllocRate},
      {"allocations.sampledBytes", "bytes", nullptr, A::kNone, false, false,
       "allocated bytes as the runtime estimates them from AllocationSampled events (`nettrace allocations` total.bytes; .NET 10+)",
       AllocationSampledBytes},
      {"jit.timeMs", "ms", nullptr, A::kNone, false, true, "JIT time of the completed methods (totals.totalJitTimeMs)", JitTime},
      {"exceptions.count", "count", "type", A::kOptional, false, true,
       "first-chance exceptions; with \"type\": of that exception type only (exact name)", Exceptions},
      {"contention.waitMs", "ms", nullptr, A::kNone, false, true, "time waited on locks and wait handles (lock + waitHandle totalNs)", ContentionWait},
      {"contention.lockWaitMs", "ms", nullptr, A::kNone, false, false, "time waited on contended locks (Contention/Start–Stop)", LockWait},
      {"threadpool.starvationCount", "count", nullptr, A::kNone, false, false,
       "thread-pool starvation episodes (hill-climbing adjustments with reason Starvation)", Starvation},
      {"activity.p50Ms", "ms", "activity", A::kRequired, false, false,
       "median duration of the finished activities named \"Provider/Name\" (or a name one provider uses)", ActivityP50},
      {"activity.p99Ms", "ms", "activity", A::kRequired, false, false, "99th-percentile duration of an activity (nearest rank)", ActivityP99},
      {"activity.maxMs", "ms", "activity", A::kRequired, false, false, "longest finished activity of that name", ActivityMax},
      {"stacks.inclusivePercent", "%", "pattern", A::kRequired, true, false,
       "% of the selection's weight on stacks where a frame matches the pattern (PerfView's syntax: IncPats)", InclusivePercent},
      {"stacks.inclusiveMs", "ms", "pattern", A::kRequired, true, false,
       "the same as time, for a time weight (thread-time, traceevent-thread-time, wait-time, cpu)", InclusiveMs},
      {"stacks.total", "weight", nullptr, A::kNone, true, true,
       "the selection's total weight: ms for a time weight, else samples or bytes", StackTotal},
  };
  return {kinds, sizeof kinds / sizeof kinds[0]};
}

const MetricKind* FindMetric(std::string_view name) {
  for (const MetricKind& k : MetricKinds())
    if (name == k.name) return &k;
  return nullptr;
}

}  // namespace nettrace::verdict
