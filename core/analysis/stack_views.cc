#include "analysis/stack_views.h"

#include <cstdio>

#include "analysis/allocation_samples.h"
#include "analysis/runtime_views.h"
#include "analysis/stack_transform.h"
#include "analysis/top_functions.h"
#include "base/json_writer.h"
#include "symbols/symbol_collector.h"

namespace nettrace {

StackSelection SelectRefinedStacks(const TraceModel& model, StackResolver* resolver, const StackQuery& asked) {
  // The alloc-bytes / alloc-objects weights select the allocation events themselves.
  const StackQuery query = model.allocations().Retarget(asked);
  StackSelection sel = SelectStacks(model, model.symbols(), resolver, query);
  model.views().Refine(model, query, &sel);
  model.allocations().Refine(model, model.symbols(), query, resolver, &sel);
  // Grouping, folding, include/exclude: PerfView's GroupPats, FoldPats, ExcPats, IncPats.
  ApplyStackTransform(query.transform, resolver, &sel);
  return sel;
}

FlameGraph BuildFlameGraph(const TraceModel& model, const StackQuery& query) {
  StackResolver resolver(model, model.symbols());
  StackSelection sel = SelectRefinedStacks(model, &resolver, query);
  CallTree tree = BuildCallTree(model, sel, &resolver, query.inverted, query.groupByThread && !GroupFramesInStacks(query));
  FlameGraph g = LayoutFlameGraph(tree, resolver.frames(), sel.unit);
  g.stitching = sel.stitching;
  g.stitchingReason = sel.stitchingReason;
  return g;
}

std::string FlameGraphJson(const TraceModel& model, const StackQuery& query) {
  return FlameGraphToJson(BuildFlameGraph(model, query));
}

std::string TopFunctionsJson(const TraceModel& model, const StackQuery& query, size_t n) {
  StackResolver resolver(model, model.symbols());
  StackSelection sel = SelectRefinedStacks(model, &resolver, query);
  return TopFunctionsToJson(TopFunctions(sel, resolver), resolver.frames(), n, sel.totalWeight, sel.unit);
}

void BuildSandwich(const TraceModel& model, const StackQuery& query, const std::string& function, FlameGraph* callers,
                   FlameGraph* callees) {
  StackResolver resolver(model, model.symbols());
  StackSelection sel = SelectRefinedStacks(model, &resolver, query);
  const uint32_t fn = resolver.frames().Intern(function, FrameKind::kSynthetic);  // existing frames keep their kind
  Sandwich s = BuildSandwich(sel, resolver, fn);
  *callers = LayoutFlameGraph(s.callers, resolver.frames(), sel.unit);
  *callees = LayoutFlameGraph(s.callees, resolver.frames(), sel.unit);
}

std::string SandwichJson(const TraceModel& model, const StackQuery& query, const std::string& function) {
  FlameGraph callers, callees;
  BuildSandwich(model, query, function, &callers, &callees);
  std::string out = "{\"function\":";
  AppendJsonString(function, &out);
  out += ",\"callers\":" + FlameGraphToJson(callers);
  out += ",\"callees\":" + FlameGraphToJson(callees) + "}";
  return out;
}

namespace {

// The frame names of one event's stack, leaf first, to f.
template <typename F>
void ForEachEventFrame(const TraceModel& model, uint32_t row, F&& f) {
  if (row >= model.store().size()) return;
  StackResolver resolver(model, model.symbols());
  const ThreadEntry& thread = model.threads()[model.store().thread(row)];
  const CallStackTable& stacks = resolver.stacks();
  const uint32_t leaf = resolver.Resolve(model.store().stack(row), model.store().timestamp(row), thread.processId);
  // The flame graph's leaf for sample-profiler samples taken outside managed code (call_tree.cc).
  const EventType& type = model.types()[model.store().type(row)];
  if (IsSampleProfilerSample(type) && model.symbols().IsExternalSample(model.store().ordinal(row))) f(kExternalFrameName);
  for (uint32_t s = leaf; s != 0; s = stacks.parent(s)) f(resolver.frames().name(stacks.frame(s)));
}

}  // namespace

std::vector<std::string> EventStackFrames(const TraceModel& model, uint32_t row) {
  std::vector<std::string> out;
  ForEachEventFrame(model, row, [&](const std::string& name) { out.push_back(name); });
  return out;
}

std::string EventStackJson(const TraceModel& model, uint32_t row) {
  JsonWriter w;
  w.BeginArray();
  ForEachEventFrame(model, row, [&](const std::string& name) { w.String(name); });
  w.EndArray();
  return w.Take();
}

std::vector<std::string> EventStackAddresses(const TraceModel& model, uint32_t row) {
  std::vector<std::string> out;
  if (row >= model.store().size()) return out;
  for (uint64_t address : StackResolver(model, model.symbols()).Addresses(model.store().stack(row))) {
    char text[24];
    std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(address));
    out.emplace_back(text);
  }
  return out;
}

StackQuery WithDefaultWeight(const TraceModel& model, StackQuery query) {
  if (AutoMeansTraceEventThreadTime(model, query)) query.weight = WeightKind::kTraceEventThreadTime;
  return query;
}

void ResolveDiffWeights(const TraceModel& a, StackQuery* queryA, const TraceModel& b, StackQuery* queryB) {
  const WeightKind resolvedA = WithDefaultWeight(a, *queryA).weight, resolvedB = WithDefaultWeight(b, *queryB).weight;
  if (resolvedA != queryA->weight) queryA->weight = queryB->weight = resolvedA;
  else if (resolvedB != queryB->weight) queryA->weight = queryB->weight = resolvedB;
}

StackDiff BuildStackDiff(const TraceModel& a, const StackQuery& queryA, const TraceModel& b, const StackQuery& queryB) {
  StackQuery qa = queryA, qb = queryB;
  qa.inverted = qb.inverted = false;  // paths are compared root first
  return DiffFlameGraphs(BuildFlameGraph(a, qa), BuildFlameGraph(b, qb));
}

std::string StackDiffJson(const TraceModel& a, const StackQuery& queryA, const TraceModel& b, const StackQuery& queryB,
                          size_t maxFunctions) {
  const StackDiff diff = BuildStackDiff(a, queryA, b, queryB);
  return StackDiffToJson(diff, DiffFunctions(diff), maxFunctions);
}

std::string StackDiffFolded(const TraceModel& a, const StackQuery& queryA, const TraceModel& b,
                            const StackQuery& queryB) {
  return StackDiffToFolded(BuildStackDiff(a, queryA, b, queryB));
}

}  // namespace nettrace
