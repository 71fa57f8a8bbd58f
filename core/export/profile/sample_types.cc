#include "export/profile/sample_types.h"

namespace nettrace {

namespace {

using W = WeightKind;

// Names follow the conventions pprof readers know where one exists (Go's "samples",
// "alloc_space", "contentions"/"delay"; Linux profilers' "cpu"/"off_cpu"); the thread times
// are named for the weight they are.
constexpr ProfileSampleTypeRow kRows[] = {
    {"Thread/Sample", W::kCount, "samples", "count", true},
    {"Thread/Sample", W::kTraceEventThreadTime, "traceevent_thread_time", "nanoseconds", true},
    {"Thread/Sample", W::kThreadTime, "thread_time", "nanoseconds", true},
    {"Thread/Sample", W::kManagedThreadTime, "managed_thread_time", "nanoseconds", true},
    // Linux-profiler traces (Universal.Events): auto weighs a cpu sample's period and a
    // context switch's time off CPU.
    {"cpu", W::kAuto, "cpu", "nanoseconds", false},
    {"cpu", W::kCount, "cpu_samples", "count", false},
    {"cswitch", W::kAuto, "off_cpu", "nanoseconds", false},
    {"cswitch", W::kCount, "cswitches", "count", false},
    {"GC/AllocationTick", W::kBytes, "alloc_space", "bytes", false},
    {"GC/AllocationTick", W::kCount, "alloc_ticks", "count", false},
    {"Exception/Start", W::kCount, "exceptions", "count", false},
    {"Contention/Start", W::kCount, "contentions", "count", false},
    {"Contention/Start", W::kWaitTime, "delay", "nanoseconds", false},
    {"WaitHandleWait/Start", W::kCount, "waits", "count", false},
    {"WaitHandleWait/Start", W::kWaitTime, "wait_delay", "nanoseconds", false},
};

ProfileSampleType FromRow(const ProfileSampleTypeRow& r, const TraceInfo& info) {
  ProfileSampleType t{r.event, r.weight, r.type, r.unit, "", "", 0};
  if (r.sampled && info.expectedCpuSamplingRate > 0) {
    // The runtime writes the sample profiler's interval in nanoseconds (1000000 by default).
    t.periodType = "cpu", t.periodUnit = "nanoseconds", t.period = info.expectedCpuSamplingRate;
  }
  return t;
}

}  // namespace

const char* WeightName(WeightKind weight) {
  switch (weight) {
    case W::kAuto: return "auto";
    case W::kCount: return "count";
    case W::kBytes: return "bytes";
    case W::kThreadTime: return "thread-time";
    case W::kManagedThreadTime: return "managed-thread-time";
    case W::kTraceEventThreadTime: return "traceevent-thread-time";
    case W::kWaitTime: return "wait-time";
  }
  return "auto";
}

const ProfileSampleTypeRow* ProfileSampleTypeRows(size_t* count) {
  *count = sizeof kRows / sizeof kRows[0];
  return kRows;
}

std::vector<ProfileSampleType> CandidateSampleTypes(const ProfileRequest& request, const TraceInfo& info) {
  std::vector<ProfileSampleType> out;
  bool eventHasRows = false;
  for (const ProfileSampleTypeRow& r : kRows) {
    if (request.event && *request.event != r.event) continue;
    eventHasRows = true;
    if (request.weight && *request.weight != r.weight) continue;
    out.push_back(FromRow(r, info));
  }
  if (request.event && !eventHasRows) {
    // Any other event type with stacks: its events, counted (or the weight asked for).
    const WeightKind w = request.weight.value_or(WeightKind::kCount);
    const char* unit = w == WeightKind::kBytes ? "bytes" : w == WeightKind::kCount ? "count" : "nanoseconds";
    out.push_back({*request.event, w, *request.event, unit, "", "", 0});
  }
  return out;
}

}  // namespace nettrace
