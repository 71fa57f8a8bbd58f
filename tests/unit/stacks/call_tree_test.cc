// Call trees, inverted trees, flame-graph layout and top functions agree on
// totals for every corpus trace, for CPU samples (per thread or not) and allocations.
#include <map>

#include "analysis/stacks/top_functions.h"
#include "unit/stacks/stacks_test_support.h"

namespace nettrace {
namespace {

void CheckQuery(const TraceSession& session, const StackQuery& q) {
  StackResolver resolver(session.model(), session.symbols());
  StackSelection sel = SelectStacks(session.model(), session.symbols(), &resolver, q);
  uint64_t sum = 0;
  for (uint64_t w : sel.weights) sum += w;
  REQUIRE(sum == sel.totalWeight);

  CallTree tree = BuildCallTree(session.model(), sel, &resolver, false, q.groupByThread);
  CallTree inverted = BuildCallTree(session.model(), sel, &resolver, true, q.groupByThread);
  test::CheckTreeIntegrity(tree, sel.totalWeight);
  test::CheckTreeIntegrity(inverted, sel.totalWeight);
  CHECK(tree.nodes()[0].count == sel.size());
  CHECK(inverted.nodes()[0].count == sel.size());

  // The inverted tree's first level is the leaves: each frame's total there equals the
  // sum of that frame's exclusive weight over the normal tree.
  std::map<uint32_t, uint64_t> exclusiveByFrame, invertedTop;
  for (size_t n = 1; n < tree.nodes().size(); ++n) exclusiveByFrame[tree.nodes()[n].frame] += tree.nodes()[n].exclusive;
  for (size_t n = 1; n < inverted.nodes().size(); ++n)
    if (inverted.nodes()[n].parent == 0 && inverted.nodes()[n].inclusive != 0)  // zero: thread time's first samples
      invertedTop[inverted.nodes()[n].frame] = inverted.nodes()[n].inclusive;
  for (auto it = exclusiveByFrame.begin(); it != exclusiveByFrame.end();)
    it = it->second == 0 ? exclusiveByFrame.erase(it) : std::next(it);
  CHECK(exclusiveByFrame == invertedTop);

  FlameGraph g = LayoutFlameGraph(tree, resolver.frames(), sel.unit);
  CHECK(g.size() == tree.nodes().size());
  test::CheckFlameGraphIntegrity(g);
  test::CheckFlameGraphIntegrity(LayoutFlameGraph(inverted, resolver.frames(), sel.unit));

  uint64_t exclusiveSum = 0;
  for (const FunctionStat& f : TopFunctions(sel, resolver)) {
    exclusiveSum += f.exclusive;
    CHECK(f.inclusive >= f.exclusive);
    CHECK(f.inclusive <= sel.totalWeight);
  }
  // Stacks with no frames weigh on no function.
  uint64_t emptyWeight = 0;
  for (size_t i = 0; i < sel.size(); ++i)
    if (sel.callStacks[i] == 0) emptyWeight += sel.weights[i];
  CHECK(exclusiveSum + emptyWeight == sel.totalWeight);
}

TEST_CASE("stacks: tree totals agree on every corpus trace", "[stacks]") {
  for (const std::string& name : test::CorpusTraces()) {
    INFO(name);
    auto session = test::LoadCorpus(name);
    StackQuery q;
    CheckQuery(*session, q);
    q.groupByThread = true;
    CheckQuery(*session, q);
    StackQuery alloc;
    alloc.event = "GC/AllocationTick";
    CheckQuery(*session, alloc);
    StackQuery time;
    time.weight = WeightKind::kThreadTime;
    CheckQuery(*session, time);
  }
}

TEST_CASE("stacks: time range, thread filter and allocation weights", "[stacks]") {
  auto session = test::LoadCorpus("pyroscope-net5-single-thread.nettrace");
  StackResolver resolver(session->model(), session->symbols());
  StackSelection all = SelectStacks(session->model(), session->symbols(), &resolver, StackQuery{});
  CHECK(all.size() == 5564);  // the corpus manifest's CPU sample count
  CHECK(all.unit == WeightUnit::kSamples);
  StackQuery firstSecond;
  firstSecond.fromMs = 0, firstSecond.toMs = 1000;
  StackSelection part = SelectStacks(session->model(), session->symbols(), &resolver, firstSecond);
  CHECK(part.size() > 0);
  CHECK(part.size() < all.size());
  StackQuery noSuchThread;
  noSuchThread.thread = 1;
  CHECK(SelectStacks(session->model(), session->symbols(), &resolver, noSuchThread).size() == 0);

  auto objver4 = test::LoadCorpus("eventpipe-dotnetcore3.0-win-x64-objver4.nettrace");
  StackResolver r2(objver4->model(), objver4->symbols());
  StackQuery alloc;
  alloc.event = "GC/AllocationTick";
  StackSelection a = SelectStacks(objver4->model(), objver4->symbols(), &r2, alloc);
  CHECK(a.size() == 35458);  // the trace's GC/AllocationTick count
  CHECK(a.unit == WeightUnit::kBytes);
  CHECK(a.totalWeight >= 100000 * a.size() / 2);  // ticks fire about every 100 KB

  // The columns are allocated once, at the count of candidate rows (here every candidate is
  // kept), not grown by doubling: 18 bytes a row for 100 M rows of a multi-GB trace.
  for (const StackSelection* sel : {&all, &part, &a}) {
    CHECK(sel->rows.capacity() == sel->size());
    CHECK(sel->threads.capacity() == sel->size());
    CHECK(sel->callStacks.capacity() == sel->size());
    CHECK(sel->weights.capacity() == sel->size());
  }
}

}  // namespace
}  // namespace nettrace
