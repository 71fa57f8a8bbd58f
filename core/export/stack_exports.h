// core/export — the exports of a model as whole documents: a stack query's speedscope
// profiles and folded stacks (selected as every stack view selects them:
// analysis/stack_views.h), and every event as CSV, as stacks CSV or as a Chrome trace. The
// model's symbols must be prepared (read/read_pipeline.h PrepareSymbols).
#pragma once

#include <string>

#include "analysis/call_tree.h"
#include "model/trace_model.h"

namespace nettrace {

// speedscope JSON of a query, one sampled profile per thread.
std::string SpeedscopeOf(const TraceModel& model, const StackQuery& query, const std::string& name);
// For a selection weighed in time (thread time, wait time) one evented profile per thread
// in milliseconds, as dotnet-trace writes thread time; for counts and bytes, SpeedscopeOf.
std::string SpeedscopeEventedOf(const TraceModel& model, const StackQuery& query, const std::string& name);
// Folded stacks ("a;b;c weight" lines, sorted) of a query, root first even when inverted.
std::string FoldedStacksOf(const TraceModel& model, const StackQuery& query);
// Every event as CSV (time, provider, event, thread, call-stack id; the stack's text too when
// asked); the ids are those of StacksCsvOf.
std::string EventsCsvOf(const TraceModel& model, bool stackText);
// Every call stack an event has, as CSV (id, depth, frames root first).
std::string StacksCsvOf(const TraceModel& model);
// Every event as Chrome trace event JSON, with activities and GCs as durations.
std::string ChromeTraceOf(const TraceModel& model);

}  // namespace nettrace
