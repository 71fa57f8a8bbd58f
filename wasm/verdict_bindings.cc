// wasm/ — the embind surface of core/verdict, for the npm CLI and JS API (web/src/api/verdict.ts):
// a budget check and a many-run comparison, each fed one opened trace at a time (the JS side
// opens a trace, adds it, closes it), so that many runs never sit in the heap together.
// Conversions only: the measuring, the tests and the documents are core/verdict's, as in
// `nettrace check` and `nettrace diff --baseline … --compare …` (core/cli/verdict_commands.cc).
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cstdint>
#include <string>
#include <vector>

#include "api/query_options.h"
#include "base/status.h"
#include "trace_session.h"
#include "verdict/budget_check.h"
#include "verdict/budget_report.h"
#include "verdict/run_comparison_report.h"
#include "verdict/session_comparison.h"

namespace {

using emscripten::val;
using nettrace::Status;
using nettrace::TraceSession;
namespace v = nettrace::verdict;

// Status → {ok, code, message}.
val StatusOf(const Status& s) {
  val out = val::object();
  out.set("ok", s.ok());
  out.set("code", std::string(nettrace::ErrorCodeName(s.code())));
  out.set("message", s.message());
  return out;
}

// A budget file and the measures of the traces added so far; check() writes the report.
class BudgetCheck {
 public:
  // `source` names the file in errors ("budgets.json:3:7: …").
  val Load(const std::string& text, const std::string& source) { return StatusOf(v::ParseBudgetFile(text, source, &file_)); }
  void Add(const TraceSession& session, const std::string& name, bool baseline) {
    (baseline ? baseline_ : checked_).push_back(v::MeasureBudgets(file_, session.stackModel(), name));
  }
  val Check() {
    report_ = v::CheckReport{};
    return StatusOf(v::CheckBudgets(file_, checked_, baseline_, &report_));
  }
  bool Passed() const { return report_.ok(); }
  // format: text | json | junit | markdown; timestamp "YYYY-MM-DDTHH:MM:SS" (UTC) for JUnit.
  std::string Output(const std::string& format, const std::string& timestamp) const {
    return v::CheckOutput(report_, format, timestamp);
  }

 private:
  v::BudgetFile file_;
  std::vector<v::TraceMeasures> checked_, baseline_;
  v::CheckReport report_;  // points into file_
};

// The runs of both sides, measured under one stack selection (a `flame` request as JSON, as
// the other bindings take it), then compared.
class RunDiff {
 public:
  // maxFunctions < 0: every function.
  val SetRequest(const std::string& stackJson, double alpha, double minShare, double maxFunctions) {
    request_ = nettrace::api::Request{};
    const Status s = nettrace::api::ParseJsonRequest(*nettrace::api::FindQuery("flame"), stackJson, &request_);
    request_.alpha = alpha, request_.minShare = minShare;
    if (maxFunctions >= 0) request_.count = static_cast<uint64_t>(maxFunctions);
    return StatusOf(s);
  }
  void Add(const TraceSession& session, const std::string& name, bool baseline) {
    (baseline ? a_ : b_).push_back(v::MeasureRun(session.stackModel(), request_.stack));
    (baseline ? names_.baseline : names_.comparison).push_back(name);
  }
  // format: json (with its final newline) | markdown.
  val Output(const std::string& format) const {
    if (!(request_.alpha > 0 && request_.alpha < 1) || !(request_.minShare >= 0 && request_.minShare < 1))
      return StatusOf(Status::Error(nettrace::ErrorCode::kInvalidArgument, nettrace::kNoOffset,
                                    "alpha lies between 0 and 1, minShare from 0 to below 1"));
    v::CompareOptions options;
    options.alpha = request_.alpha, options.minShare = request_.minShare;
    const v::RunComparison r = v::CompareMeasuredRuns(a_, b_, options);
    const size_t topN = request_.count ? static_cast<size_t>(*request_.count) : SIZE_MAX;
    val out = StatusOf(Status());
    out.set("text", format == "markdown" ? v::RunComparisonMarkdown(r, names_, topN) : v::RunComparisonJson(r, names_, topN) + "\n");
    return out;
  }

 private:
  nettrace::api::Request request_;
  std::vector<v::RunMeasures> a_, b_;
  v::RunNames names_;
};

}  // namespace

EMSCRIPTEN_BINDINGS(nettrace_verdict) {
  emscripten::class_<BudgetCheck>("BudgetCheck")
      .constructor<>()
      .function("load", &BudgetCheck::Load)
      .function("add", &BudgetCheck::Add)
      .function("check", &BudgetCheck::Check)
      .function("passed", &BudgetCheck::Passed)
      .function("output", &BudgetCheck::Output);
  emscripten::class_<RunDiff>("RunDiff")
      .constructor<>()
      .function("setRequest", &RunDiff::SetRequest)
      .function("add", &RunDiff::Add)
      .function("output", &RunDiff::Output);
}
