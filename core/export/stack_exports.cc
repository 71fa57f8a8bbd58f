#include "export/stack_exports.h"

#include <optional>

#include "analysis/activity_view.h"
#include "analysis/gc_stats.h"
#include "analysis/runtime_views.h"
#include "analysis/stack_views.h"
#include "export/chrome_spans.h"
#include "export/dotnet_trace_frames.h"
#include "export/exports.h"
#include "export/profile/profile_builder.h"

namespace nettrace {

namespace {
// What a stream of a stack query reads, kept with it (export/export_stream.h HoldingStream).
struct Selected {
  Selected(const TraceModel& model, const StackQuery& query)
      : resolver(model, model.symbols()), sel(SelectRefinedStacks(model, &resolver, query)) {}
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

std::unique_ptr<ExportStream> SpeedscopeStreamOf(const TraceModel& model, const StackQuery& query,
                                                 const std::string& name) {
  return Holding(std::make_unique<Selected>(model, query),
                 [&](Selected& h) { return SpeedscopeStream(model, h.sel, &h.resolver, name); });
}

std::unique_ptr<ExportStream> SpeedscopeEventedStreamOf(const TraceModel& model, const StackQuery& query,
                                                        const std::string& name) {
  // dotnet-trace's process, activity and thread frames replace the grouping frames.
  StackQuery q = query;
  if (q.dotnetTraceFrames) q.groupByThread = q.groupByProcess = false;
  auto held = std::make_unique<Selected>(model, q);
  if (held->sel.unit != WeightUnit::kNanoseconds)
    return Holding(std::move(held), [&](Selected& h) { return SpeedscopeStream(model, h.sel, &h.resolver, name); });
  const bool before = q.weight == WeightKind::kThreadTime || q.weight == WeightKind::kManagedThreadTime;
  const bool byThread = q.groupByThread && !GroupFramesInStacks(q);
  if (q.dotnetTraceFrames) held->dotnetTrace.emplace(model, model.symbols(), &held->resolver);
  return Holding(std::move(held), [&](Selected& h) {
    return SpeedscopeEventedStream(model, h.sel, &h.resolver, name, byThread, before,
                                   h.dotnetTrace ? &*h.dotnetTrace : nullptr);
  });
}

std::unique_ptr<ExportStream> FoldedStacksStreamOf(const TraceModel& model, const StackQuery& query) {
  const bool byThread = query.groupByThread && !GroupFramesInStacks(query);
  return Holding(std::make_unique<Selected>(model, query),
                 [&](Selected& h) { return FoldedStream(model, h.sel, &h.resolver, byThread); });
}

std::unique_ptr<ExportStream> EventsCsvStreamOf(const TraceModel& model, bool stackText) {
  auto resolver = std::make_unique<StackResolver>(model, model.symbols());
  std::unique_ptr<ExportStream> stream = EventsCsvStream(model, resolver.get(), stackText);
  return std::make_unique<HoldingStream<StackResolver>>(std::move(resolver), std::move(stream));
}

std::unique_ptr<ExportStream> StacksCsvStreamOf(const TraceModel& model) {
  auto resolver = std::make_unique<StackResolver>(model, model.symbols());
  std::unique_ptr<ExportStream> stream = StacksCsvStream(model, resolver.get());
  return std::make_unique<HoldingStream<StackResolver>>(std::move(resolver), std::move(stream));
}

std::string SpeedscopeOf(const TraceModel& model, const StackQuery& query, const std::string& name) {
  return DrainExport(SpeedscopeStreamOf(model, query, name).get());
}

std::string SpeedscopeEventedOf(const TraceModel& model, const StackQuery& query, const std::string& name) {
  return DrainExport(SpeedscopeEventedStreamOf(model, query, name).get());
}

std::string FoldedStacksOf(const TraceModel& model, const StackQuery& query) {
  return DrainExport(FoldedStacksStreamOf(model, query).get());
}

std::string EventsCsvOf(const TraceModel& model, bool stackText) {
  return DrainExport(EventsCsvStreamOf(model, stackText).get());
}

std::string StacksCsvOf(const TraceModel& model) { return DrainExport(StacksCsvStreamOf(model).get()); }

Status BuildProfileOf(const TraceModel& model, const ProfileRequest& request, ProfileData* out) {
  return BuildProfile(model, model.symbols(), request, [&model](const StackQuery& q, StackResolver* resolver) {
    return SelectRefinedStacks(model, resolver, q);
  }, out);
}

std::string ChromeTraceOf(const TraceModel& model) {
  return ExportChromeTrace(model, model.symbols(), ChromeSpans(model.info(), ActivityView(model, model.symbols()).FinishedActivities(), model.gc().Gcs()));
}

}  // namespace nettrace
