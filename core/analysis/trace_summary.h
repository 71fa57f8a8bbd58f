// core/analysis — the summary document of a model (`nettrace summary`; README "Summary JSON"):
// the summary's own keys (analysis/summary.h) then the Linux profilers' processes and
// mappings (analysis/universal_summary.h), and TraceEvent's per-type counts.
#pragma once

#include <string>

#include "model/trace_model.h"

namespace nettrace {

std::string SummaryJson(const TraceModel& model);

// Per-type counts in TraceEvent's baseline form ("Provider/Name, count" lines, ordinal
// order), without the events TraceEvent's TraceLog treats as bookkeeping.
std::string TraceEventCounts(const TraceModel& model);

}  // namespace nettrace
