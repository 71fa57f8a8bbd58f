#include "verdict/session_comparison.h"

#include "analysis/stack_views.h"
#include "verdict/trace_metrics.h"

namespace nettrace::verdict {

RunMeasures MeasureRun(const TraceModel& model, const StackQuery& query) {
  RunMeasures r;
  StackQuery q = WithDefaultWeight(model, query);
  q.inverted = false;  // paths are compared root first
  r.graph = BuildFlameGraph(model, q);
  TraceViews views(model);
  MetricArgs args;
  args.query = q;
  for (const MetricKind& k : MetricKinds()) {
    if (!k.total) continue;
    if (std::string_view(k.name) == "stacks.total") {  // the graph's own total, not a second graph
      const double total = static_cast<double>(r.graph.total);
      r.totals.push_back(r.graph.unit == WeightUnit::kNanoseconds ? total / 1e6 : total);
    } else {
      r.totals.push_back(k.measure(views, args).value);
    }
  }
  return r;
}

RunComparison CompareMeasuredRuns(const std::vector<RunMeasures>& baseline, const std::vector<RunMeasures>& comparison,
                                  const CompareOptions& options) {
  std::vector<TotalSeries> totals;
  size_t column = 0;
  const RunMeasures* first = !comparison.empty() ? &comparison[0] : !baseline.empty() ? &baseline[0] : nullptr;
  for (const MetricKind& k : MetricKinds()) {
    if (!k.total) continue;
    TotalSeries s{k.name, k.unit, {}, {}};
    if (std::string_view(k.name) == "stacks.total" && first)
      s.unit = first->graph.unit == WeightUnit::kNanoseconds ? "ms" : WeightUnitName(first->graph.unit);
    bool complete = true;
    for (const auto* side : {&baseline, &comparison})
      for (const RunMeasures& r : *side) {
        complete = complete && r.totals[column].has_value();
        if (complete) (side == &baseline ? s.a : s.b).push_back(*r.totals[column]);
      }
    if (complete) totals.push_back(std::move(s));
    ++column;
  }
  std::vector<const FlameGraph*> a, b;
  for (const RunMeasures& r : baseline) a.push_back(&r.graph);
  for (const RunMeasures& r : comparison) b.push_back(&r.graph);
  return CompareRuns(a, b, totals, options);
}

}  // namespace nettrace::verdict
