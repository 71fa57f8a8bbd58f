// core/analysis — TraceEvent's TraceLog drops "bookkeeping" events before anything is
// counted (traceevent-baselines.md §2 "Which events are counted"). We keep every event;
// this predicate exists so that our per-type counts can be compared with TraceEvent's
// baselines and so a user can ask for "the events PerfView would show".
#pragma once

#include <cstdint>
#include <span>

#include "format/payload/clr_field_read.h"
#include "resolve/event_kind.h"

namespace nettrace {

// layout: the event's by the manifest's template (ResolvedType::clrTemplate): some kinds are
// bookkeeping only by their MethodFlags.
bool IsTraceLogBookkeeping(EventKind kind, const ClrFieldLayout* layout, std::span<const uint8_t> payload);

}  // namespace nettrace
