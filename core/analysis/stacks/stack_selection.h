// core/analysis/stacks — what a stack view selects: the query (StackQuery: event type, threads,
// time range, weight, grouping) and its selection (StackSelection: one entry per chosen event,
// its row, thread, call stack and weight, in time order), with the synthetic thread and
// process frames. The selectors (call_tree.h SelectStacks, traceevent_thread_time.h,
// async_stitching.h) produce selections; the call tree, the exports and the diffs read them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "analysis/stacks/stack_frames.h"
#include "analysis/stacks/stack_transform_options.h"

namespace nettrace {

enum class WeightKind : uint8_t {
  kAuto,   // bytes for GC/AllocationTick, else one per event
  kCount,  // one per event
  kBytes,  // GC/AllocationTick's allocated bytes
  // Universal.Events (cpu, cswitch) weigh their Value field (nanoseconds) under kAuto.
  // Thread time: each event weighs the time since the previous event of the selected
  // type on its thread (the first one per thread weighs 0), in nanoseconds, the way
  // PerfView and pyroscope turn sample-profiler samples into time.
  kThreadTime,
  // The same, leaving out time that follows an external sample (pyroscope's
  // "managed code only").
  kManagedThreadTime,
  // TraceEvent's thread time (dotnet-trace convert, PerfView): each sample weighs the time
  // to the next one on its thread, under a CPU_TIME or UNMANAGED_CODE_TIME leaf
  // (analysis/stacks/traceevent_thread_time.h).
  kTraceEventThreadTime,
  // Time waited: each Contention/Start or WaitHandleWait/Start weighs the
  // nanoseconds of its paired wait (analysis/views/contention_view.h); unpaired ones leave.
  kWaitTime,
  // Allocations by stack with the allocated type as a frame (analysis/runtime/allocation_samples.h):
  // AllocationSampled's estimated bytes / objects (analysis/runtime/allocation_estimate.h); in a
  // trace without it, GC/AllocationTick's bytes / tick count.
  kAllocBytes,
  kAllocObjects,
};

enum class WeightUnit : uint8_t { kSamples, kBytes, kNanoseconds, kObjects };
// "samples", "bytes", "nanoseconds", "objects".
const char* WeightUnitName(WeightUnit unit);

struct StackQuery {
  // Display name of the event type ("Thread/Sample", "GC/AllocationTick",
  // "Exception/Start", "Contention/Start"); "Thread/Sample" means the sample profiler's.
  std::string event = "Thread/Sample";
  std::string provider;            // case-insensitive exact provider name; empty: any
  std::optional<uint64_t> thread;  // OS thread id; empty: all threads
  std::optional<double> fromMs;    // inclusive, ms from the trace's sync time
  std::optional<double> toMs;      // inclusive
  bool inverted = false;
  bool groupByThread = false;  // a "Thread (id)" frame above each thread's stacks
  // Only events of threads of this OS process id (v6 thread rows); empty: all.
  std::optional<uint64_t> process;
  // A "Process name (pid)" frame above each process's stacks (and above the thread
  // frames with groupByThread). The selection's call stacks then start with the group
  // frames, so consumers must not add thread frames again (see GroupFramesInStacks).
  bool groupByProcess = false;
  WeightKind weight = WeightKind::kAuto;
  // Exception/Start only: the throws of this exception type (analysis/views/exception_view.h).
  std::string exceptionType;
  // With kTraceEventThreadTime: work the thread pool runs is shown under the stack that
  // queued it, as TraceEvent does (analysis/stacks/async_stitching.h). Ignored by other weights.
  bool stitchAsync = true;
  // kAllocBytes / kAllocObjects: the "Type <name>" frame at the root instead of the leaf.
  bool typeAsRoot = false;
  // Grouping, folding, include/exclude (analysis/stacks/stack_transform.h), applied to every view.
  StackTransformOptions transform;
  // The evented speedscope export only: every stack under dotnet-trace's process, activity
  // and thread frames (export/dotnet_trace_frames.h), in place of groupByThread/Process.
  bool dotnetTraceFrames = true;
};

struct StackSelection {
  std::vector<uint32_t> rows;        // store rows, time order
  std::vector<uint16_t> threads;     // ThreadIndex per entry
  std::vector<uint32_t> callStacks;  // root first; external samples end in UNMANAGED_CODE_TIME
  std::vector<uint64_t> weights;
  // kTraceEventThreadTime only: each entry's interval as TraceEvent keeps it, a float32
  // count of milliseconds from the entry's event (the evented speedscope export's times).
  std::vector<float> spansMs;
  uint64_t totalWeight = 0;
  WeightUnit unit = WeightUnit::kSamples;
  // kTraceEventThreadTime only: "on", "off" or "unavailable" (analysis/stacks/async_stitching.h;
  // "on" also when only start-stop activities are grouped), and why the trace's thread-pool
  // work cannot be stitched when it cannot; nullptr for other weights.
  const char* stitching = nullptr;
  const char* stitchingReason = nullptr;
  size_t size() const { return rows.size(); }
};

// "Thread (1234)" by OS thread id (PerfView's thread frames).
uint32_t ThreadFrame(const TraceModel& model, StackResolver* resolver, uint16_t thread);
// Whether a request's weight "auto" means TraceEvent's thread time: for the sample profiler's
// CPU samples, what `dotnet-trace convert` shows (the request layer's default: every consumer
// — CLI, npm CLI, JS API, the page — asks TraceSession::WithDefaultWeight). A StackQuery built
// in code keeps kAuto's engine meaning: a sample count.
bool AutoMeansTraceEventThreadTime(const TraceModel& model, const StackQuery& q);

// "Process name (1234)" (or "Process (1234)") for a thread's OS process id.
uint32_t ProcessFrame(const TraceModel& model, const SymbolCollector& symbols, StackResolver* resolver,
                      uint16_t thread);
// Whether a query's selection already carries its thread frames inside its call stacks
// (groupByProcess): call trees and exports then get groupByThread = false.
inline bool GroupFramesInStacks(const StackQuery& q) { return q.groupByProcess; }

}  // namespace nettrace
