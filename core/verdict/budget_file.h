// core/verdict — a budget file: the limits a CI job puts on what our views measure in a
// trace (docs/ci.md; its schema is the "budgets" member of `nettrace schema --json`):
//
//   {"budgets": [
//     {"metric": "gc.pauseP99Ms", "max": 20},
//     {"name": "no timeouts", "metric": "exceptions.count", "type": "System.TimeoutException", "max": 0},
//     {"metric": "stacks.inclusivePercent", "pattern": "MyApp!*Parser*", "max": 15,
//      "query": {"event": "Thread/Sample", "weight": "thread-time"}},
//     {"metric": "functions.inclusivePercent", "maxIncrease": 2}
//   ]}
//
// Absolute limits (`max`, `min`) hold for each trace checked. Relative limits (`maxIncrease`,
// `maxIncreasePercent`) compare the checked traces with baseline traces (`check --baseline`)
// and fail only on a significant change (verdict/budget_check.h). The function metrics
// (`functions.inclusivePercent`, `functions.exclusivePercent`) are relative only: no
// function's share may grow by more than maxIncrease points.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "verdict/trace_metrics.h"

namespace nettrace::verdict {

struct Budget {
  size_t index = 0;     // position in the file's list
  std::string name;     // as given, else made from the metric and its argument
  std::string metric;
  const MetricKind* kind = nullptr;  // nullptr for the function metrics
  bool functions = false, exclusive = false;  // functions.inclusivePercent / exclusivePercent
  MetricArgs args;
  std::optional<double> max, min, maxIncrease, maxIncreasePercent;
  bool relative() const { return maxIncrease || maxIncreasePercent; }
};

struct BudgetFile {
  std::vector<Budget> budgets;
  double alpha = 0.05;      // of the relative budgets' tests
  double minShare = 0.001;  // the function metrics' minShare (run_comparison.h)
};

// Parses and checks a budget file; `what` names it in errors ("budgets.json:3:7: …").
Status ParseBudgetFile(std::string_view text, std::string_view what, BudgetFile* out);

// The budget file's description for `nettrace schema --json`: its members, each budget's
// members and every metric (name, unit, argument, doc).
std::string BudgetSchemaJson();
// The whole schema `nettrace schema --json` prints: the request and result tables
// (api/query_options.h SchemaJson) with the budget file's.
std::string SchemaJson();

}  // namespace nettrace::verdict
