// Grouping, folding and filtering of stacks (core/analysis/stacks/stack_transform.h), PerfView's
// GroupPats / FoldPats / ExcPats / IncPats and the presets, each rule on stacks built from the
// frames of a real trace (net10-cpu-async-http: the TraceScenarios app over the .NET 10
// runtime); the frames are first checked to be the trace's own. Whole-trace sums (module totals,
// fold and exclude weights) are tests/node/stack_transform.test.mjs.
#include <algorithm>

#include "analysis/stacks/frame_pattern.h"
#include "analysis/stacks/stack_transform.h"
#include "unit/stacks/stacks_test_support.h"

namespace nettrace {
namespace {

const char* const kStart = "System.Private.CoreLib!System.Threading.Thread.StartCallback";
const char* const kMain = "TraceScenarios!TraceScenarios.Program.<Main>";
const char* const kRun = "TraceScenarios!TraceScenarios.ThreadPoolScenario+<>c__DisplayClass2_0.<RunAsync>b__1";
const char* const kCountdown = "System.Threading!System.Threading.CountdownEvent.Wait";
const char* const kMres = "System.Private.CoreLib!System.Threading.ManualResetEventSlim.Wait";
const char* const kMonitor = "System.Private.CoreLib!System.Threading.Monitor.Wait";

struct Fixture {
  std::unique_ptr<TraceSession> session = test::LoadCorpus("dotnet10/net10-cpu-async-http.nettrace");
  StackResolver resolver{session->model(), session->symbols()};
  Fixture() {
    StackQuery q;
    q.weight = WeightKind::kTraceEventThreadTime;
    SelectStacks(session->model(), session->symbols(), &resolver, q);  // interns the trace's frames
    const size_t before = resolver.frames().size();
    for (const char* f : {kStart, kMain, kRun, kCountdown, kMres, kMonitor, kExternalFrameName, "CPU_TIME"})
      Frame(f);
    REQUIRE(resolver.frames().size() == before);  // none was new: all are the trace's
  }
  uint32_t Frame(const std::string& name) { return resolver.frames().Intern(name, FrameKind::kSynthetic); }
  uint32_t Stack(const std::vector<std::string>& rootFirst) {
    uint32_t s = 0;
    for (const std::string& f : rootFirst) s = resolver.stacks().Push(s, Frame(f));
    return s;
  }
  std::vector<std::string> Names(uint32_t s) const {
    std::vector<std::string> out;
    for (uint32_t f : resolver.stacks().Frames(s)) out.push_back(resolver.frames().name(f));
    return out;
  }
  // One selection entry per stack, weights 1, 10, 100, …; applies the transform.
  StackSelection Apply(const StackTransformOptions& o, const std::vector<std::vector<std::string>>& stacks) {
    StackSelection sel;
    uint64_t w = 1;
    for (const auto& st : stacks) {
      sel.rows.push_back(static_cast<uint32_t>(sel.rows.size()));
      sel.threads.push_back(0);
      sel.callStacks.push_back(Stack(st));
      sel.weights.push_back(w);
      sel.totalWeight += w;
      w *= 10;
    }
    ApplyStackTransform(o, &resolver, &sel);
    return sel;
  }
};

using Names = std::vector<std::string>;

TEST_CASE("frame patterns: PerfView's % * ^ | {} on real frame names", "[stacks][transform]") {
  std::vector<std::string> caps;
  REQUIRE(FramePattern("{%}!").Match(kRun, &caps));
  CHECK(caps[1] == "TraceScenarios");  // % stops at '!'
  CHECK(caps[0] == "TraceScenarios!");
  CHECK(FramePattern("threading.monitor").Match(kMonitor));  // unanchored, case-insensitive
  CHECK_FALSE(FramePattern("^Threading").Match(kMonitor));
  CHECK(FramePattern("^System.Private%!").Match(kMonitor));
  CHECK(FramePattern("Program.*Main").Match(kMain));
  CHECK_FALSE(FramePattern("Program.%Main").Match(kMain));  // '<' is not in %'s class
  CHECK(FramePattern("Nothing|CountdownEvent").Match(kCountdown));
  CHECK(FramePattern("?!?").Match("?!?"));  // ? is a literal
  CHECK_FALSE(FramePattern("{%").Match(kMain));  // an unbalanced brace is a literal
  CHECK(SplitPatternList(" a ; ;b;") == std::vector<std::string>{"a", "b"});
}

TEST_CASE("group by module: module! frames, consecutive ones merged, weights kept", "[stacks][transform]") {
  Fixture fx;
  StackTransformOptions o;
  o.groupByModule = true;
  StackSelection sel = fx.Apply(o, {{kStart, kMain, kRun, kCountdown, kMres, kExternalFrameName}, {kStart, kMonitor}});
  REQUIRE(sel.size() == 2);
  CHECK(sel.totalWeight == 11);
  CHECK(fx.Names(sel.callStacks[0]) == Names{"System.Private.CoreLib!", "TraceScenarios!", "System.Threading!",
                                              "System.Private.CoreLib!", kExternalFrameName});
  CHECK(fx.Names(sel.callStacks[1]) == Names{"System.Private.CoreLib!"});
}

TEST_CASE("fold: the frame leaves, its weight stays with its caller", "[stacks][transform]") {
  Fixture fx;
  StackTransformOptions o;
  o.foldPats = "Monitor.Wait;ManualResetEventSlim";
  StackSelection sel = fx.Apply(o, {{kStart, kMres, kMonitor, kExternalFrameName}, {kStart, kMres, kMonitor}});
  REQUIRE(sel.size() == 2);
  CHECK(fx.Names(sel.callStacks[0]) == Names{kStart, kExternalFrameName});
  CHECK(fx.Names(sel.callStacks[1]) == Names{kStart});  // the caller is now the leaf: its exclusive weight
  CHECK(sel.totalWeight == 11);
}

TEST_CASE("exclude: stacks with a matching frame leave with exactly their weight", "[stacks][transform]") {
  Fixture fx;
  StackTransformOptions o;
  o.excludePats = "CountdownEvent";
  StackSelection sel = fx.Apply(o, {{kStart, kMain}, {kStart, kCountdown, kMres}, {kStart, kMonitor}});
  REQUIRE(sel.size() == 2);
  CHECK(sel.totalWeight == 101);
  CHECK(sel.weights == std::vector<uint64_t>{1, 100});
  CHECK(fx.Names(sel.callStacks[1]) == Names{kStart, kMonitor});
}

TEST_CASE("include: every pattern must match some frame of the stack", "[stacks][transform]") {
  Fixture fx;
  StackTransformOptions o;
  o.includePats = "TraceScenarios!";
  StackSelection one = fx.Apply(o, {{kStart, kMain}, {kStart, kMonitor}, {kStart, kRun, kCountdown}});
  CHECK(one.weights == std::vector<uint64_t>{1, 100});
  o.includePats = "TraceScenarios!;CountdownEvent";
  StackSelection both = fx.Apply(o, {{kStart, kMain}, {kStart, kMonitor}, {kStart, kRun, kCountdown}});
  CHECK(both.weights == std::vector<uint64_t>{100});
  CHECK(both.totalWeight == 100);
}

TEST_CASE("drop time leaves: CPU_TIME, UNMANAGED_CODE_TIME and unresolved leaves fold away", "[stacks][transform]") {
  Fixture fx;
  StackTransformOptions o;
  o.dropTimeLeaves = true;
  StackSelection sel = fx.Apply(o, {{kStart, kMonitor, kExternalFrameName},
                                    {kStart, kRun, "CPU_TIME"},
                                    {kStart, "libcoreclr.so!?", "?!?"},
                                    {kStart, "?!?", kMonitor}});
  CHECK(fx.Names(sel.callStacks[0]) == Names{kStart, kMonitor});
  CHECK(fx.Names(sel.callStacks[1]) == Names{kStart, kRun});
  CHECK(fx.Names(sel.callStacks[2]) == Names{kStart});
  CHECK(fx.Names(sel.callStacks[3]) == Names{kStart, "?!?", kMonitor});  // only leaves
  CHECK(sel.totalWeight == 1111);
}

TEST_CASE("just my code: each call into the framework is one OTHER <<entry>> frame", "[stacks][transform]") {
  CHECK(IsFrameworkFrame(kStart));
  CHECK(IsFrameworkFrame(kCountdown));
  CHECK(IsFrameworkFrame("libcoreclr.so!?"));
  CHECK(IsFrameworkFrame("coreclr!?"));
  CHECK(IsFrameworkFrame("Microsoft.Extensions.Hosting!X.Run"));
  CHECK(IsFrameworkFrame("?!?"));
  CHECK_FALSE(IsFrameworkFrame(kMain));
  CHECK_FALSE(IsFrameworkFrame("Systematic!A.B"));
  CHECK_FALSE(IsFrameworkFrame(kExternalFrameName));
  Fixture fx;
  StackTransformOptions o;
  o.justMyCode = true;
  StackSelection sel = fx.Apply(o, {{kStart, kMain, kRun, kCountdown, kMres, kMonitor, kExternalFrameName}});
  CHECK(fx.Names(sel.callStacks[0]) == Names{std::string("OTHER <<") + kStart + ">>", kMain, kRun,
                                              std::string("OTHER <<") + kCountdown + ">>", kExternalFrameName});
}

TEST_CASE("group patterns: -> names a group, => keeps the entry, $1 captures, empty name = no group",
          "[stacks][transform]") {
  Fixture fx;
  StackTransformOptions o;
  o.groupPats = "System.Threading.{%}.Wait->waits $1";
  StackSelection sel = fx.Apply(o, {{kStart, kMres, kMonitor}});
  // The two waits are different groups ("waits ManualResetEventSlim", "waits Monitor").
  CHECK(fx.Names(sel.callStacks[0]) == Names{kStart, "waits ManualResetEventSlim", "waits Monitor"});
  o.groupPats = "System.Private.CoreLib!->CoreLib";
  sel = fx.Apply(o, {{kStart, kMres, kMonitor, kExternalFrameName}});
  CHECK(fx.Names(sel.callStacks[0]) == Names{"CoreLib", kExternalFrameName});
  o.groupPats = "System.Private.CoreLib!=>CoreLib";
  sel = fx.Apply(o, {{kStart, kMain, kMres, kMonitor}});
  CHECK(fx.Names(sel.callStacks[0]) ==
        Names{std::string("CoreLib <<") + kStart + ">>", kMain, std::string("CoreLib <<") + kMres + ">>"});
  // A "->" rename goes on through later patterns; "pat->" with no name takes a frame out of every group.
  o.groupPats = "Program.<Main>->;TraceScenarios!->app;^app->my app";
  sel = fx.Apply(o, {{kStart, kRun}, {kStart, kMain}});
  CHECK(fx.Names(sel.callStacks[0]) == Names{kStart, "my app"});
  CHECK(fx.Names(sel.callStacks[1]) == Names{kStart, kMain});
  // Exclude and fold see the grouped name.
  o = {};
  o.groupByModule = true;
  o.excludePats = "^System.Threading!";
  sel = fx.Apply(o, {{kStart, kCountdown}, {kStart, kMonitor}});
  CHECK(sel.weights == std::vector<uint64_t>{10});
}

TEST_CASE("the transform reaches the session's views: group by module on the whole trace", "[stacks][transform]") {
  auto session = test::LoadCorpus("dotnet10/net10-cpu-async-http.nettrace");
  StackQuery q;
  q.weight = WeightKind::kTraceEventThreadTime;
  const FlameGraph plain = session->BuildFlameGraph(q);
  q.transform.groupByModule = true;
  const FlameGraph grouped = session->BuildFlameGraph(q);
  test::CheckFlameGraphIntegrity(grouped);
  CHECK(grouped.total == plain.total);
  for (const std::string& name : grouped.frameNames) {
    const size_t bang = name.find('!');
    CHECK((bang == std::string::npos || bang + 1 == name.size()));
  }
  CHECK(std::find(grouped.frameNames.begin(), grouped.frameNames.end(), "TraceScenarios!") != grouped.frameNames.end());
}

}  // namespace
}  // namespace nettrace
