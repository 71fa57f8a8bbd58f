// The view documents of a session, parsed once each (verdict/trace_metrics.h).
#include "trace_session.h"
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

const JsonValue& TraceViews::Gc() { return gc_ ? *gc_ : Parsed(gc_, session_.GcJson()); }
const JsonValue& TraceViews::Jit() { return jit_ ? *jit_ : Parsed(jit_, session_.JitJson()); }
const JsonValue& TraceViews::Exceptions() {
  return exceptions_ ? *exceptions_ : Parsed(exceptions_, session_.ExceptionsView());
}
const JsonValue& TraceViews::Contention() {
  return contention_ ? *contention_ : Parsed(contention_, session_.ContentionView());
}
const JsonValue& TraceViews::Activities() {
  return activities_ ? *activities_ : Parsed(activities_, session_.ActivitiesView());
}
const JsonValue& TraceViews::ThreadPool() {
  return threadPool_ ? *threadPool_ : Parsed(threadPool_, session_.ThreadPoolView());
}

// Its totals only: the per-function rows are not needed by any metric.
const JsonValue& TraceViews::Allocations() {
  return allocations_ ? *allocations_ : Parsed(allocations_, session_.AllocationsView(false, 0.99, 0));
}

}  // namespace nettrace::verdict
