// core/resolve — TraceEvent's TraceLog drops "bookkeeping" events before anything is
// counted (traceevent-baselines.md §2 "Which events are counted"). We keep every event;
// this predicate exists so that our per-type counts can be compared with TraceEvent's
// baselines and so a user can ask for "the events PerfView would show".
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

#include "events/event_kind.h"
#include "format/payload/clr_field_read.h"

namespace nettrace {

// Whether a MethodLoad/DCStart/Unload (Verbose) event is bookkeeping, by its MethodFlags
// where the manifest's template puts them (layout: ResolvedType::clrTemplate).
bool IsMethodBookkeeping(EventKind kind, const ClrFieldLayout* layout, std::span<const uint8_t> payload);

// Which kinds are bookkeeping: never, always, or by their MethodFlags.
enum class TraceLogBookkeeping : uint8_t { kNever, kAlways, kByMethodFlags };

constexpr TraceLogBookkeeping TraceLogBookkeepingOf(EventKind kind) {
  switch (kind) {
    case EventKind::kRundownMethodDCEndVerbose:  // Method/DCStopVerbose
    case EventKind::kRundownILToNativeMapDCEnd:
    case EventKind::kMethodILToNativeMap:
    case EventKind::kMethodDCStartVerboseV2:
    case EventKind::kMethodDCEndVerboseV2:
    case EventKind::kClrStackWalk:
    case EventKind::kPrivateClrStackWalk:
    case EventKind::kThreadStackWalk: return TraceLogBookkeeping::kAlways;
    case EventKind::kRundownMethodDCStartVerbose:
    case EventKind::kMethodLoadVerbose:
    case EventKind::kMethodUnloadVerbose: return TraceLogBookkeeping::kByMethodFlags;
    default: return TraceLogBookkeeping::kNever;
  }
}

// TraceLogBookkeepingOf for every kind, as a table: the resolver reads it once per metadata
// record (ResolvedType::bookkeeping), and per event only that class.
inline constexpr std::array<TraceLogBookkeeping, static_cast<size_t>(EventKind::kCount)> kTraceLogBookkeeping = [] {
  std::array<TraceLogBookkeeping, static_cast<size_t>(EventKind::kCount)> table{};
  for (size_t k = 0; k < table.size(); ++k) table[k] = TraceLogBookkeepingOf(static_cast<EventKind>(k));
  return table;
}();

// Whether one event is bookkeeping (tests ask it per event; the resolver asks
// IsMethodBookkeeping only for kinds of class kByMethodFlags).
inline bool IsTraceLogBookkeeping(EventKind kind, const ClrFieldLayout* layout, std::span<const uint8_t> payload) {
  const TraceLogBookkeeping b = kTraceLogBookkeeping[static_cast<size_t>(kind)];
  return b != TraceLogBookkeeping::kNever &&
         (b == TraceLogBookkeeping::kAlways || IsMethodBookkeeping(kind, layout, payload));
}

}  // namespace nettrace
