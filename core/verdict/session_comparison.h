// core/verdict — a many-run comparison of traces: what each trace contributes, measured while
// it is open (its root-first flame graph under the stack query, and the runtime totals the
// metric table marks `total`), then the runs of both sides compared (run_comparison.h). So
// `nettrace diff --baseline … --compare …` holds one trace's model at a time, whatever
// the number of runs.
#pragma once

#include <optional>
#include <vector>

#include "analysis/call_tree.h"
#include "analysis/flame_graph.h"
#include "model/trace_model.h"
#include "verdict/run_comparison.h"

namespace nettrace::verdict {

struct RunMeasures {
  FlameGraph graph;
  std::vector<std::optional<double>> totals;  // in MetricKinds() order of the `total` rows
};

// `model` with its symbols prepared (read/read_pipeline.h PrepareSymbols).
RunMeasures MeasureRun(const TraceModel& model, const StackQuery& query);

// A total whose value is missing in some trace is left out.
RunComparison CompareMeasuredRuns(const std::vector<RunMeasures>& baseline, const std::vector<RunMeasures>& comparison,
                                  const CompareOptions& options);

}  // namespace nettrace::verdict
