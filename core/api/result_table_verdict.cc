// The shapes of what core/verdict prints: `nettrace check --format json` (CheckResult) and
// `nettrace diff --baseline … --compare …` (RunDiffResult) (api/result_schema.h).
#include "api/result_schema.h"

namespace nettrace::api {

namespace {
constexpr uint8_t S = kShapeRow, N = kNullable, O = kOptional;
}  // namespace

Rows<ResultRow> VerdictResultRows() {
  static const ResultRow rows[] = {
      {"CheckLimit", nullptr, S, "A budget's limits, as its file gives them."},
      {"max", "number", O, nullptr},
      {"min", "number", O, nullptr},
      {"maxIncrease", "number", O, "Relative: the most the mean may grow (the metric's unit; points for shares)."},
      {"maxIncreasePercent", "number", O, "Relative: the most the mean may grow, in % of the baseline's mean."},

      {"CheckVerdict", nullptr, S, "One budget checked on one trace (absolute limits) or against the baseline (relative)."},
      {"budget", "integer", 0, "Index of the budget in its file."},
      {"name", "string", 0, nullptr},
      {"metric", "string", 0, nullptr},
      {"unit", "string", 0, nullptr},
      {"relative", "boolean", 0, "Checked against the baseline's traces (trace is null)."},
      {"trace", "string", N, nullptr},
      {"verdict", "enum:pass|fail|missing", 0, "missing: the trace has nothing to measure (counts as a failure)."},
      {"value", "number", N, "The measured value; relative: the increase of the mean (maxIncreasePercent: in %)."},
      {"limit", "CheckLimit", 0, nullptr},
      {"baselineMean", "number", N, nullptr},
      {"mean", "number", N, nullptr},
      {"pAdjusted", "number", N, "Relative: the Holm-adjusted p-value of Welch's test (null: one trace a side)."},
      {"detail", "string", 0, nullptr},

      {"CheckResult", nullptr, S, "A budget file checked against traces (core/verdict/budget_check.h)."},
      {"passed", "boolean", 0, "Every verdict passed (the exit status is 0)."},
      {"passes", "integer", 0, nullptr},
      {"failures", "integer", 0, nullptr},
      {"alpha", "number", 0, nullptr},
      {"traces", "string[]", 0, nullptr},
      {"baseline", "string[]", 0, nullptr},
      {"verdicts", "CheckVerdict[]", 0, "By budget, then trace."},

      {"RunDiffMethod", nullptr, S, "How the runs were compared."},
      {"test", "enum:welch-t", 0, nullptr},
      {"correction", "enum:holm", 0, nullptr},
      {"alpha", "number", 0, nullptr},
      {"confidence", "number", 0, nullptr},
      {"minShare", "number", 0, nullptr},

      {"RunDiffSide", nullptr, S, "One side's traces, their weight unit and each trace's total weight."},
      {"traces", "string[]", 0, nullptr},
      {"unit", "string", 0, nullptr},
      {"totals", "number[]", 0, nullptr},

      {"RunDiffCompared", nullptr, S,
       "One quantity compared: per-trace values of A and B, means, the difference (B − A) with its confidence interval, "
       "Welch's test and the Holm-adjusted p-value within its family."},
      {"a", "number[]", 0, nullptr},
      {"b", "number[]", 0, nullptr},
      {"meanA", "number", 0, nullptr},
      {"meanB", "number", 0, nullptr},
      {"difference", "number", 0, nullptr},
      {"ciLow", "number", 0, nullptr},
      {"ciHigh", "number", 0, nullptr},
      {"df", "number", 0, nullptr},
      {"p", "number", 0, nullptr},
      {"pAdjusted", "number", 0, nullptr},
      {"tested", "boolean", 0, "Both sides have 2 traces or more and the mean share reaches minShare."},
      {"significant", "boolean", 0, nullptr},

      {"RunDiffFunction", nullptr, S, "A function's shares (fractions of each trace's total) and weights on both sides."},
      {"name", "string", 0, nullptr},
      {"change", "enum:unchanged|grown|shrunk|appeared|disappeared|untested", 0, nullptr},
      {"inclusive", "RunDiffCompared", 0, nullptr},
      {"exclusive", "RunDiffCompared", 0, nullptr},
      {"inclusiveWeight", "RunDiffCompared", 0, "Reported, not tested."},
      {"exclusiveWeight", "RunDiffCompared", 0, nullptr},

      {"RunDiffTotal", nullptr, S, "A runtime view's total per trace (the check metrics marked total)."},
      {"metric", "string", 0, nullptr},
      {"unit", "string", 0, nullptr},
      {"change", "enum:unchanged|grown|shrunk|appeared|disappeared|untested", 0, nullptr},
      {"values", "RunDiffCompared", 0, nullptr},

      {"RunDiffTree", nullptr, S,
       "The merged call tree of every trace (depth-first, children by name), laid out on B's mean inclusive weights."},
      {"layout", "string", 0, nullptr},
      {"frames", "string[]", 0, nullptr},
      {"frame", "integer[]", 0, nullptr},
      {"parent", "integer[]", 0, nullptr},
      {"depth", "integer[]", 0, nullptr},
      {"meanInclusiveA", "number[]", 0, nullptr},
      {"meanInclusiveB", "number[]", 0, nullptr},
      {"meanExclusiveA", "number[]", 0, nullptr},
      {"meanExclusiveB", "number[]", 0, nullptr},
      {"start", "number[]", 0, nullptr},
      {"end", "number[]", 0, nullptr},
      {"shareA", "number[]", 0, "Per node: mean inclusive share (of each trace's total) in A."},
      {"shareB", "number[]", 0, "Per node: mean inclusive share in B."},
      {"delta", "number[]", 0, "Per node: mean inclusive share in B minus that in A."},
      {"ciLow", "number[]", 0, "Per node: the confidence interval of delta (Welch), low end."},
      {"ciHigh", "number[]", 0, "Per node: its high end."},
      {"tested", "boolean[]", 0, "Per node: in the tested family (both sides have 2 traces or more and the mean share reaches minShare; never the root)."},
      {"pAdjusted", "number[]", 0, "Per node: Holm-adjusted p-value over the tree's tested nodes."},
      {"significant", "boolean[]", 0, "Per node: the change is significant (a view greys the others)."},

      {"RunDiffResult", nullptr, S,
       "Many runs a side compared (core/verdict/run_comparison.h): functions (flagged first), runtime totals, the tree."},
      {"method", "RunDiffMethod", 0, nullptr},
      {"baseline", "RunDiffSide", 0, nullptr},
      {"comparison", "RunDiffSide", 0, nullptr},
      {"unitsAgree", "boolean", 0, nullptr},
      {"testedShares", "integer", 0, nullptr},
      {"flaggedFunctions", "integer", 0, nullptr},
      {"flaggedTotals", "integer", 0, nullptr},
      {"functions", "RunDiffFunction[]", 0, nullptr},
      {"totals", "RunDiffTotal[]", 0, nullptr},
      {"tree", "RunDiffTree", 0, nullptr},
  };
  return {rows, sizeof rows / sizeof rows[0]};
}

}  // namespace nettrace::api
