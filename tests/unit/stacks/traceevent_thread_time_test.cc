// --weight traceevent-thread-time (core/analysis/stacks/traceevent_thread_time.h) on real traces: every
// stack ends in TraceEvent's CPU_TIME or UNMANAGED_CODE_TIME leaf, a time range's intervals are
// those begun inside it (two adjacent ranges add up to the whole), and the process grouping
// keeps the total. Exact equality with dotnet-trace is tests/node/thread_time.test.mjs.
#include <sstream>

#include "unit/stacks/stacks_test_support.h"

namespace nettrace {
namespace {

StackQuery ThreadTime() {
  StackQuery q;
  q.weight = WeightKind::kTraceEventThreadTime;
  return q;
}

TEST_CASE("traceevent-thread-time: leaves, ranges and grouping on real traces", "[stacks]") {
  for (const char* name : {"pyroscope-net5-single-thread.nettrace", "sentry-net6-profile-with-task.nettrace",
                           "HeartRateMonitor.10068.nettrace"}) {
    INFO(name);
    auto session = test::LoadCorpus(name);
    const FlameGraph all = session->BuildFlameGraph(ThreadTime());
    CHECK(all.unit == WeightUnit::kNanoseconds);
    REQUIRE(all.total > 0);
    test::CheckFlameGraphIntegrity(all);

    std::istringstream folded(session->FoldedStacks(ThreadTime()));
    size_t lines = 0, badLeaf = 0;
    for (std::string line; std::getline(folded, line); ++lines) {
      const std::string stack = line.substr(0, line.rfind(' '));
      const std::string leaf = stack.substr(stack.rfind(';') + 1);
      if (leaf != "CPU_TIME" && leaf != "UNMANAGED_CODE_TIME") ++badLeaf;
    }
    CHECK(lines > 0);
    CHECK(badLeaf == 0);

    StackQuery before = ThreadTime(), after = ThreadTime();
    before.toMs = 1000.0000005;  // between two ticks: no event lies in both ranges
    after.fromMs = 1000.0000005;
    CHECK(session->BuildFlameGraph(before).total + session->BuildFlameGraph(after).total == all.total);

    StackQuery grouped = ThreadTime();
    grouped.groupByProcess = true;
    grouped.groupByThread = true;
    CHECK(session->BuildFlameGraph(grouped).total == all.total);
  }
}

}  // namespace
}  // namespace nettrace

namespace nettrace {
namespace {

// The selection is one entry a sample or so on sample-heavy traces: its columns are sized once,
// not grown by doubling (up to 22 bytes a sample of slack).
TEST_CASE("traceevent-thread-time: the selection's columns are sized once", "[stacks]") {
  auto session = test::LoadCorpus("HeartRateMonitor.10068.nettrace");
  StackResolver resolver(session->model(), session->symbols());
  const StackSelection sel = SelectStacks(session->model(), session->symbols(), &resolver, ThreadTime());
  REQUIRE(sel.rows.size() > 500);
  CHECK(sel.rows.capacity() == sel.rows.size());
  CHECK(sel.threads.capacity() == sel.threads.size());
  CHECK(sel.callStacks.capacity() == sel.callStacks.size());
  CHECK(sel.weights.capacity() == sel.weights.size());
  CHECK(sel.spansMs.capacity() == sel.spansMs.size());
}

}  // namespace
}  // namespace nettrace
