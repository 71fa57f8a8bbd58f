// The view documents of a model, parsed once each (verdict/trace_metrics.h).
#include "analysis/views/allocation_view.h"
#include "analysis/views/model_views.h"
#include "verdict/trace_metrics.h"

namespace nettrace::verdict {

const JsonValue& TraceViews::Parsed(std::unique_ptr<JsonValue>& slot, const std::string& json) {
  if (!slot) {
    slot = std::make_unique<JsonValue>();
    // The engine writes these documents; one that does not parse would be an engine bug, and
    // reads as an empty view (every metric of it then reports no value).
    if (!ParseJson(json, "view", slot.get()).ok()) *slot = JsonValue();
  }
  return *slot;
}

const JsonValue& TraceViews::Gc() { return gc_ ? *gc_ : Parsed(gc_, GcDocument(model_, ViewFormat::kJson)); }
const JsonValue& TraceViews::Jit() { return jit_ ? *jit_ : Parsed(jit_, JitDocument(model_, ViewFormat::kJson)); }
const JsonValue& TraceViews::Exceptions() {
  return exceptions_ ? *exceptions_ : Parsed(exceptions_, ExceptionsDocument(model_, ViewFormat::kJson));
}
const JsonValue& TraceViews::Contention() {
  return contention_ ? *contention_ : Parsed(contention_, ContentionDocument(model_, ViewFormat::kJson));
}
const JsonValue& TraceViews::Activities() {
  return activities_ ? *activities_ : Parsed(activities_, ActivitiesDocument(model_, ViewFormat::kJson));
}
const JsonValue& TraceViews::ThreadPool() {
  return threadPool_ ? *threadPool_ : Parsed(threadPool_, ThreadPoolDocument(model_, ViewFormat::kJson));
}

// Its totals only: the per-function rows are not needed by any metric.
const JsonValue& TraceViews::Allocations() {
  if (allocations_) return *allocations_;
  AllocationViewOptions options;
  options.functions = 0;
  return Parsed(allocations_, AllocationsView(model_, options));
}

}  // namespace nettrace::verdict
