#include "events/event_kind.h"

#include <iterator>
#include <string>

#include "events/start_stop.h"
#include "format/provider_family.h"

namespace nettrace {

namespace {
using P = clr::Provider;
using K = EventKind;

// Sorted by (provider, id): EventKindOf searches it. Names are TraceEvent's (the generated
// table's), so that a wrong id is caught by event_kind_test; nullptr where the manifest the
// table comes from has no template (the sample profiler's StackWalk is named by TraceEvent's
// own parser).
constexpr EventKindEntry kEntries[] = {
    {P::kRuntime, 1, K::kGcStart, "GC/Start"},
    {P::kRuntime, 2, K::kGcStop, "GC/Stop"},
    {P::kRuntime, 3, K::kGcRestartEEStop, "GC/RestartEEStop"},
    {P::kRuntime, 4, K::kGcHeapStats, "GC/HeapStats"},
    {P::kRuntime, 8, K::kGcSuspendEEStop, "GC/SuspendEEStop"},
    {P::kRuntime, 9, K::kGcSuspendEEStart, "GC/SuspendEEStart"},
    {P::kRuntime, 10, K::kGcAllocationTick, "GC/AllocationTick"},
    {P::kRuntime, 20, K::kGcSampledObjectAllocationHigh, "GC/SampledObjectAllocation"},
    {P::kRuntime, 32, K::kGcSampledObjectAllocationLow, "GC/SampledObjectAllocation"},
    {P::kRuntime, 39, K::kGcDynamicEvent, "GC/DynamicTraceEvent"},
    {P::kRuntime, 44, K::kThreadPool, "IOThreadCreation/Start"},
    {P::kRuntime, 45, K::kThreadPool, "IOThreadCreation/Stop"},
    {P::kRuntime, 46, K::kThreadPool, "IOThreadRetirement/Start"},
    {P::kRuntime, 47, K::kThreadPool, "IOThreadRetirement/Stop"},
    {P::kRuntime, 50, K::kThreadPool, "ThreadPoolWorkerThread/Start"},
    {P::kRuntime, 51, K::kThreadPool, "ThreadPoolWorkerThread/Stop"},
    {P::kRuntime, 52, K::kThreadPool, "ThreadPoolWorkerThreadRetirement/Start"},
    {P::kRuntime, 53, K::kThreadPool, "ThreadPoolWorkerThreadRetirement/Stop"},
    {P::kRuntime, 54, K::kThreadPool, "ThreadPoolWorkerThreadAdjustment/Sample"},
    {P::kRuntime, 55, K::kThreadPool, "ThreadPoolWorkerThreadAdjustment/Adjustment"},
    {P::kRuntime, 56, K::kThreadPool, "ThreadPoolWorkerThreadAdjustment/Stats"},
    {P::kRuntime, 57, K::kThreadPool, "ThreadPoolWorkerThread/Wait"},
    {P::kRuntime, 59, K::kThreadPool, "ThreadPoolMinMaxThreads"},
    {P::kRuntime, 60, K::kThreadPool, "ThreadPoolWorkingThreadCount/Start"},
    {P::kRuntime, 61, K::kThreadPoolEnqueue, "ThreadPool/Enqueue"},
    {P::kRuntime, 62, K::kThreadPoolDequeue, "ThreadPool/Dequeue"},
    {P::kRuntime, 63, K::kThreadPoolIoEnqueue, "ThreadPool/IOEnqueue"},
    {P::kRuntime, 64, K::kThreadPoolIoDequeue, "ThreadPool/IODequeue"},
    {P::kRuntime, 65, K::kThreadPoolIoPack, "ThreadPool/IOPack"},
    {P::kRuntime, 80, K::kExceptionThrown, "Exception/Start"},
    {P::kRuntime, 81, K::kContentionStart, "Contention/Start"},
    {P::kRuntime, 82, K::kClrStackWalk, "ClrStack/Walk"},
    {P::kRuntime, 91, K::kContentionStop, "Contention/Stop"},
    {P::kRuntime, 139, K::kMethodDCStartVerboseV2, "Method/DCStartVerboseV2"},
    {P::kRuntime, 140, K::kMethodDCEndVerboseV2, "Method/DCStopVerboseV2"},
    {P::kRuntime, 141, K::kMethodLoad, "Method/Load"},
    {P::kRuntime, 142, K::kMethodUnload, "Method/Unload"},
    {P::kRuntime, 143, K::kMethodLoadVerbose, "Method/LoadVerbose"},
    {P::kRuntime, 144, K::kMethodUnloadVerbose, "Method/UnloadVerbose"},
    {P::kRuntime, 145, K::kMethodJittingStarted, "Method/JittingStarted"},
    {P::kRuntime, 151, K::kDomainModuleLoad, "Loader/DomainModuleLoad"},
    {P::kRuntime, 152, K::kModuleLoad, "Loader/ModuleLoad"},
    {P::kRuntime, 153, K::kModuleUnload, "Loader/ModuleUnload"},
    {P::kRuntime, 190, K::kMethodILToNativeMap, "Method/ILToNativeMap"},
    {P::kRuntime, 204, K::kGcPerHeapHistory, "GC/PerHeapHistory"},
    {P::kRuntime, 250, K::kExceptionCatchStart, "ExceptionCatch/Start"},
    {P::kRuntime, 251, K::kExceptionCatchStop, "ExceptionCatch/Stop"},
    {P::kRuntime, 256, K::kExceptionStop, "Exception/Stop"},
    {P::kRuntime, 301, K::kWaitHandleWaitStart, "WaitHandleWait/Start"},
    {P::kRuntime, 302, K::kWaitHandleWaitStop, "WaitHandleWait/Stop"},
    {P::kRuntime, 303, K::kAllocationSampled, "AllocationSampling"},
    {P::kRundown, 141, K::kRundownMethodDCStart, "Method/DCStart"},
    {P::kRundown, 142, K::kRundownMethodDCEnd, "Method/DCStop"},
    {P::kRundown, 143, K::kRundownMethodDCStartVerbose, "Method/DCStartVerbose"},
    {P::kRundown, 144, K::kRundownMethodDCEndVerbose, "Method/DCStopVerbose"},
    {P::kRundown, 150, K::kRundownILToNativeMapDCEnd, "Method/ILToNativeMapDCStop"},
    {P::kRundown, 151, K::kRundownDomainModuleDCStart, "Loader/DomainModuleDCStart"},
    {P::kRundown, 152, K::kRundownDomainModuleDCEnd, "Loader/DomainModuleDCStop"},
    {P::kRundown, 153, K::kRundownModuleDCStart, "Loader/ModuleDCStart"},
    {P::kRundown, 154, K::kRundownModuleDCEnd, "Loader/ModuleDCStop"},
    {P::kPrivate, 151, K::kPrivateClrStackWalk, "ClrStack/Walk"},
    {P::kPrivate, 201, K::kPrivateMulticoreJit, "ClrMulticoreJit/Common"},
    {P::kSampleProfiler, 0, K::kThreadSample, "Thread/Sample"},
    {P::kSampleProfiler, 1, K::kThreadStackWalk, nullptr},
};

constexpr bool Before(const EventKindEntry& e, P provider, uint32_t id) {
  return e.provider < provider || (e.provider == provider && e.eventId < id);
}
}  // namespace

EventKind EventKindOf(clr::Provider provider, uint32_t eventId) {
  if (provider == P::kNone) return K::kNone;
  size_t lo = 0, hi = std::size(kEntries);
  while (lo < hi) {
    const size_t mid = (lo + hi) / 2;
    if (Before(kEntries[mid], provider, eventId)) lo = mid + 1;
    else hi = mid;
  }
  if (lo < std::size(kEntries) && kEntries[lo].provider == provider && kEntries[lo].eventId == eventId)
    return kEntries[lo].kind;
  return K::kNone;
}

namespace {

EventKind UniversalKindOf(const EventMetadata& m) {
  const std::string& n = m.eventName;
  if (EqualsIgnoreAsciiCase(m.providerName, "Universal.Events"))
    return n == "cpu" ? K::kUniversalCpu : n == "cswitch" ? K::kUniversalCswitch : K::kUniversalOtherSample;
  if (!EqualsIgnoreAsciiCase(m.providerName, "Universal.System")) return K::kNone;
  const uint32_t id = m.eventId;
  if (n == "ExistingProcess" || (n.empty() && id == 0)) return K::kUniversalExistingProcess;
  if (n == "ProcessCreate" || (n.empty() && id == 1)) return K::kUniversalProcessCreate;
  if (n == "ProcessExit" || (n.empty() && id == 2)) return K::kUniversalProcessExit;
  if (n == "ProcessMapping" || (n.empty() && id == 3)) return K::kUniversalMapping;
  if (n == "ProcessSymbol" || (n.empty() && id == 4)) return K::kUniversalSymbol;
  if (n == "ProcessMappingMetadata" || (n.empty() && id == 5)) return K::kUniversalMappingMetadata;
  return K::kNone;
}

}  // namespace

EventKind EventKindOf(const EventMetadata& m, std::optional<uint8_t> opcodeOverride) {
  const KnownProvider provider = ClassifyProvider(m.providerName);
  if (EventKind k = EventKindOf(ClrProviderOf(provider), m.eventId); k != K::kNone) return k;
  if (EventKind k = UniversalKindOf(m); k != K::kNone) return k;
  if (provider == KnownProvider::kClrRuntime) return K::kNone;
  if (m.eventName == "EventCounters") return K::kEventCounters;
  // Metrics' other events follow the EventSource rules below (its Collection/Start and /Stop
  // are start-stop activities, as TraceEvent pairs them).
  if (m.providerName == "System.Diagnostics.Metrics" && m.eventName.size() > 14 && m.eventName.ends_with("ValuePublished"))
    return K::kMetricValuePublished;
  // The other known providers' Start/Stop events are the analyses' own (TPL's tasks:
  // analysis/async_stitching.h), not EventSource activities.
  if (provider != KnownProvider::kOther) return K::kNone;
  switch (StartStopOf(m, opcodeOverride)) {
    case StartStop::kStart: return K::kActivityStart;
    case StartStop::kStop: return K::kActivityStop;
    default: return K::kNone;
  }
}

const EventKindEntry* AllEventKinds(size_t* count) {
  *count = std::size(kEntries);
  return kEntries;
}

}  // namespace nettrace
