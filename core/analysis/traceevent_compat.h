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

// Whether a MethodLoad/DCStart/Unload (Verbose) event is bookkeeping, by its MethodFlags
// where the manifest's template puts them (layout: ResolvedType::clrTemplate).
bool IsMethodBookkeeping(EventKind kind, const ClrFieldLayout* layout, std::span<const uint8_t> payload);

// Inline: asked for every event, and most kinds answer without their payload.
inline bool IsTraceLogBookkeeping(EventKind kind, const ClrFieldLayout* layout, std::span<const uint8_t> payload) {
  switch (kind) {
    case EventKind::kRundownMethodDCEndVerbose:  // Method/DCStopVerbose
    case EventKind::kRundownILToNativeMapDCEnd:
    case EventKind::kMethodILToNativeMap:
    case EventKind::kMethodDCStartVerboseV2:
    case EventKind::kMethodDCEndVerboseV2:
    case EventKind::kClrStackWalk:
    case EventKind::kPrivateClrStackWalk:
    case EventKind::kThreadStackWalk: return true;
    case EventKind::kRundownMethodDCStartVerbose:
    case EventKind::kMethodLoadVerbose:
    case EventKind::kMethodUnloadVerbose: return IsMethodBookkeeping(kind, layout, payload);
    default: return false;
  }
}

}  // namespace nettrace
