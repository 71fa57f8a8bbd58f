// core/analysis — the summary document of a model (`nettrace summary`; README "Summary JSON"):
// the summary's own keys (analysis/summary/summary.h) then the Linux profilers' processes and
// mappings (analysis/summary/universal_summary.h), and TraceEvent's per-type counts.
#pragma once

#include <functional>
#include <string>

#include "model/trace_model.h"

namespace nettrace {

// With `part`, the text goes to it in parts of about 1 MiB as it is written and only the
// rest is returned: the thread list of a million threads is 100 MB.
std::string SummaryJson(const TraceModel& model, const std::function<void(const std::string&)>& part = nullptr);

// Per-type counts in TraceEvent's baseline form ("Provider/Name, count" lines, ordinal
// order), without the events TraceEvent's TraceLog treats as bookkeeping.
std::string TraceEventCounts(const TraceModel& model);

}  // namespace nettrace
