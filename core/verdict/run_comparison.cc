#include "verdict/run_comparison.h"

#include <algorithm>
#include <cmath>
#include <functional>

#include "analysis/stacks/flame_graph.h"

namespace nettrace::verdict {

namespace {

bool AllZero(const std::vector<double>& v) {
  return std::all_of(v.begin(), v.end(), [](double x) { return x == 0; });
}

double PooledMean(const Compared& c) {
  double sum = 0;
  for (double x : c.a) sum += x;
  for (double x : c.b) sum += x;
  return c.a.size() + c.b.size() ? sum / static_cast<double>(c.a.size() + c.b.size()) : 0;
}

// Splits per-trace values (A's traces first) into the two sides and runs the test.
Compared Measure(size_t nA, size_t n, const std::function<double(size_t)>& value, double confidence) {
  Compared c;
  for (size_t k = 0; k < n; ++k) (k < nA ? c.a : c.b).push_back(value(k));
  c.test = WelchTest(c.a, c.b, confidence);
  return c;
}

// Holm over the tested members of one family; marks the significant ones.
void Correct(const std::vector<Compared*>& family, double alpha) {
  std::vector<double> p;
  for (const Compared* c : family) p.push_back(c->test.p);
  const std::vector<double> adjusted = HolmAdjust(p);
  for (size_t i = 0; i < family.size(); ++i) {
    family[i]->pAdjusted = adjusted[i];
    family[i]->significant = adjusted[i] <= alpha;
  }
}

// What a significant change of `c` is: grown / shrunk, or appeared / disappeared when one
// side is zero in every trace.
Change Direction(const Compared& c) {
  if (c.test.difference > 0) return AllZero(c.a) ? Change::kAppeared : Change::kGrown;
  return AllZero(c.b) ? Change::kDisappeared : Change::kShrunk;
}

void ApplyFilter(Compared* c, size_t nA, size_t nB, double minShare) {
  c->tested = nA >= 2 && nB >= 2 && c->test.tested && PooledMean(*c) >= minShare;
}

void CompareFunctions(RunComparison& r) {
  const MergedFunctions fns = FunctionsOfMergedTree(r.tree);
  const size_t n = r.tree.traces;
  const double confidence = r.options.confidence;
  auto share = [&](uint64_t w, size_t k) {
    return r.tree.totals[k] ? static_cast<double>(w) / static_cast<double>(r.tree.totals[k]) : 0.0;
  };
  r.functions.resize(fns.size());
  std::vector<Compared*> family;
  for (size_t f = 0; f < fns.size(); ++f) {
    FunctionChange& c = r.functions[f];
    c.frame = fns.frame[f];
    const uint64_t* inc = &fns.inclusive[f * n];
    const uint64_t* exc = &fns.exclusive[f * n];
    c.inclusive = Measure(r.nA, n, [&](size_t k) { return share(inc[k], k); }, confidence);
    c.exclusive = Measure(r.nA, n, [&](size_t k) { return share(exc[k], k); }, confidence);
    c.inclusiveWeight = Measure(r.nA, n, [&](size_t k) { return static_cast<double>(inc[k]); }, confidence);
    c.exclusiveWeight = Measure(r.nA, n, [&](size_t k) { return static_cast<double>(exc[k]); }, confidence);
    for (Compared* s : {&c.inclusive, &c.exclusive}) {
      ApplyFilter(s, r.nA, r.nB, r.options.minShare);
      if (s->tested) family.push_back(s);
    }
  }
  Correct(family, r.options.alpha);
  r.testedShares = family.size();
  for (FunctionChange& c : r.functions) {
    const Compared* flagged = c.inclusive.significant ? &c.inclusive : c.exclusive.significant ? &c.exclusive : nullptr;
    c.change = flagged                                        ? Direction(*flagged)
               : c.inclusive.tested || c.exclusive.tested ? Change::kUnchanged
                                                              : Change::kUntested;
    r.flaggedFunctions += flagged != nullptr;
  }
  auto flaggedOf = [](const FunctionChange& c) { return c.inclusive.significant || c.exclusive.significant; };
  auto size = [](const FunctionChange& c) {
    return std::max(std::fabs(c.inclusive.test.difference), std::fabs(c.exclusive.test.difference));
  };
  std::stable_sort(r.functions.begin(), r.functions.end(), [&](const FunctionChange& x, const FunctionChange& y) {
    if (flaggedOf(x) != flaggedOf(y)) return flaggedOf(x);
    if (size(x) != size(y)) return size(x) > size(y);
    return r.tree.names[x.frame] < r.tree.names[y.frame];
  });
}

void CompareNodes(RunComparison& r) {
  const MergedTree& t = r.tree;
  const size_t n = t.traces;
  auto mean = [&](const std::vector<uint64_t>& column, size_t node, size_t from, size_t to) {
    double sum = 0;
    for (size_t k = from; k < to; ++k) sum += static_cast<double>(column[node * n + k]);
    return to > from ? sum / static_cast<double>(to - from) : 0.0;
  };
  r.nodes.resize(t.size());
  std::vector<Compared*> family;
  for (size_t node = 0; node < t.size(); ++node) {
    r.meanInclusiveA.push_back(mean(t.inclusive, node, 0, r.nA));
    r.meanInclusiveB.push_back(mean(t.inclusive, node, r.nA, n));
    r.meanExclusiveA.push_back(mean(t.exclusive, node, 0, r.nA));
    r.meanExclusiveB.push_back(mean(t.exclusive, node, r.nA, n));
    Compared& c = r.nodes[node];
    c = Measure(r.nA, n, [&](size_t k) {
      return t.totals[k] ? static_cast<double>(t.Inclusive(node, k)) / static_cast<double>(t.totals[k]) : 0.0;
    }, r.options.confidence);
    ApplyFilter(&c, r.nA, r.nB, r.options.minShare);
    if (node > 0 && c.tested) family.push_back(&c);  // the root's share is 1 in every trace
    if (node == 0) c.tested = false;
  }
  Correct(family, r.options.alpha);
}

void CompareTotals(RunComparison& r, const std::vector<TotalSeries>& series) {
  std::vector<Compared*> family;
  r.totals.reserve(series.size());
  for (const TotalSeries& s : series) {
    TotalChange& t = r.totals.emplace_back();
    t.metric = s.metric, t.unit = s.unit;
    t.values.a = s.a, t.values.b = s.b;
    t.values.test = WelchTest(s.a, s.b, r.options.confidence);
    t.values.tested = t.values.test.tested;
    if (t.values.tested) family.push_back(&t.values);
  }
  Correct(family, r.options.alpha);
  for (TotalChange& t : r.totals) {
    t.change = !t.values.tested ? Change::kUntested : t.values.significant ? Direction(t.values) : Change::kUnchanged;
    r.flaggedTotals += t.values.significant;
  }
}

}  // namespace

const char* ChangeName(Change c) {
  switch (c) {
    case Change::kUnchanged: return "unchanged";
    case Change::kGrown: return "grown";
    case Change::kShrunk: return "shrunk";
    case Change::kAppeared: return "appeared";
    case Change::kDisappeared: return "disappeared";
    case Change::kUntested: return "untested";
  }
  return "unchanged";
}

RunComparison CompareRuns(const std::vector<const FlameGraph*>& graphsA, const std::vector<const FlameGraph*>& graphsB,
                          const std::vector<TotalSeries>& totals, const CompareOptions& options) {
  RunComparison r;
  r.options = options;
  r.nA = graphsA.size(), r.nB = graphsB.size();
  std::vector<const FlameGraph*> all = graphsA;
  all.insert(all.end(), graphsB.begin(), graphsB.end());
  r.tree = MergeFlameGraphs(all);
  if (!r.tree.units.empty()) r.unit = r.tree.units[0];
  for (WeightUnit u : r.tree.units) r.unitsAgree = r.unitsAgree && u == r.unit;
  CompareFunctions(r);
  CompareNodes(r);
  CompareTotals(r, totals);
  return r;
}

}  // namespace nettrace::verdict
