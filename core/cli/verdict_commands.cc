#include "cli/verdict_commands.h"

#include <cstdio>
#include <ctime>

#include "cli/diff_command.h"
#include "trace_session.h"
#include "verdict/budget_check.h"
#include "verdict/budget_report.h"
#include "verdict/run_comparison_report.h"
#include "verdict/session_comparison.h"

namespace nettrace_cli {

namespace {

constexpr size_t kChunkSize = 1 << 20;
constexpr int kBadInput = 2;

bool ReadText(const std::string& path, std::string* out) {
  FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) return false;
  char buffer[65536];
  size_t n;
  while ((n = std::fread(buffer, 1, sizeof buffer, f)) > 0) out->append(buffer, n);
  const bool ok = !std::ferror(f);
  std::fclose(f);
  return ok;
}

bool WriteText(const std::string& path, const std::string& text) {
  FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) return false;
  const bool ok = std::fwrite(text.data(), 1, text.size(), f) == text.size();
  return std::fclose(f) == 0 && ok;
}

// Reads one trace whole and hands its session to `measure`. A trace that cannot be read to
// its end is bad input: a verdict on part of a run would mislead.
template <typename Measure>
bool WithTrace(const std::string& path, size_t chunkSize, Measure&& measure) {
  nettrace::TraceSession session;
  if (!LoadTrace(path.c_str(), chunkSize, &session)) return false;
  if (!session.status().ok()) {
    std::fprintf(stderr, "nettrace: %s cannot be checked: it was not read to its end\n", path.c_str());
    return false;
  }
  measure(session);
  return true;
}

std::string UtcNow() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char buffer[32];
  std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%S", &utc);
  return buffer;
}

}  // namespace

int RunCheck(const nettrace::api::Request& request, const std::vector<std::string>& traces) {
  namespace v = nettrace::verdict;
  if (request.budget.empty()) {
    std::fprintf(stderr, "nettrace: check needs --budget FILE\n");
    return kBadInput;
  }
  std::string text;
  if (!ReadText(request.budget, &text)) {
    std::fprintf(stderr, "nettrace: cannot read %s\n", request.budget.c_str());
    return kBadInput;
  }
  v::BudgetFile file;
  if (nettrace::Status s = v::ParseBudgetFile(text, request.budget, &file); !s.ok()) {
    std::fprintf(stderr, "nettrace: %s\n", s.message().c_str());
    return kBadInput;
  }
  const size_t chunkSize = request.chunkSize.value_or(kChunkSize);
  std::vector<v::TraceMeasures> checked, baseline;
  for (const auto& [paths, side] : {std::pair{&traces, &checked}, std::pair{&request.baselineFiles, &baseline}})
    for (const std::string& path : *paths)
      if (!WithTrace(path, chunkSize, [&](const nettrace::TraceSession& s) {
            side->push_back(v::MeasureBudgets(file, s.stackModel(), path));
          }))
        return kBadInput;
  v::CheckReport report;
  if (nettrace::Status s = v::CheckBudgets(file, checked, baseline, &report); !s.ok()) {
    std::fprintf(stderr, "nettrace: %s\n", s.message().c_str());
    return kBadInput;
  }
  const std::string timestamp = UtcNow();
  const std::string& format = request.format.empty() ? std::string("text") : request.format;
  const std::string out = v::CheckOutput(report, format, timestamp);
  std::fwrite(out.data(), 1, out.size(), stdout);
  if (!request.junitOut.empty() && !WriteText(request.junitOut, v::CheckJUnit(report, timestamp))) {
    std::fprintf(stderr, "nettrace: cannot write %s\n", request.junitOut.c_str());
    return kBadInput;
  }
  if (!request.markdownOut.empty() && !WriteText(request.markdownOut, v::CheckMarkdown(report))) {
    std::fprintf(stderr, "nettrace: cannot write %s\n", request.markdownOut.c_str());
    return kBadInput;
  }
  return report.ok() ? 0 : 1;
}

int RunDiffRuns(const nettrace::api::Request& request) {
  namespace v = nettrace::verdict;
  const std::string format = request.format.empty() ? "json" : request.format;
  if (format == "folded") {
    std::fprintf(stderr, "nettrace: diff --baseline/--compare writes json or markdown\n");
    return kBadInput;
  }
  if (!(request.alpha > 0 && request.alpha < 1) || !(request.minShare >= 0 && request.minShare < 1)) {
    std::fprintf(stderr, "nettrace: --alpha lies between 0 and 1, --min-share from 0 to below 1\n");
    return kBadInput;
  }
  const size_t chunkSize = request.chunkSize.value_or(kChunkSize);
  std::vector<v::RunMeasures> a, b;
  for (const auto& [paths, side] : {std::pair{&request.baselineFiles, &a}, std::pair{&request.compareFiles, &b}})
    for (const std::string& path : *paths)
      if (!WithTrace(path, chunkSize, [&](const nettrace::TraceSession& s) {
            side->push_back(v::MeasureRun(s.stackModel(), request.stack));
          }))
        return kBadInput;
  v::CompareOptions options;
  options.alpha = request.alpha, options.minShare = request.minShare;
  const v::RunComparison r = v::CompareMeasuredRuns(a, b, options);
  const v::RunNames names{request.baselineFiles, request.compareFiles};
  const size_t topN = request.count ? static_cast<size_t>(*request.count) : SIZE_MAX;
  const std::string out = format == "markdown" ? v::RunComparisonMarkdown(r, names, topN)
                                               : v::RunComparisonJson(r, names, topN) + "\n";
  std::fwrite(out.data(), 1, out.size(), stdout);
  return 0;
}

}  // namespace nettrace_cli
