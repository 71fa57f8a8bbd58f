#include "verdict/budget_report.h"

#include "base/json_writer.h"
#include "verdict/report_text.h"

namespace nettrace::verdict {

namespace {

const Budget& BudgetOf(const CheckReport& r, const Verdict& v) { return r.file->budgets[v.budget]; }

std::string Unit(const Budget& b) { return b.functions ? "points" : b.kind->unit; }

// The suites of a JUnit report: each checked trace's absolute verdicts, then the relative ones.
struct Suite {
  std::string name;
  std::vector<const Verdict*> verdicts;
  size_t failures = 0;
};
std::vector<Suite> Suites(const CheckReport& r) {
  std::vector<Suite> suites;
  for (const std::string& t : r.traces) suites.push_back({BaseName(t), {}, 0});
  Suite relative{"against the baseline", {}, 0};
  for (const Verdict& v : r.verdicts) {
    Suite* s = &relative;
    for (size_t k = 0; k < r.traces.size(); ++k)
      if (!v.trace.empty() && v.trace == r.traces[k]) s = &suites[k];
    s->verdicts.push_back(&v);
    s->failures += v.outcome != Outcome::kPass;
  }
  if (!relative.verdicts.empty()) suites.push_back(std::move(relative));
  return suites;
}

}  // namespace

std::string CheckText(const CheckReport& r) {
  std::string out;
  for (const Verdict& v : r.verdicts) {
    const Budget& b = BudgetOf(r, v);
    std::string line = v.outcome == Outcome::kPass ? "PASS " : v.outcome == Outcome::kFail ? "FAIL " : "MISS ";
    line += b.name + "  " + (v.trace.empty() ? std::string("(against the baseline)") : BaseName(v.trace)) + "  ";
    out += line + v.detail + "\n";
  }
  out += std::to_string(r.passed) + " passed, " + std::to_string(r.failed) + " failed\n";
  return out;
}

std::string CheckJson(const CheckReport& r) {
  JsonWriter w;
  w.BeginObject().Key("passed").Bool(r.ok()).Key("passes").UInt(r.passed).Key("failures").UInt(r.failed);
  w.Key("alpha").Exact(r.file->alpha);
  w.Key("traces").BeginArray();
  for (const std::string& t : r.traces) w.String(t);
  w.EndArray().Key("baseline").BeginArray();
  for (const std::string& t : r.baseline) w.String(t);
  w.EndArray().Key("verdicts").BeginArray();
  for (const Verdict& v : r.verdicts) {
    const Budget& b = BudgetOf(r, v);
    w.BeginObject().Key("budget").UInt(v.budget).Key("name").String(b.name).Key("metric").String(b.metric);
    w.Key("unit").String(Unit(b)).Key("relative").Bool(v.trace.empty());
    if (v.trace.empty()) w.Key("trace").Null();
    else w.Key("trace").String(v.trace);
    w.Key("verdict").String(OutcomeName(v.outcome)).Key("value");
    if (v.value) w.Raw(Significant(*v.value, 12));
    else w.Null();
    w.Key("limit").BeginObject();
    if (b.max) w.Key("max").Exact(*b.max);
    if (b.min) w.Key("min").Exact(*b.min);
    if (b.maxIncrease) w.Key("maxIncrease").Exact(*b.maxIncrease);
    if (b.maxIncreasePercent) w.Key("maxIncreasePercent").Exact(*b.maxIncreasePercent);
    w.EndObject();
    auto optional = [&](const char* key, const std::optional<double>& x, int digits) {
      w.Key(key);
      if (x) w.Raw(Significant(*x, digits));
      else w.Null();
    };
    optional("baselineMean", v.baselineMean, 12), optional("mean", v.mean, 12), optional("pAdjusted", v.pAdjusted, 6);
    w.Key("detail").String(v.detail).EndObject();
  }
  w.EndArray().EndObject();
  return w.Take();
}

std::string CheckJUnit(const CheckReport& r, const std::string& timestamp) {
  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n";
  const std::vector<Suite> suites = Suites(r);
  for (size_t i = 0; i < suites.size(); ++i) {
    const Suite& s = suites[i];
    out += "  <testsuite package=\"nettrace.check\" id=\"" + std::to_string(i) + "\" name=\"" + XmlText(s.name) +
           "\" timestamp=\"" + XmlText(timestamp) + "\" hostname=\"localhost\" tests=\"" +
           std::to_string(s.verdicts.size()) + "\" failures=\"" + std::to_string(s.failures) +
           "\" errors=\"0\" skipped=\"0\" time=\"0\">\n    <properties>\n";
    const bool relative = i >= r.traces.size();
    const std::vector<std::string>& files = relative ? r.baseline : std::vector<std::string>{r.traces[i]};
    for (const std::string& f : files)
      out += "      <property name=\"" + std::string(relative ? "baseline" : "trace") + "\" value=\"" + XmlText(f) + "\"/>\n";
    out += "    </properties>\n";
    for (const Verdict* v : s.verdicts) {
      const Budget& b = BudgetOf(r, *v);
      out += "    <testcase name=\"" + XmlText(b.name) + "\" classname=\"nettrace.check." + XmlText(b.metric) + "\" time=\"0\"";
      if (v->outcome == Outcome::kPass) {
        out += "/>\n";
        continue;
      }
      out += ">\n      <failure type=\"" + std::string(v->outcome == Outcome::kFail ? "over-budget" : "not-measured") +
             "\" message=\"" + XmlText(v->detail) + "\">" + XmlText(b.metric + " (" + v->limit + "): " + v->detail) +
             "</failure>\n    </testcase>\n";
    }
    out += "    <system-out/>\n    <system-err/>\n  </testsuite>\n";
  }
  return out + "</testsuites>\n";
}

std::string CheckMarkdown(const CheckReport& r) {
  std::string out = std::string("## Trace budgets: ") + (r.ok() ? "✅ all " + std::to_string(r.passed) + " passed" :
                    "❌ " + std::to_string(r.failed) + " of " + std::to_string(r.passed + r.failed) + " failed") + "\n\n";
  out += "| | Budget | Trace | Value | Limit | Detail |\n|---|---|---|---|---|---|\n";
  for (const Verdict& v : r.verdicts) {
    const Budget& b = BudgetOf(r, v);
    out += std::string("| ") + (v.outcome == Outcome::kPass ? "✅" : "❌") + " | " + MarkdownText(b.name) + " | " +
           (v.trace.empty() ? std::string("vs baseline") : MarkdownText(BaseName(v.trace))) + " | " +
           (v.value ? Significant(*v.value, 4) + " " + MarkdownText(Unit(b)) : std::string("–")) + " | " +
           MarkdownText(v.limit) + " | " + MarkdownText(v.detail) + " |\n";
  }
  return out;
}

std::string CheckOutput(const CheckReport& report, const std::string& format, const std::string& timestamp) {
  if (format == "json") return CheckJson(report) + "\n";
  if (format == "junit") return CheckJUnit(report, timestamp);
  if (format == "markdown") return CheckMarkdown(report);
  return CheckText(report);
}

}  // namespace nettrace::verdict
