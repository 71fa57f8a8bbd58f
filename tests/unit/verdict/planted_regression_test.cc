// The many-run comparison's power and false-positive rate (core/verdict/run_comparison.h), on
// stack models with run-to-run noise (stack_model.h): 10 baseline runs against 10 comparison
// runs find a function whose inclusive share grew by 5 points of the total in at least 95 of
// 100 seeded trials, and flag some function in at most 5 of 100 trials without a change
// (Holm-corrected). Two models: a synthetic service-shaped tree, and the sampled stacks of a
// committed .NET 10 trace, resampled. The study runs in process on the runs' flame graphs;
// the end-to-end case writes runs as traces with the project's writer, reads them back and
// checks that the comparison through the files is the in-process one, to the last bit.
#include <catch2/catch.hpp>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>

#include "../stacks/stacks_test_support.h"
#include "stack_model.h"
#include "verdict/run_comparison.h"
#include "verdict/run_comparison_report.h"
#include "verdict/session_comparison.h"

namespace nettrace::test {
namespace {

using verdict::Change;
using verdict::CompareOptions;
using verdict::RunComparison;

// σ of each path's log weight between runs: 0.1, a path's cost varying by about 10 % from run
// to run on top of the sampling's own noise. NETTRACE_PLANTED_NOISE sets another for a
// measurement (docs/ci.md reports 0.2); the asserted figures are for 0.1.
const double kNoise = std::getenv("NETTRACE_PLANTED_NOISE") ? std::atof(std::getenv("NETTRACE_PLANTED_NOISE")) : 0.1;
constexpr double kSamples = 10000;    // samples per run (10 s at 1 kHz)
constexpr double kGrowth = 0.05;      // the planted growth: 5 points of the total
constexpr int kRuns = 10, kTrials = 100;

// The function of the model whose inclusive share is closest to `share`.
std::string FunctionNear(const StackModel& m, double share) {
  std::map<std::string, double> inclusive;
  double total = 0;
  for (size_t p = 0; p < m.paths.size(); ++p) {
    total += m.weights[p];
    std::set<std::string> once(m.paths[p].begin(), m.paths[p].end());
    for (const std::string& f : once) inclusive[f] += m.weights[p];
  }
  std::string best;
  for (const auto& [f, w] : inclusive)
    if (best.empty() || std::fabs(w / total - share) < std::fabs(inclusive[best] / total - share)) best = f;
  return best;
}

RunComparison Trial(const StackModel& a, const StackModel& b, std::mt19937_64& rng) {
  std::vector<FlameGraph> graphs;
  for (int k = 0; k < 2 * kRuns; ++k) graphs.push_back(GraphOfRun(k < kRuns ? a : b, DrawRun(k < kRuns ? a : b, rng, kNoise, kSamples)));
  std::vector<const FlameGraph*> ga, gb;
  for (int k = 0; k < 2 * kRuns; ++k) (k < kRuns ? ga : gb).push_back(&graphs[k]);
  return verdict::CompareRuns(ga, gb, {}, CompareOptions());
}

struct Study {
  int found = 0, falseAlarms = 0;
  size_t tested = 0;
};

// kTrials planted trials and kTrials without a change, seeds 1..kTrials.
Study Run(const StackModel& model, const std::string& function) {
  const StackModel planted = Planted(model, function, kGrowth);
  Study s;
  for (int seed = 1; seed <= kTrials; ++seed) {
    std::mt19937_64 rng(seed);
    const RunComparison hit = Trial(model, planted, rng);
    for (const auto& f : hit.functions)
      if (hit.tree.names[f.frame] == function && f.change == Change::kGrown) ++s.found;
    std::mt19937_64 rngNull(1000 + seed);
    const RunComparison none = Trial(model, model, rngNull);
    s.falseAlarms += none.flaggedFunctions > 0;
    s.tested += none.testedShares;
  }
  return s;
}

void Report(const char* model, const std::string& function, const Study& s) {
  std::printf("many-run comparison, %s model, %d vs %d runs, noise sigma %.2f, %.0f samples a run: a %.0f-point growth of "
              "'%s' found in %d/%d trials (power %.2f); no change: some function flagged in %d/%d trials "
              "(false-positive rate %.2f; %.0f shares tested a trial)\n",
              model, kRuns, kRuns, kNoise, kSamples, kGrowth * 100, function.c_str(), s.found, kTrials,
              s.found / double(kTrials), s.falseAlarms, kTrials, s.falseAlarms / double(kTrials),
              s.tested / double(kTrials));
}

TEST_CASE("a planted 5-point growth is found in 95 % of trials, a no-change flagged in 5 % at most (synthetic model)",
          "[verdict][planted]") {
  const StackModel model = SyntheticModel();
  const std::string function = FunctionNear(model, 0.08);
  const Study s = Run(model, function);
  Report("synthetic", function, s);
  CHECK(s.found >= 95);
  CHECK(s.falseAlarms <= 5);
}

TEST_CASE("a planted 5-point growth is found in 95 % of trials, a no-change flagged in 5 % at most (a real trace resampled)",
          "[verdict][planted]") {
  auto session = LoadCorpus("dotnet10/net10-cpu-async-http.nettrace");
  StackQuery q;
  const StackModel model = ModelOfGraph(session->BuildFlameGraph(q));
  REQUIRE(model.paths.size() > 100);
  const std::string function = FunctionNear(model, 0.08);
  const Study s = Run(model, function);
  Report("net10-cpu-async-http", function, s);
  CHECK(s.found >= 95);
  CHECK(s.falseAlarms <= 5);
}

// Written runs read back give the comparison the in-process runs give (same counts).
void EndToEnd(const StackModel& a, const StackModel& b, uint64_t seed, const std::string& planted) {
  std::mt19937_64 rng(seed);
  std::vector<verdict::RunMeasures> ra, rb;
  std::vector<FlameGraph> inProcess;
  StackQuery q;
  q.event = "cpu";
  for (int k = 0; k < 2 * kRuns; ++k) {
    const StackModel& m = k < kRuns ? a : b;
    const std::vector<uint64_t> counts = DrawRun(m, rng, kNoise, kSamples);
    inProcess.push_back(GraphOfRun(m, counts));
    std::vector<uint8_t> bytes;
    REQUIRE(WriteRun(m, counts, &bytes).ok());
    auto session = LoadSession(bytes);
    (k < kRuns ? ra : rb).push_back(verdict::MeasureRun(session->stackModel(), q));
  }
  const RunComparison files = verdict::CompareMeasuredRuns(ra, rb, CompareOptions());
  std::vector<const FlameGraph*> ga, gb;
  for (int k = 0; k < 2 * kRuns; ++k) (k < kRuns ? ga : gb).push_back(&inProcess[k]);
  const RunComparison model = verdict::CompareRuns(ga, gb, {}, CompareOptions());
  // The same functions with the same shares: frames read back are "model.so!<frame>".
  REQUIRE(files.functions.size() == model.functions.size());
  std::map<std::string, const verdict::FunctionChange*> byName;
  for (const auto& f : model.functions) byName["model.so!" + model.tree.names[f.frame]] = &f;
  for (const auto& f : files.functions) {
    const std::string& name = files.tree.names[f.frame];
    REQUIRE(byName.count(name));
    CHECK(f.inclusive.a == byName[name]->inclusive.a);
    CHECK(f.inclusive.b == byName[name]->inclusive.b);
    CHECK(f.exclusive.test.p == byName[name]->exclusive.test.p);
    CHECK(f.change == byName[name]->change);
  }
  CHECK(files.unit == WeightUnit::kNanoseconds);  // cpu samples weigh their Value
  if (planted.empty()) {
    CHECK(files.flaggedFunctions == 0);
  } else {
    REQUIRE(files.flaggedFunctions > 0);
    bool grown = false;
    for (const auto& f : files.functions) grown = grown || (files.tree.names[f.frame] == "model.so!" + planted && f.change == Change::kGrown);
    CHECK(grown);
  }
}

TEST_CASE("many-run comparison through written traces equals the in-process one", "[verdict][planted]") {
  const StackModel model = SyntheticModel();
  const std::string function = FunctionNear(model, 0.08);
  const StackModel planted = Planted(model, function, kGrowth);
  EndToEnd(model, planted, 11, function);
  EndToEnd(model, model, 12, "");
}

}  // namespace
}  // namespace nettrace::test
