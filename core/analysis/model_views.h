// core/analysis — the statistics and event views of a model by the command that shows them
// (`nettrace gc`, `jit`, `exceptions`, `contention`, `activities`, `counters`, `threadpool`),
// as JSON or CSV: the one place the facade, the dataset's view tables and the verdicts' view
// metrics get them from. Views that name frames (exceptions by throwing method, activities)
// need the model's symbols prepared (read/read_pipeline.h PrepareSymbols).
#pragma once

#include <string>

#include "analysis/view_format.h"
#include "model/trace_model.h"

namespace nettrace {

std::string GcDocument(const TraceModel& model, ViewFormat format);
std::string JitDocument(const TraceModel& model, ViewFormat format);
std::string ExceptionsDocument(const TraceModel& model, ViewFormat format);
std::string ContentionDocument(const TraceModel& model, ViewFormat format);
std::string ActivitiesDocument(const TraceModel& model, ViewFormat format);
std::string CountersDocument(const TraceModel& model, ViewFormat format);
std::string ThreadPoolDocument(const TraceModel& model, ViewFormat format);

}  // namespace nettrace
