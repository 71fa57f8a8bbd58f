#include "verdict/budget_check.h"

#include <algorithm>
#include <cmath>

#include "analysis/stacks/frame_pattern.h"
#include "analysis/views/stack_views.h"
#include "verdict/report_text.h"
#include "verdict/run_comparison.h"

namespace nettrace::verdict {

namespace {

// Six digits, but whole up to 15 digits from a million on: a byte count and its limit that
// differ in the last byte must not read alike ("4.15391e+07 > max 4.15391e+07").
std::string Num(double v) { return Significant(v, std::fabs(v) >= 1e6 ? 15 : 6); }

std::string LimitText(const Budget& b) {
  std::string out;
  auto add = [&](const char* name, const std::optional<double>& v) {
    if (v) out += (out.empty() ? "" : ", ") + std::string(name) + " " + Num(*v);
  };
  add("min", b.min), add("max", b.max), add("maxIncrease", b.maxIncrease), add("maxIncreasePercent", b.maxIncreasePercent);
  return out;
}

std::string UnitOf(const Budget& b) { return b.functions ? "points" : b.kind->unit; }

Verdict Absolute(const Budget& b, const TraceMeasures& t) {
  Verdict v;
  v.budget = b.index, v.trace = t.name, v.limit = LimitText(b);
  const Measured& m = t.values[b.index];
  v.value = m.value;
  if (!m.value) {
    v.outcome = Outcome::kMissing, v.detail = m.note;
    return v;
  }
  const double x = *m.value;
  const std::string unit = " " + UnitOf(b);
  if (b.max && x > *b.max) v.outcome = Outcome::kFail, v.detail = Num(x) + unit + " > max " + Num(*b.max) + unit;
  else if (b.min && x < *b.min) v.outcome = Outcome::kFail, v.detail = Num(x) + unit + " < min " + Num(*b.min) + unit;
  else v.detail = Num(x) + unit + " within " + v.limit;
  if (!m.note.empty()) v.detail += " (" + m.note + ")";
  return v;
}

// A relative limit on a per-trace metric: the values of both sides and Welch's test.
struct Relative {
  const Budget* budget;
  Verdict verdict;
  WelchResult test;
  bool missing = false;
};

Relative MeasureRelative(const Budget& b, const std::vector<TraceMeasures>& a, const std::vector<TraceMeasures>& c) {
  Relative r{&b, {}, {}, false};
  r.verdict.budget = b.index, r.verdict.limit = LimitText(b);
  std::vector<double> va, vc;
  for (const auto* side : {&a, &c})
    for (const TraceMeasures& t : *side) {
      const Measured& m = t.values[b.index];
      if (!m.value) {
        r.missing = true;
        r.verdict.outcome = Outcome::kMissing, r.verdict.detail = t.name + ": " + m.note;
        return r;
      }
      (side == &a ? va : vc).push_back(*m.value);
    }
  r.test = WelchTest(va, vc, 0.95);
  r.verdict.baselineMean = r.test.meanA, r.verdict.mean = r.test.meanB;
  return r;
}

void DecideRelative(Relative& r, double pAdjusted, double alpha) {
  const Budget& b = *r.budget;
  Verdict& v = r.verdict;
  const double increase = r.test.difference;
  const double percent = r.test.meanA != 0 ? 100 * increase / r.test.meanA : (increase > 0 ? INFINITY : 0);
  const bool over = (b.maxIncrease && increase > *b.maxIncrease) || (b.maxIncreasePercent && percent > *b.maxIncreasePercent);
  v.value = b.maxIncrease ? increase : percent;
  if (!std::isfinite(*v.value)) v.value.reset();  // from a baseline mean of 0: "appeared"
  const bool significant = r.test.tested ? pAdjusted <= alpha : true;
  if (r.test.tested) v.pAdjusted = pAdjusted;
  v.detail = "mean " + Num(r.test.meanA) + " → " + Num(r.test.meanB) + " " + UnitOf(b) + " (" +
             (increase >= 0 ? "+" : "") + Num(increase) + (r.test.meanA != 0 ? ", " + Num(percent) + " %" : "") + ")";
  v.detail += r.test.tested ? ", p (Holm) " + Significant(pAdjusted, 3) : ", one trace a side: not tested";
  if (over && significant) v.outcome = Outcome::kFail, v.detail += ": over " + v.limit;
  else if (over) v.detail += ": over " + v.limit + " but not significant";
  else v.detail += ": within " + v.limit;
}

// functions.*: the largest significant growth of a function's mean share (points).
Verdict FunctionGrowth(const Budget& b, const BudgetFile& file, const std::vector<TraceMeasures>& checked,
                       const std::vector<TraceMeasures>& baseline) {
  Verdict v;
  v.budget = b.index, v.limit = LimitText(b);
  std::vector<const FlameGraph*> pa, pc;
  for (const TraceMeasures& t : baseline) pa.push_back(&t.graphs[b.index]);
  for (const TraceMeasures& t : checked) pc.push_back(&t.graphs[b.index]);
  CompareOptions options;
  options.alpha = file.alpha, options.minShare = file.minShare;
  const RunComparison r = CompareRuns(pa, pc, {}, options);
  const bool tested = r.nA >= 2 && r.nB >= 2;
  const FramePattern pattern(b.args.argument);
  double worst = 0;
  const FunctionChange* worstFn = nullptr;
  for (const FunctionChange& f : r.functions) {
    const Compared& s = b.exclusive ? f.exclusive : f.inclusive;
    if ((tested && !s.significant) || s.test.difference <= worst) continue;
    if (!b.args.argument.empty() && !pattern.Match(r.tree.names[f.frame])) continue;
    worst = s.test.difference, worstFn = &f;
  }
  v.value = worst * 100;
  if (!worstFn) {
    v.detail = tested ? "no function's share grew significantly" : "no function's share grew";
  } else {
    const Compared& s = b.exclusive ? worstFn->exclusive : worstFn->inclusive;
    v.detail = r.tree.names[worstFn->frame] + ": " + Num(s.test.meanA * 100) + " % → " + Num(s.test.meanB * 100) +
               " % (+" + Num(worst * 100) + " points" +
               (tested ? ", p (Holm) " + Significant(s.pAdjusted, 3) : ", one trace a side: not tested") + ")";
    if (tested) v.pAdjusted = s.pAdjusted;
    v.baselineMean = s.test.meanA * 100, v.mean = s.test.meanB * 100;
  }
  if (worst * 100 > *b.maxIncrease) v.outcome = Outcome::kFail, v.detail += ": over " + v.limit;
  return v;
}

}  // namespace

const char* OutcomeName(Outcome o) {
  switch (o) {
    case Outcome::kPass: return "pass";
    case Outcome::kFail: return "fail";
    case Outcome::kMissing: return "missing";
  }
  return "fail";
}

TraceMeasures MeasureBudgets(const BudgetFile& file, const TraceModel& model, const std::string& name) {
  TraceMeasures t;
  t.name = name;
  t.values.resize(file.budgets.size());
  t.graphs.resize(file.budgets.size());
  TraceViews views(model);
  for (const Budget& b : file.budgets) {
    if (b.functions) {
      StackQuery q = WithDefaultWeight(model, b.args.query);
      q.inverted = false;
      t.graphs[b.index] = BuildFlameGraph(model, q);
    } else {
      t.values[b.index] = b.kind->measure(views, b.args);
    }
  }
  return t;
}

Status CheckBudgets(const BudgetFile& file, const std::vector<TraceMeasures>& checked,
                    const std::vector<TraceMeasures>& baseline, CheckReport* out) {
  *out = CheckReport();
  out->file = &file;
  for (const TraceMeasures& t : checked) out->traces.push_back(t.name);
  for (const TraceMeasures& t : baseline) out->baseline.push_back(t.name);
  for (const Budget& b : file.budgets)
    if (b.relative() && baseline.empty())
      return Status::Error(ErrorCode::kInvalidArgument, kNoOffset,
                           "budget '" + b.name + "' limits an increase: give the traces to compare with (--baseline)");
  std::vector<Relative> relative;
  for (const Budget& b : file.budgets) {
    if (b.functions) {
      out->verdicts.push_back(FunctionGrowth(b, file, checked, baseline));
      continue;
    }
    if (b.max || b.min)
      for (const TraceMeasures& t : checked) out->verdicts.push_back(Absolute(b, t));
    if (b.relative()) relative.push_back(MeasureRelative(b, baseline, checked));
  }
  // Holm across the relative budgets that were tested (one family: the file's).
  std::vector<double> p;
  for (const Relative& r : relative)
    if (!r.missing && r.test.tested) p.push_back(r.test.p);
  const std::vector<double> adjusted = HolmAdjust(p);
  size_t next = 0;
  for (Relative& r : relative) {
    if (!r.missing) DecideRelative(r, r.test.tested ? adjusted[next++] : 1, file.alpha);
    out->verdicts.push_back(std::move(r.verdict));
  }
  std::stable_sort(out->verdicts.begin(), out->verdicts.end(),
                   [](const Verdict& x, const Verdict& y) { return x.budget < y.budget; });
  for (const Verdict& v : out->verdicts) (v.outcome == Outcome::kPass ? out->passed : out->failed)++;
  return Status();
}

}  // namespace nettrace::verdict
