// core/verdict — a budget file checked against traces: one verdict per budget and trace for
// the absolute limits (max, min), one per budget for the relative ones (the checked traces
// against the baseline's). A relative limit fails only when it is exceeded and the change is
// significant: Welch's test of the per-trace values (welch_test.h), Holm-corrected across the
// file's relative budgets; function budgets use the many-run comparison's own correction
// across functions (run_comparison.h). With a single trace on either side there is no test:
// the difference alone decides (and the verdict says so).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "analysis/flame_graph.h"
#include "base/status.h"
#include "model/trace_model.h"
#include "verdict/budget_file.h"

namespace nettrace::verdict {

enum class Outcome : uint8_t { kPass, kFail, kMissing };
const char* OutcomeName(Outcome o);  // "pass", "fail", "missing"

struct Verdict {
  size_t budget = 0;       // index into the file's budgets
  std::string trace;       // the checked trace (absolute limits); "" for a relative verdict
  std::optional<double> value;  // the measured value (relative: the increase, in the limit's unit)
  Outcome outcome = Outcome::kPass;
  std::string limit;   // "max 20", "maxIncrease 2"
  std::string detail;  // how the value compares, or why there is none
  // Relative verdicts: the means of the two sides and the test.
  std::optional<double> baselineMean, mean, pAdjusted;
};

// What the budgets need of one trace, measured while it is open (so that many traces can be
// checked one at a time): each budget's value, and each function budget's flame graph.
struct TraceMeasures {
  std::string name;
  std::vector<Measured> values;   // per budget (functions budgets: none)
  std::vector<FlameGraph> graphs;  // per budget: its root-first flame graph (functions budgets only)
};
// `model` with its symbols prepared (read/read_pipeline.h PrepareSymbols).
TraceMeasures MeasureBudgets(const BudgetFile& file, const TraceModel& model, const std::string& name);

struct CheckReport {
  const BudgetFile* file = nullptr;
  std::vector<std::string> traces, baseline;
  std::vector<Verdict> verdicts;  // by budget, then trace
  size_t passed = 0, failed = 0;  // a missing value counts as failed
  bool ok() const { return failed == 0; }
};

// Checks every budget. A relative budget without baseline traces is an invalid-argument error
// (nothing is checked then).
Status CheckBudgets(const BudgetFile& file, const std::vector<TraceMeasures>& checked,
                    const std::vector<TraceMeasures>& baseline, CheckReport* out);

}  // namespace nettrace::verdict
