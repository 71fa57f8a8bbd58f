#include "analysis/model_views.h"

#include "analysis/activity_view.h"
#include "analysis/gc_stats.h"
#include "analysis/jit_stats.h"
#include "analysis/runtime_views.h"

namespace nettrace {

std::string GcDocument(const TraceModel& model, ViewFormat format) {
  return format == ViewFormat::kCsv ? model.gc().ToCsv() : model.gc().ToJson();
}
std::string JitDocument(const TraceModel& model, ViewFormat format) {
  return format == ViewFormat::kCsv ? model.jit().ToCsv() : model.jit().ToJson();
}
std::string ExceptionsDocument(const TraceModel& model, ViewFormat format) {
  return model.views().Exceptions(model, model.symbols(), format);
}
std::string ContentionDocument(const TraceModel& model, ViewFormat format) {
  return model.views().Contention(model, format);
}
std::string ActivitiesDocument(const TraceModel& model, ViewFormat format) {
  return ActivityView(model, model.symbols()).Write(format);
}
std::string CountersDocument(const TraceModel& model, ViewFormat format) { return model.views().Counters(format); }
std::string ThreadPoolDocument(const TraceModel& model, ViewFormat format) { return model.views().ThreadPool(format); }

}  // namespace nettrace
