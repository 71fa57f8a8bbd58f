// Async stitching of thread-pool work (core/analysis/stacks/async_stitching.h) on the committed trace
// that has thread-pool events (objver4: five ThreadPool/Enqueue, /Dequeue pairs). Stitching
// moves time between threads' stacks and never changes the total; the one interval that
// TraceEvent stitches (thread 8308's stack-less allocation at 27853.9 ms, inside a work item
// queued by thread 11828 inside one queued by thread 8340) lies under thread 8340's queuing
// stack and two STARTING TASK frames. Exact equality with dotnet-trace is
// tests/node/thread_time.test.mjs.
#include <sstream>

#include "analysis/stacks/async_stitching.h"
#include "unit/stacks/stacks_test_support.h"

namespace nettrace {
namespace {


// Folded lines (with thread frames) that contain a STARTING TASK frame.
std::vector<std::string> Stitched(const std::string& folded) {
  std::vector<std::string> out;
  std::istringstream in(folded);
  for (std::string line; std::getline(in, line);)
    if (line.find(kStartingTaskFrameName) != std::string::npos) out.push_back(line);
  return out;
}

TEST_CASE("async stitching: objver4's thread-pool work joins the queuing thread's stacks", "[stacks]") {
  auto session = test::LoadCorpus("eventpipe-dotnetcore3.0-win-x64-objver4.nettrace");
  const FlameGraph on = session->BuildFlameGraph(test::TraceEventThreadTime(true));
  const FlameGraph off = session->BuildFlameGraph(test::TraceEventThreadTime(false));
  test::CheckFlameGraphIntegrity(on);
  CHECK(on.total == off.total);
  CHECK(std::string(on.stitching) == "on");
  CHECK(std::string(off.stitching) == "off");
  CHECK(on.frame.size() != off.frame.size());

  CHECK(Stitched(session->FoldedStacks(test::TraceEventThreadTime(false))).empty());
  const std::vector<std::string> lines = Stitched(session->FoldedStacks(test::TraceEventThreadTime(true)));
  REQUIRE(lines.size() == 1);
  const std::string& line = lines[0];
  CHECK(line.rfind("Thread (8340);", 0) == 0);
  CHECK(line.find("ManagedModule!EventGenerator.Program+<>c__DisplayClass1_0.<Main>b__0") != std::string::npos);
  CHECK(line.find(";STARTING TASK;STARTING TASK;CPU_TIME ") != std::string::npos);
}

TEST_CASE("async stitching: unavailable without thread-pool events, with the reason", "[stacks]") {
  auto session = test::LoadCorpus("pyroscope-net5-single-thread.nettrace");
  const FlameGraph g = session->BuildFlameGraph(test::TraceEventThreadTime(true));
  CHECK(std::string(g.stitching) == "unavailable");
  CHECK(std::string(g.stitchingReason) == kStitchingUnavailableReason);
  StackQuery count;
  CHECK(session->BuildFlameGraph(count).stitching == nullptr);
}

}  // namespace
}  // namespace nettrace
