// A/B stack diff: A vs A is all zero; a trace with one added hot function shows
// exactly that function; each side's totals add up; the folded diff equals the two sides'
// own folded stacks merged by path (an independent computation).
#include <catch2/catch.hpp>

#include <map>
#include <set>
#include <sstream>

#include "analysis/stacks/flame_graph.h"
#include "analysis/stacks/stack_diff.h"
#include "unit/stacks/stacks_test_support.h"
#include "write/universal_trace_writer.h"

namespace nettrace {
namespace {

// Per side: inclusive = exclusive + children; the root is the total; x spans on B nest.
void CheckDiffIntegrity(const StackDiff& d) {
  REQUIRE(d.size() > 0);
  CHECK(d.InclusiveA(0) == d.TotalA());
  CHECK(d.InclusiveB(0) == d.TotalB());
  CHECK(Share(d.InclusiveA(0), d.TotalA()) == (d.TotalA() ? 1.0 : 0.0));
  CHECK(Share(d.InclusiveB(0), d.TotalB()) == (d.TotalB() ? 1.0 : 0.0));
  std::vector<uint64_t> childA(d.size(), 0), childB(d.size(), 0);
  uint64_t exclusiveA = 0, exclusiveB = 0;
  size_t badNesting = 0;
  for (size_t n = 0; n < d.size(); ++n) {
    exclusiveA += d.ExclusiveA(n), exclusiveB += d.ExclusiveB(n);
    CHECK(d.end[n] - d.start[n] == d.InclusiveB(n));
    if (n == 0) continue;
    REQUIRE(d.tree.parent[n] < n);
    CHECK(d.tree.depth[n] == d.tree.depth[d.tree.parent[n]] + 1);
    childA[d.tree.parent[n]] += d.InclusiveA(n), childB[d.tree.parent[n]] += d.InclusiveB(n);
    if (d.start[n] < d.start[d.tree.parent[n]] || d.end[n] > d.end[d.tree.parent[n]]) ++badNesting;
  }
  CHECK(badNesting == 0);
  // Sum of exclusive changes = change of the total (exact, in weight units).
  CHECK(exclusiveA == d.TotalA());
  CHECK(exclusiveB == d.TotalB());
  size_t bad = 0;
  for (size_t n = 0; n < d.size(); ++n)
    if (d.InclusiveA(n) != d.ExclusiveA(n) + childA[n] || d.InclusiveB(n) != d.ExclusiveB(n) + childB[n]) ++bad;
  CHECK(bad == 0);
}

// "path weight" lines → path → weight.
std::map<std::string, uint64_t> ParseFolded(const std::string& text) {
  std::map<std::string, uint64_t> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    const size_t sp = line.rfind(' ');
    out[line.substr(0, sp)] += std::stoull(line.substr(sp + 1));
  }
  return out;
}

// The folded diff the two sides' own folded stacks give, merged by path.
std::string MergedFolded(const std::string& a, const std::string& b) {
  std::map<std::string, std::pair<uint64_t, uint64_t>> merged;
  for (const auto& [path, w] : ParseFolded(a)) merged[path].first = w;
  for (const auto& [path, w] : ParseFolded(b)) merged[path].second = w;
  std::string out;
  for (const auto& [path, w] : merged) out += path + ' ' + std::to_string(w.first) + ' ' + std::to_string(w.second) + '\n';
  return out;
}

// The committed traces with the most sample-profiler samples, and the largest file.
const char* const kCpuTraces[] = {"eventpipe-dotnetcore3.0-win-x64-objver4.nettrace", "dotnet10/net10-cpu-async-http.nettrace",
                                  "sentry-net6-profile-with-task.nettrace", "HeartRateMonitor.10068.nettrace"};

TEST_CASE("diff of a trace against itself is all zero", "[diff]") {
  for (const char* name : kCpuTraces) {
    auto s = test::LoadCorpus(name);
    // Count and dotnet-trace's thread time (the app's default for CPU samples).
    for (WeightKind weight : {WeightKind::kAuto, WeightKind::kTraceEventThreadTime}) {
      INFO(name << " weight " << static_cast<int>(weight));
      StackQuery q;
      q.weight = weight;
      const StackDiff d = BuildStackDiff(*s, q, *s, q);
      CheckDiffIntegrity(d);
      CHECK(d.TotalA() > 0);
      CHECK(d.TotalA() == d.TotalB());
      CHECK(d.size() == s->BuildFlameGraph(q).size());  // the same tree, merged onto itself
      size_t changed = 0;
      for (size_t n = 0; n < d.size(); ++n)
        if (d.InclusiveA(n) != d.InclusiveB(n) || d.ExclusiveA(n) != d.ExclusiveB(n)) ++changed;
      CHECK(changed == 0);
      const std::vector<FunctionDiff> fns = DiffFunctions(d);
      CHECK(!fns.empty());
      size_t nonZero = 0;
      for (const FunctionDiff& f : fns)
        if (f.inclusiveDelta != 0 || f.exclusiveDelta != 0 || f.inclusiveA != f.inclusiveB) ++nonZero;
      CHECK(nonZero == 0);
      const std::string folded = s->FoldedStacks(q);
      CHECK(StackDiffToFolded(d) == MergedFolded(folded, folded));
      // Every delta prints as exactly zero.
      const std::string json = StackDiffToJson(d, fns, SIZE_MAX);
      CHECK(json.find("\"delta\":[0.000000000") != std::string::npos);
      CHECK(json.find("-0.0") == std::string::npos);
    }
  }
}

TEST_CASE("diff of two time ranges of one trace equals their folded stacks merged", "[diff]") {
  for (const char* name : kCpuTraces) {
    INFO(name);
    auto s = test::LoadCorpus(name);
    StackQuery whole;
    const FlameGraph all = s->BuildFlameGraph(whole);
    // Split at the middle of the trace: the two halves differ in shape and total.
    StackQuery a, b;
    const std::string summary = s->SummaryJson();
    const size_t at = summary.find("\"endMs\":");
    REQUIRE(at != std::string::npos);
    const double endMs = std::stod(summary.substr(at + 8));
    // The first of these splits that leaves samples on both sides (samples may cluster).
    // Event times are whole nanoseconds: nothing lies between mid and mid + 0.5 ns.
    StackDiff d;
    for (double fraction : {0.5, 0.4, 0.6, 0.3, 0.7}) {
      const double mid = static_cast<double>(static_cast<uint64_t>(endMs * fraction)) + 0.5;
      a.toMs = mid, b.fromMs = mid + 0.5e-6;
      d = BuildStackDiff(*s, a, *s, b);
      if (d.TotalA() > 0 && d.TotalB() > 0) break;
    }
    CheckDiffIntegrity(d);
    REQUIRE(d.TotalA() > 0);
    REQUIRE(d.TotalB() > 0);
    CHECK(d.TotalA() + d.TotalB() == all.total);
    CHECK(StackDiffToFolded(d) == MergedFolded(s->FoldedStacks(a), s->FoldedStacks(b)));
    // The function table's exclusive weights add up to each side's total, its inclusive
    // weights equal each side's TopFunctions.
    uint64_t exA = 0, exB = 0;
    for (const FunctionDiff& f : DiffFunctions(d)) exA += f.exclusiveA, exB += f.exclusiveB;
    CHECK(exA == d.TotalA() - d.ExclusiveA(0));
    CHECK(exB == d.TotalB() - d.ExclusiveB(0));
  }
}

// Two written traces: B is A plus 40 ms of CPU in one new function, Hot, called from Work.
std::vector<uint8_t> WriteWorkTrace(bool withHot) {
  UniversalTraceWriter w;
  w.AddThread(1, 1000, 1000, "app");
  w.ExistingProcess(0, 1, "app");
  w.ProcessMapping(0, 1, 1, 0x7e0000000000, 0x7e0000100000, 0, "/memfd:doublemapper (deleted)", 0);
  w.ProcessSymbol(0, 1, 1, 1, 0x7e0000001000, 0x7e0000001100, "void [App] Demo::Main()[OptimizedTier1]");
  w.ProcessSymbol(0, 1, 2, 1, 0x7e0000002000, 0x7e0000002100, "void [App] Demo::Work()[OptimizedTier1]");
  w.ProcessSymbol(0, 1, 3, 1, 0x7e0000003000, 0x7e0000003100, "void [App] Demo::Parse()[OptimizedTier1]");
  w.ProcessSymbol(0, 1, 4, 1, 0x7e0000004000, 0x7e0000004100, "void [App] Demo::Hot()[OptimizedTier1]");
  const uint64_t ms = 1000000;
  const uint32_t work = w.AddStack({0x7e0000002010, 0x7e0000001010});
  const uint32_t parse = w.AddStack({0x7e0000003010, 0x7e0000002010, 0x7e0000001010});
  const uint32_t hot = w.AddStack({0x7e0000004010, 0x7e0000002010, 0x7e0000001010});
  for (uint64_t i = 0; i < 10; ++i) {
    w.Cpu((i + 1) * ms, 1, 3 * ms, parse);
    w.Cpu((i + 1) * ms + 1, 1, ms, work);
    if (withHot && i % 2 == 0) w.Cpu((i + 1) * ms + 2, 1, 8 * ms, hot);
  }
  std::vector<uint8_t> bytes;
  REQUIRE(w.Finish(&bytes).ok());
  return bytes;
}

TEST_CASE("diff against a trace with one added hot function shows exactly it", "[diff]") {
  auto a = test::LoadSession(WriteWorkTrace(false));
  auto b = test::LoadSession(WriteWorkTrace(true));
  StackQuery q;
  q.event = "cpu";
  const StackDiff d = BuildStackDiff(*a, q, *b, q);
  CheckDiffIntegrity(d);
  CHECK(d.TotalA() == 40000000);
  CHECK(d.TotalB() == 80000000);
  // Absolute changes: exclusive only in Hot; inclusive only on Hot's path.
  std::set<std::string> exclusiveChanged, inclusiveChanged;
  const std::vector<FunctionDiff> fns = DiffFunctions(d);
  for (const FunctionDiff& f : fns) {
    if (f.exclusiveA != f.exclusiveB) exclusiveChanged.insert(d.tree.names[f.frame]);
    if (f.inclusiveA != f.inclusiveB) inclusiveChanged.insert(d.tree.names[f.frame]);
  }
  const std::string hotName = d.tree.names[fns[0].frame];
  CHECK(hotName == "App!Demo.Hot");
  CHECK(exclusiveChanged == std::set<std::string>{hotName});
  CHECK(fns[0].exclusiveA == 0);
  CHECK(fns[0].exclusiveB == 40000000);
  CHECK(fns[0].exclusiveDelta == 0.5);  // half of B, none of A
  CHECK(inclusiveChanged == std::set<std::string>{"App!Demo.Hot", "App!Demo.Work", "App!Demo.Main"});
  // Normalised: every other leaf halves its share (B's total doubled).
  for (const FunctionDiff& f : fns)
    if (f.frame != fns[0].frame && f.exclusiveA > 0) CHECK(f.exclusiveDelta == -Share(f.exclusiveA, d.TotalA()) / 2);
  CHECK(StackDiffToFolded(d) == MergedFolded(a->FoldedStacks(q), b->FoldedStacks(q)));
  CHECK(StackDiffToFolded(d) ==
        "App!Demo.Main;App!Demo.Work 10000000 10000000\n"
        "App!Demo.Main;App!Demo.Work;App!Demo.Hot 0 40000000\n"
        "App!Demo.Main;App!Demo.Work;App!Demo.Parse 30000000 30000000\n");
  // B's layout: Hot (40 ms) then Parse (30 ms) under Work, then Work's own 10 ms.
  REQUIRE(d.size() == 5);
  CHECK(d.tree.names[d.tree.frame[3]] == "App!Demo.Hot");
  CHECK(d.start[3] == 0);
  CHECK(d.end[3] == 40000000);
  CHECK(d.start[4] == 40000000);
  CHECK(d.end[4] == 70000000);

  // The other way round, Hot exists only in the baseline: zero width in the layout.
  const StackDiff back = BuildStackDiff(*b, q, *a, q);
  CheckDiffIntegrity(back);
  size_t hotNodes = 0;
  for (size_t n = 0; n < back.size(); ++n)
    if (back.tree.names[back.tree.frame[n]] == hotName) {
      ++hotNodes;
      CHECK(back.start[n] == back.end[n]);
      CHECK(back.InclusiveA(n) == 40000000);
    }
  CHECK(hotNodes == 1);
}

}  // namespace
}  // namespace nettrace
