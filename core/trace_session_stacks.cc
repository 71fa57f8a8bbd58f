// TraceSession's stack views and exports (issue 4), kept apart from trace_session.cc:
// they only read the model and the symbols the pipeline collected.
#include <cstdio>

#include "analysis/allocation_samples.h"
#include "analysis/call_tree.h"
#include "analysis/stack_frames.h"
#include "analysis/flame_graph.h"
#include "analysis/top_functions.h"
#include "analysis/stack_transform.h"
#include "base/json_writer.h"
#include "export/exports.h"
#include "analysis/runtime_views.h"
#include "trace_session.h"

namespace nettrace {

namespace {
// The stack selection of a query, narrowed or re-weighed by the event views (an exception
// type, time waited), then regrouped and filtered by its transform.
StackSelection SelectRefined(const TraceSession& session, StackResolver* resolver, const StackQuery& asked) {
  // The alloc-bytes / alloc-objects weights select the allocation events themselves.
  const StackQuery query = session.allocations().Retarget(asked);
  StackSelection sel = SelectStacks(session.model(), session.symbols(), resolver, query);
  session.views().Refine(session.model(), query, &sel);
  session.allocations().Refine(session.model(), session.symbols(), query, resolver, &sel);
  // Grouping, folding, include/exclude (issue 13 item 3): the one place every stack view,
  // export and diff gets its stacks from.
  ApplyStackTransform(query.transform, resolver, &sel);
  return sel;
}
}  // namespace

FlameGraph TraceSession::BuildFlameGraph(const StackQuery& query) const {
  StackResolver resolver(model(), symbols());
  StackSelection sel = SelectRefined(*this, &resolver, query);
  CallTree tree = BuildCallTree(model(), sel, &resolver, query.inverted,
                                query.groupByThread && !GroupFramesInStacks(query));
  FlameGraph g = LayoutFlameGraph(tree, resolver.frames(), sel.unit);
  g.stitching = sel.stitching;
  g.stitchingReason = sel.stitchingReason;
  return g;
}

std::string TraceSession::FlameGraphJson(const StackQuery& query) const { return FlameGraphToJson(BuildFlameGraph(query)); }

std::string TraceSession::FoldedStacks(const StackQuery& query) const {
  StackResolver resolver(model(), symbols());
  StackSelection sel = SelectRefined(*this, &resolver, query);
  return ExportFolded(model(), sel, &resolver, query.groupByThread && !GroupFramesInStacks(query));
}

std::string TraceSession::TopFunctionsJson(const StackQuery& query, size_t n) const {
  StackResolver resolver(model(), symbols());
  StackSelection sel = SelectRefined(*this, &resolver, query);
  return TopFunctionsToJson(TopFunctions(sel, resolver), resolver.frames(), n, sel.totalWeight, sel.unit);
}

void TraceSession::BuildSandwich(const StackQuery& query, const std::string& function, FlameGraph* callers,
                                 FlameGraph* callees) const {
  StackResolver resolver(model(), symbols());
  StackSelection sel = SelectRefined(*this, &resolver, query);
  const uint32_t fn = resolver.frames().Intern(function, FrameKind::kSynthetic);  // existing frames keep their kind
  Sandwich s = nettrace::BuildSandwich(sel, resolver, fn);
  *callers = LayoutFlameGraph(s.callers, resolver.frames(), sel.unit);
  *callees = LayoutFlameGraph(s.callees, resolver.frames(), sel.unit);
}

std::string TraceSession::SandwichJson(const StackQuery& query, const std::string& function) const {
  FlameGraph callers, callees;
  BuildSandwich(query, function, &callers, &callees);
  std::string out = "{\"function\":";
  AppendJsonString(function, &out);
  out += ",\"callers\":" + FlameGraphToJson(callers);
  out += ",\"callees\":" + FlameGraphToJson(callees) + "}";
  return out;
}

std::string TraceSession::ExportSpeedscope(const StackQuery& query, const std::string& name) const {
  StackResolver resolver(model(), symbols());
  StackSelection sel = SelectRefined(*this, &resolver, query);
  return nettrace::ExportSpeedscope(model(), sel, &resolver, name);
}

std::string TraceSession::ExportSpeedscopeEvented(const StackQuery& query, const std::string& name) const {
  StackResolver resolver(model(), symbols());
  StackSelection sel = SelectRefined(*this, &resolver, query);
  if (sel.unit != WeightUnit::kNanoseconds) return nettrace::ExportSpeedscope(model(), sel, &resolver, name);
  const bool before = query.weight == WeightKind::kThreadTime || query.weight == WeightKind::kManagedThreadTime;
  return nettrace::ExportSpeedscopeEvented(model(), sel, &resolver, name,
                                           query.groupByThread && !GroupFramesInStacks(query), before);
}

std::string TraceSession::ExportEventsCsv(bool stackText) const {
  StackResolver resolver(model(), symbols());
  return nettrace::ExportEventsCsv(model(), &resolver, stackText);
}

std::string TraceSession::ExportStacksCsv() const {
  StackResolver resolver(model(), symbols());
  return nettrace::ExportStacksCsv(model(), &resolver);
}

}  // namespace nettrace

namespace nettrace {

namespace {

// The frame names of one event's stack, leaf first, to f.
template <typename F>
void ForEachEventFrame(const TraceSession& session, uint32_t row, F&& f) {
  const StoreBuilder& m = session.model();
  if (row >= m.store().size()) return;
  StackResolver resolver(m, session.symbols());
  const ThreadEntry& thread = m.threads()[m.store().thread(row)];
  const CallStackTable& stacks = resolver.stacks();
  const uint32_t leaf = resolver.Resolve(m.store().stack(row), m.store().timestamp(row), thread.processId);
  // The flame graph's leaf for sample-profiler samples taken outside managed code (call_tree.cc).
  const EventType& type = m.types()[m.store().type(row)];
  if (IsSampleProfilerSample(type) && session.symbols().IsExternalSample(m.store().ordinal(row))) f(kExternalFrameName);
  for (uint32_t s = leaf; s != 0; s = stacks.parent(s)) f(resolver.frames().name(stacks.frame(s)));
}

}  // namespace

std::vector<std::string> TraceSession::EventStack(uint32_t row) const {
  std::vector<std::string> out;
  ForEachEventFrame(*this, row, [&](const std::string& name) { out.push_back(name); });
  return out;
}

std::string TraceSession::EventStackJson(uint32_t row) const {
  JsonWriter w;
  w.BeginArray();
  ForEachEventFrame(*this, row, [&](const std::string& name) { w.String(name); });
  w.EndArray();
  return w.Take();
}

std::vector<std::string> TraceSession::EventStackAddresses(uint32_t row) const {
  const StoreBuilder& m = model();
  std::vector<std::string> out;
  if (row >= m.store().size()) return out;
  for (uint64_t address : StackResolver(m, symbols()).Addresses(m.store().stack(row))) {
    char text[24];
    std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(address));
    out.emplace_back(text);
  }
  return out;
}

}  // namespace nettrace
