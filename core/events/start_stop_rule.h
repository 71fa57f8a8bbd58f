// core/events — which events begin and end start-stop activities: TraceEvent's
// StartStopActivityComputer rule, in one place for every consumer (the thread-time stacks'
// "Activity …" frames, analysis/start_stop_activities.h; the activities view,
// analysis/activity_view.h; the Start events' extra information, symbols/symbol_collector.h).
//
// From TraceEvent's StartStopActivityComputer:
// - an EventSource's (a provider whose GUID may be name-based: TraceEventProviders.
//   MaybeAnEventSource; none of the runtime's, the sample profiler's or TPL's) event with opcode
//   Start begins an activity and one with opcode Stop ends it, when its activity id is an
//   EventSource activity path of its process (EventKind kActivityStart / kActivityStop,
//   decided once per metadata by EventKindOf; System.Diagnostics.Metrics' Collection/Start and
//   /Stop are such events);
// - the runtime's ExceptionCatch/Start (250) begins one named "ExceptionHandling" with the
//   catching method as its extra information, and ExceptionCatch/Stop (251) ends it, whatever
//   their activity id (TraceEvent: "Show the exception handling call stacks as a separate
//   Activity"; OnStart/OnStop with the event's own ActivityID, no activity-path test);
// - not followed (no such events in the traces here): the special cases for IIS, ASP.NET
//   (Windows), WCF, ADO.NET, Application Insights, OpenTelemetry-Sdk, FrameworkEventSource,
//   Microsoft-Diagnostics-ActivityTracking and DiagnosticSource's named events.
#pragma once

#include <cstdint>

#include "events/event_kind.h"

namespace nettrace {

inline constexpr const char* kExceptionHandlingTask = "ExceptionHandling";

enum class StartStopRole : uint8_t { kNone, kStart, kStop };

struct StartStopRule {
  StartStopRole role = StartStopRole::kNone;
  // The runtime's ExceptionCatch/Start and /Stop: task kExceptionHandlingTask, extra
  // information the catching method's name, any activity id.
  bool exceptionHandling = false;
};

inline StartStopRule StartStopRuleOf(EventKind kind) {
  switch (kind) {
    case EventKind::kActivityStart: return {StartStopRole::kStart, false};
    case EventKind::kActivityStop: return {StartStopRole::kStop, false};
    case EventKind::kExceptionCatchStart: return {StartStopRole::kStart, true};
    case EventKind::kExceptionCatchStop: return {StartStopRole::kStop, true};
    default: return {};
  }
}

}  // namespace nettrace
