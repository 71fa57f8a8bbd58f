// core/analysis — which events' stacks a view shows (StackQuery → StackSelection) and the
// call tree over them. A selection is one entry per chosen event: its row, thread, call
// stack (analysis/stack_frames) and weight, in time order. The call tree aggregates the
// selection's distinct (thread, call stack) pairs, so its cost is proportional to distinct
// stacks, not to events. Invariants: node 0 is the root "ROOT" (inclusive = the
// selection's total weight); parent(n) < n; a node's inclusive weight is its exclusive
// weight plus its children's inclusive weights.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "analysis/stack_frames.h"
#include "analysis/stack_transform_options.h"

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
  // (analysis/traceevent_thread_time.h).
  kTraceEventThreadTime,
  // Time waited (issue 14): each Contention/Start or WaitHandleWait/Start weighs the
  // nanoseconds of its paired wait (analysis/contention_view.h); unpaired ones leave.
  kWaitTime,
  // Allocations by stack with the allocated type as a frame (analysis/allocation_samples.h):
  // AllocationSampled's estimated bytes / objects (analysis/allocation_estimate.h); in a
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
  // Exception/Start only: the throws of this exception type (analysis/exception_view.h).
  std::string exceptionType;
  // With kTraceEventThreadTime: work the thread pool runs is shown under the stack that
  // queued it, as TraceEvent does (analysis/async_stitching.h). Ignored by other weights.
  bool stitchAsync = true;
  // kAllocBytes / kAllocObjects: the "Type <name>" frame at the root instead of the leaf.
  bool typeAsRoot = false;
  // Grouping, folding, include/exclude (analysis/stack_transform.h), applied to every view.
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
  // kTraceEventThreadTime only: "on", "off" or "unavailable" (analysis/async_stitching.h;
  // "on" also when only start-stop activities are grouped), and why the trace's thread-pool
  // work cannot be stitched when it cannot; nullptr for other weights.
  const char* stitching = nullptr;
  const char* stitchingReason = nullptr;
  size_t size() const { return rows.size(); }
};

StackSelection SelectStacks(const TraceModel& model, const SymbolCollector& symbols, StackResolver* resolver,
                            const StackQuery& query);

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

struct CallTreeNode {
  uint32_t frame = 0;
  uint32_t parent = 0;
  uint32_t depth = 0;
  uint64_t inclusive = 0;
  uint64_t exclusive = 0;
  uint64_t count = 0;  // events whose path passes through the node
};

// Children of every node as one array: node n's are children[offsets[n] .. offsets[n+1]).
struct ChildLists {
  std::vector<uint32_t> offsets;
  std::vector<uint32_t> children;
};

class CallTree {
 public:
  explicit CallTree(uint32_t rootFrame);
  // Adds one path of frames (outermost first) with its weight and event count.
  void Add(const uint32_t* frames, size_t n, uint64_t weight, uint64_t count);
  // A new child of `parent` (no look-up: the caller knows it is new), and weight landing on a
  // node; SumUp then makes every inclusive weight and count whole. The way BuildCallTree
  // builds a tree from call stacks, which are interned already.
  uint32_t AddChild(uint32_t parent, uint32_t frame);
  void AddAt(uint32_t node, uint64_t weight, uint64_t count);
  void SumUp();
  const std::vector<CallTreeNode>& nodes() const { return nodes_; }
  // Children of every node, sorted by frame name (the flame graph's left-to-right order).
  ChildLists SortedChildren(const FrameTable& frames) const;

 private:
  std::vector<CallTreeNode> nodes_;
  FlatU64Map children_;  // (node << 32 | frame) → node (Add's)
};

// The call tree of a selection: root-first paths, or leaf-first when inverted; with
// groupByThread the thread frame is the outermost frame (the innermost when inverted).
CallTree BuildCallTree(const TraceModel& model, const StackSelection& selection, StackResolver* resolver,
                       bool inverted, bool groupByThread);

}  // namespace nettrace
