#include "verdict/run_comparison_report.h"

#include <cmath>
#include <cstdio>

#include "base/json_writer.h"
#include "verdict/report_text.h"

namespace nettrace::verdict {

namespace {

void Values(JsonWriter& w, const char* key, const std::vector<double>& v) {
  w.Key(key).BeginArray();
  for (double x : v) w.Exact(x);
  w.EndArray();
}

// One compared quantity: per-trace values, means, the difference and its interval, the test.
void WriteCompared(JsonWriter& w, const Compared& c) {
  w.BeginObject();
  Values(w, "a", c.a);
  Values(w, "b", c.b);
  w.Key("meanA").Exact(c.test.meanA).Key("meanB").Exact(c.test.meanB).Key("difference").Exact(c.test.difference);
  w.Key("ciLow").Raw(Significant(c.test.ciLow, 9)).Key("ciHigh").Raw(Significant(c.test.ciHigh, 9));
  w.Key("df").Raw(Significant(c.test.df, 6)).Key("p").Raw(Significant(c.test.p, 6));
  w.Key("pAdjusted").Raw(Significant(c.pAdjusted, 6));
  w.Key("tested").Bool(c.tested).Key("significant").Bool(c.significant).EndObject();
}

void WriteSide(JsonWriter& w, const RunComparison& r, const std::vector<std::string>& names, size_t from, size_t to) {
  w.BeginObject().Key("traces").BeginArray();
  for (const std::string& n : names) w.String(n);
  w.EndArray().Key("unit").String(WeightUnitName(from < to ? r.tree.units[from] : r.unit));
  w.Key("totals").BeginArray();
  for (size_t k = from; k < to; ++k) w.UInt(r.tree.totals[k]);
  w.EndArray().EndObject();
}

void WriteTree(JsonWriter& w, const RunComparison& r) {
  const MergedTree& t = r.tree;
  w.Key("tree").BeginObject();
  w.Key("layout").String(
      "x spans are on the comparison's mean inclusive weights; a node only in the baseline has start == end");
  w.Key("frames").BeginArray();
  for (const std::string& s : t.names) w.String(s);
  w.EndArray();
  auto ints = [&](const char* key, const std::vector<uint32_t>& v) {
    w.Key(key).BeginArray();
    for (uint32_t x : v) w.UInt(x);
    w.EndArray();
  };
  ints("frame", t.frame), ints("parent", t.parent), ints("depth", t.depth);
  Values(w, "meanInclusiveA", r.meanInclusiveA), Values(w, "meanInclusiveB", r.meanInclusiveB);
  Values(w, "meanExclusiveA", r.meanExclusiveA), Values(w, "meanExclusiveB", r.meanExclusiveB);
  // Layout on B's means: children flush left under their parent, in the tree's order.
  std::vector<double> start(t.size(), 0), next(t.size(), 0);
  for (size_t n = 1; n < t.size(); ++n) {
    start[n] = next[t.parent[n]];
    next[t.parent[n]] += r.meanInclusiveB[n];
    next[n] = start[n];
  }
  Values(w, "start", start);
  w.Key("end").BeginArray();
  for (size_t n = 0; n < t.size(); ++n) w.Exact(start[n] + r.meanInclusiveB[n]);
  w.EndArray().Key("shareA").BeginArray();
  for (const Compared& c : r.nodes) w.Exact(c.test.meanA);
  w.EndArray().Key("shareB").BeginArray();
  for (const Compared& c : r.nodes) w.Exact(c.test.meanB);
  w.EndArray().Key("delta").BeginArray();
  for (const Compared& c : r.nodes) w.Exact(c.test.difference);
  // The interval as the functions' (WriteCompared), so a view's tooltip can say how sure.
  w.EndArray().Key("ciLow").BeginArray();
  for (const Compared& c : r.nodes) w.Raw(Significant(c.test.ciLow, 9));
  w.EndArray().Key("ciHigh").BeginArray();
  for (const Compared& c : r.nodes) w.Raw(Significant(c.test.ciHigh, 9));
  w.EndArray().Key("tested").BeginArray();
  for (const Compared& c : r.nodes) w.Bool(c.tested);
  w.EndArray().Key("pAdjusted").BeginArray();
  for (const Compared& c : r.nodes) w.Raw(Significant(c.pAdjusted, 6));
  w.EndArray().Key("significant").BeginArray();
  for (const Compared& c : r.nodes) w.Bool(c.significant);
  w.EndArray().EndObject();
}

std::string Points(double share) {
  char b[32];
  std::snprintf(b, sizeof b, "%+.2f", share * 100);
  return b;
}
std::string Percent(double share) {
  char b[32];
  std::snprintf(b, sizeof b, "%.2f %%", share * 100);
  return b;
}
std::string Number(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.4g", v);
  return b;
}

std::string ShareCell(const Compared& c) {
  return Percent(c.test.meanA) + " → " + Percent(c.test.meanB) + "<br>" + Points(c.test.difference) + " pts (" +
         Points(c.test.ciLow) + ", " + Points(c.test.ciHigh) + ")" + (c.significant ? " **\\***" : "");
}

}  // namespace

std::string RunComparisonJson(const RunComparison& r, const RunNames& names, size_t maxFunctions) {
  JsonWriter w;
  w.BeginObject().Key("method").BeginObject();
  w.Key("test").String("welch-t").Key("correction").String("holm");
  w.Key("alpha").Exact(r.options.alpha).Key("confidence").Exact(r.options.confidence);
  w.Key("minShare").Exact(r.options.minShare).EndObject();
  w.Key("baseline");
  WriteSide(w, r, names.baseline, 0, r.nA);
  w.Key("comparison");
  WriteSide(w, r, names.comparison, r.nA, r.nA + r.nB);
  w.Key("unitsAgree").Bool(r.unitsAgree);
  w.Key("testedShares").UInt(r.testedShares).Key("flaggedFunctions").UInt(r.flaggedFunctions);
  w.Key("flaggedTotals").UInt(r.flaggedTotals);
  w.Key("functions").BeginArray();
  for (size_t i = 0; i < r.functions.size() && i < maxFunctions; ++i) {
    const FunctionChange& f = r.functions[i];
    w.BeginObject().Key("name").String(r.tree.names[f.frame]).Key("change").String(ChangeName(f.change));
    w.Key("inclusive"), WriteCompared(w, f.inclusive);
    w.Key("exclusive"), WriteCompared(w, f.exclusive);
    w.Key("inclusiveWeight"), WriteCompared(w, f.inclusiveWeight);
    w.Key("exclusiveWeight"), WriteCompared(w, f.exclusiveWeight);
    w.EndObject();
  }
  w.EndArray().Key("totals").BeginArray();
  for (const TotalChange& t : r.totals) {
    w.BeginObject().Key("metric").String(t.metric).Key("unit").String(t.unit).Key("change").String(ChangeName(t.change));
    w.Key("values"), WriteCompared(w, t.values);
    w.EndObject();
  }
  w.EndArray();
  WriteTree(w, r);
  w.EndObject();
  return w.Take();
}

std::string RunComparisonMarkdown(const RunComparison& r, const RunNames& names, size_t maxFunctions) {
  std::string out = "## Stacks: " + std::to_string(r.nA) + " baseline vs " + std::to_string(r.nB) + " comparison traces\n\n";
  char method[256];
  std::snprintf(method, sizeof method,
                "Welch's t-test per share, Holm-corrected across %zu tested shares (α = %g, shares with a mean of at "
                "least %g %% tested); %g %% confidence intervals. Weights: %s.\n\n",
                r.testedShares, r.options.alpha, r.options.minShare * 100, r.options.confidence * 100,
                WeightUnitName(r.unit));
  out += method;
  if (r.nA < 2 || r.nB < 2) out += "With fewer than 2 traces a side nothing is tested: differences only.\n\n";
  if (!r.unitsAgree) out += "**The traces' weight units differ**: shares are compared, weights are not comparable.\n\n";
  out += "### Functions flagged (" + std::to_string(r.flaggedFunctions) + ")\n\n";
  if (r.flaggedFunctions == 0) out += "No function changed significantly.\n\n";
  else out += "| Function | Change | Inclusive: A → B, Δ (CI) | Exclusive: A → B, Δ (CI) |\n|---|---|---|---|\n";
  for (size_t i = 0; i < r.functions.size() && i < maxFunctions; ++i) {
    const FunctionChange& f = r.functions[i];
    if (!f.inclusive.significant && !f.exclusive.significant) break;  // flagged ones come first
    out += "| " + MarkdownText(r.tree.names[f.frame]) + " | " + ChangeName(f.change) + " | " + ShareCell(f.inclusive) +
           " | " + ShareCell(f.exclusive) + " |\n";
  }
  out += "\n### Runtime totals\n\n| Metric | Change | A mean | B mean | Δ (CI) | p (Holm) |\n|---|---|---|---|---|---|\n";
  for (const TotalChange& t : r.totals) {
    const WelchResult& s = t.values.test;
    out += "| " + MarkdownText(t.metric) + " (" + t.unit + ") | " + ChangeName(t.change) + " | " + Number(s.meanA) +
           " | " + Number(s.meanB) + " | " + Number(s.difference) + " (" + Number(s.ciLow) + ", " + Number(s.ciHigh) +
           ") | " + (t.values.tested ? Significant(t.values.pAdjusted, 3) : "–") + " |\n";
  }
  out += "\nBaseline: ";
  for (size_t i = 0; i < names.baseline.size(); ++i) out += (i ? ", " : "") + MarkdownText(BaseName(names.baseline[i]));
  out += ".  \nComparison: ";
  for (size_t i = 0; i < names.comparison.size(); ++i) out += (i ? ", " : "") + MarkdownText(BaseName(names.comparison[i]));
  return out + ".\n";
}

}  // namespace nettrace::verdict
