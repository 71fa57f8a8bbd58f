// TraceSession's stack views and exports (issue 4), kept apart from trace_session.cc:
// they only read the model and the symbols the pipeline collected.
#include <cstdio>
#include <optional>

#include "analysis/allocation_samples.h"
#include "analysis/call_tree.h"
#include "analysis/stack_frames.h"
#include "analysis/flame_graph.h"
#include "analysis/top_functions.h"
#include "analysis/stack_transform.h"
#include "base/json_writer.h"
#include "export/dotnet_trace_frames.h"
#include "export/exports.h"
#include "export/profile/profile_builder.h"
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
  return DrainExport(FoldedStacksStream(query).get());
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

StackQuery TraceSession::WithDefaultWeight(StackQuery query) const {
  if (AutoMeansTraceEventThreadTime(model(), query)) query.weight = WeightKind::kTraceEventThreadTime;
  return query;
}

std::string TraceSession::ExportSpeedscope(const StackQuery& query, const std::string& name) const {
  return DrainExport(ExportSpeedscopeStream(query, name).get());
}

std::string TraceSession::ExportSpeedscopeEvented(const StackQuery& query, const std::string& name) const {
  return DrainExport(ExportSpeedscopeEventedStream(query, name).get());
}

Status TraceSession::BuildProfile(const ProfileRequest& request, ProfileData* out) const {
  return nettrace::BuildProfile(model(), symbols(), request, [this](const StackQuery& q, StackResolver* resolver) {
    return SelectRefined(*this, resolver, q);
  }, out);
}

std::string TraceSession::ExportEventsCsv(bool stackText) const { return DrainExport(ExportEventsCsvStream(stackText).get()); }

std::string TraceSession::ExportStacksCsv() const { return DrainExport(ExportStacksCsvStream().get()); }

namespace {
// What a stream of a stack query reads, kept with it (export/export_stream.h HoldingStream).
struct Selected {
  Selected(const TraceSession& session, const StackQuery& query)
      : resolver(session.model(), session.symbols()), sel(SelectRefined(session, &resolver, query)) {}
  StackResolver resolver;
  StackSelection sel;
  std::optional<DotnetTraceFrames> dotnetTrace;  // reads `resolver`: declared after it
};

template <typename Make>
std::unique_ptr<ExportStream> Holding(std::unique_ptr<Selected> held, Make make) {
  std::unique_ptr<ExportStream> stream = make(*held);
  return std::make_unique<HoldingStream<Selected>>(std::move(held), std::move(stream));
}
}  // namespace

std::unique_ptr<ExportStream> TraceSession::FoldedStacksStream(const StackQuery& query) const {
  const bool byThread = query.groupByThread && !GroupFramesInStacks(query);
  return Holding(std::make_unique<Selected>(*this, query),
                 [&](Selected& h) { return FoldedStream(model(), h.sel, &h.resolver, byThread); });
}

std::unique_ptr<ExportStream> TraceSession::ExportSpeedscopeStream(const StackQuery& query,
                                                                   const std::string& name) const {
  return Holding(std::make_unique<Selected>(*this, query),
                 [&](Selected& h) { return SpeedscopeStream(model(), h.sel, &h.resolver, name); });
}

std::unique_ptr<ExportStream> TraceSession::ExportSpeedscopeEventedStream(const StackQuery& query,
                                                                          const std::string& name) const {
  // dotnet-trace's process, activity and thread frames replace the grouping frames.
  StackQuery q = query;
  if (q.dotnetTraceFrames) q.groupByThread = q.groupByProcess = false;
  auto held = std::make_unique<Selected>(*this, q);
  if (held->sel.unit != WeightUnit::kNanoseconds)
    return Holding(std::move(held), [&](Selected& h) { return SpeedscopeStream(model(), h.sel, &h.resolver, name); });
  const bool before = q.weight == WeightKind::kThreadTime || q.weight == WeightKind::kManagedThreadTime;
  const bool byThread = q.groupByThread && !GroupFramesInStacks(q);
  if (q.dotnetTraceFrames) held->dotnetTrace.emplace(model(), symbols(), &held->resolver);
  return Holding(std::move(held), [&](Selected& h) {
    return SpeedscopeEventedStream(model(), h.sel, &h.resolver, name, byThread, before,
                                   h.dotnetTrace ? &*h.dotnetTrace : nullptr);
  });
}

std::unique_ptr<ExportStream> TraceSession::ExportEventsCsvStream(bool stackText) const {
  auto resolver = std::make_unique<StackResolver>(model(), symbols());
  std::unique_ptr<ExportStream> stream = EventsCsvStream(model(), resolver.get(), stackText);
  return std::make_unique<HoldingStream<StackResolver>>(std::move(resolver), std::move(stream));
}

std::unique_ptr<ExportStream> TraceSession::ExportStacksCsvStream() const {
  auto resolver = std::make_unique<StackResolver>(model(), symbols());
  std::unique_ptr<ExportStream> stream = StacksCsvStream(model(), resolver.get());
  return std::make_unique<HoldingStream<StackResolver>>(std::move(resolver), std::move(stream));
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
