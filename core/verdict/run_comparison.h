// core/verdict — many runs against many: which functions, call paths and runtime totals
// changed between a baseline's traces (A) and a comparison's (B), with the noise between runs
// of one side taken into account. Per trace, a function's inclusive and exclusive share (of
// that trace's total weight) and its weight; per side the mean; per function Welch's test
// (welch_test.h) of the shares, its confidence interval, and Holm's correction over the
// family of every function share tested (inclusive and exclusive together), so that a
// comparison of two sides without a real change flags nothing in at least 1 − alpha of cases.
// Only shares whose mean over all traces reaches `minShare` are tested: a filter blind to the
// side labels, which keeps the family small without biasing the tests (Bourgon, Gentleman &
// Huber, PNAS 107:9546, 2010). The call-path tree (the differential flame graph of the means)
// is tested the same way, node by node, as a family of its own; so are the runtime totals.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "analysis/stacks/merged_tree.h"
#include "verdict/welch_test.h"

namespace nettrace::verdict {

struct CompareOptions {
  double alpha = 0.05;       // family-wise error rate of each family
  double confidence = 0.95;  // of the intervals
  double minShare = 0.001;   // mean share over all traces below which a share is not tested
};

enum class Change : uint8_t { kUnchanged, kGrown, kShrunk, kAppeared, kDisappeared, kUntested };
const char* ChangeName(Change c);  // "unchanged", "grown", …

// One quantity compared: its per-trace values on each side and the test.
struct Compared {
  std::vector<double> a, b;
  WelchResult test;
  double pAdjusted = 1;   // Holm, within its family (1 when not tested)
  bool tested = false;    // passed the minShare filter and has ≥ 2 traces a side
  bool significant = false;
};

struct FunctionChange {
  uint32_t frame = 0;  // MergedTree::names
  Compared inclusive, exclusive;              // shares (fractions of each trace's total)
  Compared inclusiveWeight, exclusiveWeight;  // the same in weight units (reported, not tested)
  Change change = Change::kUnchanged;
};

// A runtime view's total per trace (gc.pauseTotalMs, …: verdict/trace_metrics.h).
struct TotalSeries {
  std::string metric, unit;
  std::vector<double> a, b;
};
struct TotalChange {
  std::string metric, unit;
  Compared values;
  Change change = Change::kUnchanged;
};

struct RunComparison {
  CompareOptions options;
  size_t nA = 0, nB = 0;
  MergedTree tree;  // traces 0..nA-1 are A's, then B's
  WeightUnit unit = WeightUnit::kSamples;
  bool unitsAgree = true;
  std::vector<FunctionChange> functions;  // flagged first, by |inclusive difference|, then the rest
  // Per tree node: mean inclusive and exclusive weight per side, the node's inclusive share test.
  std::vector<double> meanInclusiveA, meanInclusiveB, meanExclusiveA, meanExclusiveB;
  std::vector<Compared> nodes;
  std::vector<TotalChange> totals;
  size_t flaggedFunctions = 0, testedShares = 0, flaggedTotals = 0;
};

// `graphsA` then `graphsB` (root first): merged, measured and tested. `totals`: per-trace
// runtime totals, A's then B's values in each series, each series one test of the totals family.
RunComparison CompareRuns(const std::vector<const FlameGraph*>& graphsA, const std::vector<const FlameGraph*>& graphsB,
                          const std::vector<TotalSeries>& totals, const CompareOptions& options);

}  // namespace nettrace::verdict
