// core/events — what a CLR event is, decided once per metadata: the (provider, event id)
// pairs the analyses read, as one enum. Every stage after the reader asks this table (through
// the TypeResolver stage, or EventKindOf for a type of the store) instead of comparing
// provider names and event ids itself. Ids are ClrEtwAll.man's, as the generated table
// (format/clr_events.generated.h) holds them; event_kind_test checks each against its name.
#pragma once

#include <cstdint>
#include <optional>

#include "format/clr_events.generated.h"
#include "format/records.h"

namespace nettrace {

enum class EventKind : uint8_t {
  kNone,
  // Microsoft-Windows-DotNETRuntime
  kGcStart, kGcStop, kGcRestartEEStop, kGcHeapStats, kGcSuspendEEStop, kGcSuspendEEStart,
  kGcAllocationTick, kGcSampledObjectAllocationHigh, kGcSampledObjectAllocationLow, kGcDynamicEvent,
  kGcPerHeapHistory,
  kAllocationSampled,  // .NET 10's randomized allocation sampling (id 303)
  kThreadPool,  // worker/IO thread and thread injection events, ids 44..60 (ThreadPoolView's)
  kThreadPoolEnqueue, kThreadPoolDequeue, kThreadPoolIoEnqueue, kThreadPoolIoDequeue, kThreadPoolIoPack,
  kExceptionThrown, kExceptionCatchStart, kExceptionCatchStop, kExceptionStop,
  kContentionStart, kContentionStop, kWaitHandleWaitStart, kWaitHandleWaitStop,
  kClrStackWalk,
  kMethodLoad, kMethodUnload, kMethodLoadVerbose, kMethodUnloadVerbose, kMethodJittingStarted,
  kMethodDCStartVerboseV2, kMethodDCEndVerboseV2, kMethodILToNativeMap,
  kDomainModuleLoad, kModuleLoad, kModuleUnload,
  // Microsoft-Windows-DotNETRuntimeRundown
  kRundownMethodDCStart, kRundownMethodDCEnd, kRundownMethodDCStartVerbose, kRundownMethodDCEndVerbose,
  kRundownILToNativeMapDCEnd, kRundownDomainModuleDCStart, kRundownDomainModuleDCEnd,
  kRundownModuleDCStart, kRundownModuleDCEnd,
  // Microsoft-Windows-DotNETRuntimePrivate
  kPrivateClrStackWalk, kPrivateMulticoreJit,
  // Microsoft-DotNETCore-SampleProfiler
  kThreadSample, kThreadStackWalk,
  // Any other provider, by EventSource's conventions (not by id): "EventCounters" payloads,
  // System.Diagnostics.Metrics' *ValuePublished, and Start/Stop opcodes (v4 metadata has none:
  // the names' "Start"/"Stop" suffixes say it) of a provider that is none of the runtime's
  // (System.Diagnostics.Metrics' Collection/Start and /Stop included): start-stop activities,
  // events/start_stop_rule.h.
  kEventCounters, kMetricValuePublished, kActivityStart, kActivityStop,
  // Linux profilers' Universal.System (processes, mappings, symbols; by name, or by the ids
  // TraceEvent registers when a producer leaves names out) and Universal.Events (samples,
  // named by their sampling source), providers' names compared ignoring ASCII case.
  kUniversalExistingProcess, kUniversalProcessCreate, kUniversalProcessExit, kUniversalMapping,
  kUniversalSymbol, kUniversalMappingMetadata, kUniversalCpu, kUniversalCswitch, kUniversalOtherSample,
  kCount
};

// The kind of (provider, event id); kNone for every event no analysis singles out.
EventKind EventKindOf(clr::Provider provider, uint32_t eventId);
// The same for a metadata record (its provider's family: format/provider_family.h), and for
// any other provider the EventSource conventions above (Start/Stop: events/start_stop.h), with
// a v6 label list's opcode override where the event has one.
EventKind EventKindOf(const EventMetadata& m, std::optional<uint8_t> opcodeOverride = std::nullopt);

// One (provider, id) → kind entry, for tests and tools; TraceEvent's name for the event.
struct EventKindEntry {
  clr::Provider provider;
  uint16_t eventId;
  EventKind kind;
  const char* traceEventName;  // nullptr: not in the generated table
};
const EventKindEntry* AllEventKinds(size_t* count);

// Groups several analyses read alike.
inline bool IsUniversalKind(EventKind k) {
  return k >= EventKind::kUniversalExistingProcess && k <= EventKind::kUniversalOtherSample;
}
// Universal.Events: the samples of a Linux profiler, whatever their source.
inline bool IsUniversalSampleKind(EventKind k) { return k >= EventKind::kUniversalCpu && k <= EventKind::kUniversalOtherSample; }
inline bool IsThreadPoolKind(EventKind k) { return k >= EventKind::kThreadPool && k <= EventKind::kThreadPoolIoPack; }
inline bool IsMethodLoadOrUnload(EventKind k) { return k >= EventKind::kMethodLoad && k <= EventKind::kMethodUnloadVerbose; }
inline bool IsRundownMethod(EventKind k) {
  return k >= EventKind::kRundownMethodDCStart && k <= EventKind::kRundownMethodDCEndVerbose;
}
// MethodLoadVerbose, MethodUnloadVerbose and the rundown's verbose DCStart/DCEnd carry names.
inline bool IsVerboseMethod(EventKind k) {
  return k == EventKind::kMethodLoadVerbose || k == EventKind::kMethodUnloadVerbose ||
         k == EventKind::kRundownMethodDCStartVerbose || k == EventKind::kRundownMethodDCEndVerbose;
}

}  // namespace nettrace
