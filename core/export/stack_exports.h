// core/export — the exports of a model: a stack query's speedscope profiles, folded stacks and
// pprof / OTLP profile (selected as every stack view selects them: analysis/stack_views.h),
// and every event as CSV, as stacks CSV or as a Chrome trace; whole, or a part at a time
// (export/export_stream.h: the same bytes with bounded memory). The model's symbols must be
// prepared (read/read_pipeline.h PrepareSymbols).
#pragma once

#include <memory>
#include <string>

#include "analysis/call_tree.h"
#include "base/status.h"
#include "export/export_stream.h"
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

// The documents above a part at a time, the same bytes. Each stream holds its own resolver
// and selection; it reads the model, so it must not outlive it.
std::unique_ptr<ExportStream> SpeedscopeStreamOf(const TraceModel& model, const StackQuery& query,
                                                 const std::string& name);
std::unique_ptr<ExportStream> SpeedscopeEventedStreamOf(const TraceModel& model, const StackQuery& query,
                                                        const std::string& name);
std::unique_ptr<ExportStream> FoldedStacksStreamOf(const TraceModel& model, const StackQuery& query);
std::unique_ptr<ExportStream> EventsCsvStreamOf(const TraceModel& model, bool stackText);
std::unique_ptr<ExportStream> StacksCsvStreamOf(const TraceModel& model);

// The stacks of a request as one profile with a sample type per (event, weight) pair
// (export/profile/profile_builder.h), each selected as the flame graph selects it: what the
// pprof and OTLP encoders write (export/pprof, export/otlp).
struct ProfileData;
struct ProfileRequest;
Status BuildProfileOf(const TraceModel& model, const ProfileRequest& request, ProfileData* out);

}  // namespace nettrace
