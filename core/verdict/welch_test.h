// core/verdict — the statistics of a many-run comparison: Welch's unequal-variance t-test on
// two small samples (one value per trace: a function's share, a GC pause total), its
// confidence interval for the difference of the means, and Holm's step-down correction
// across a family of such tests. docs/ci.md says why these: each per-trace value is a mean
// over thousands of samples or events, so near-normal (central limit theorem), and a change
// may change the spread too, which Welch's test allows; unlike rank tests (Mann–Whitney's
// smallest two-sided p-value with 3 runs a side is 0.1), it can reach the small p-values a
// correction over hundreds of functions needs with few runs. Holm controls the chance that a
// comparison with no real change flags anything at all (the family-wise error rate) under
// any dependence between the tests (shares of one trace are dependent: they sum to 1).
#pragma once

#include <cstddef>
#include <vector>

namespace nettrace::verdict {

struct WelchResult {
  size_t nA = 0, nB = 0;
  double meanA = 0, meanB = 0;
  double difference = 0;           // meanB − meanA
  double ciLow = 0, ciHigh = 0;    // the confidence interval of the difference
  double df = 0;                   // Welch–Satterthwaite degrees of freedom (0: not tested)
  double p = 1;                    // two-sided; 1 when not tested
  bool tested = false;             // both sides have at least 2 values
};

// Welch's test of B against A at `confidence` (0.95: a 95 % interval). Fewer than two values
// on a side: means and difference only (tested false, p 1, the interval the difference).
// Two constant samples: p 0 when the means differ, else 1 (the interval is the difference).
WelchResult WelchTest(const std::vector<double>& a, const std::vector<double>& b, double confidence);

// Student's t distribution with `df` degrees of freedom (df > 0): P(T > t) for t ≥ 0, and the
// quantile q with P(T ≤ q) = prob (0.5 ≤ prob < 1).
double StudentUpperTail(double t, double df);
double StudentQuantile(double prob, double df);

// Holm–Bonferroni adjusted p-values, in the input's order: p_(i) × (m − i + 1) for the i-th
// smallest, made monotone (never below the previous one) and capped at 1.
std::vector<double> HolmAdjust(const std::vector<double>& p);

}  // namespace nettrace::verdict
