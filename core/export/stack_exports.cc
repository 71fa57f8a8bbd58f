#include "export/stack_exports.h"

#include "analysis/activity_view.h"
#include "analysis/gc_stats.h"
#include "analysis/runtime_views.h"
#include "analysis/stack_views.h"
#include "export/chrome_spans.h"
#include "export/exports.h"

namespace nettrace {

std::string SpeedscopeOf(const TraceModel& model, const StackQuery& query, const std::string& name) {
  StackResolver resolver(model, model.symbols());
  StackSelection sel = SelectRefinedStacks(model, &resolver, query);
  return ExportSpeedscope(model, sel, &resolver, name);
}

std::string SpeedscopeEventedOf(const TraceModel& model, const StackQuery& query, const std::string& name) {
  StackResolver resolver(model, model.symbols());
  StackSelection sel = SelectRefinedStacks(model, &resolver, query);
  if (sel.unit != WeightUnit::kNanoseconds) return ExportSpeedscope(model, sel, &resolver, name);
  const bool before = query.weight == WeightKind::kThreadTime || query.weight == WeightKind::kManagedThreadTime;
  return ExportSpeedscopeEvented(model, sel, &resolver, name, query.groupByThread && !GroupFramesInStacks(query), before);
}

std::string FoldedStacksOf(const TraceModel& model, const StackQuery& query) {
  StackResolver resolver(model, model.symbols());
  StackSelection sel = SelectRefinedStacks(model, &resolver, query);
  return ExportFolded(model, sel, &resolver, query.groupByThread && !GroupFramesInStacks(query));
}

std::string EventsCsvOf(const TraceModel& model, bool stackText) {
  StackResolver resolver(model, model.symbols());
  return ExportEventsCsv(model, &resolver, stackText);
}

std::string StacksCsvOf(const TraceModel& model) {
  StackResolver resolver(model, model.symbols());
  return ExportStacksCsv(model, &resolver);
}

std::string ChromeTraceOf(const TraceModel& model) {
  return ExportChromeTrace(model, model.symbols(), ChromeSpans(model.info(), ActivityView(model, model.symbols()).FinishedActivities(), model.gc().Gcs()));
}

}  // namespace nettrace
