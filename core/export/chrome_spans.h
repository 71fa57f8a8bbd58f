// core/export — the durations the Chrome trace shows besides the events:
// each finished start-stop activity (analysis/views/activity_view.h, as `nettrace activities`
// pairs them) on the thread that started it, and each GC (analysis/runtime/gc_stats.h, as `nettrace
// gc` measures it) with its pause and the suspension that began the pause, on a GC track.
#pragma once

#include <vector>

#include "analysis/views/activity_view.h"
#include "analysis/runtime/gc_stats.h"
#include "export/exports.h"

namespace nettrace {

std::vector<ChromeSpan> ChromeSpans(const TraceInfo& info, const std::vector<ActivityView::Finished>& activities,
                                    const std::vector<GcRecord>& gcs);

}  // namespace nettrace
