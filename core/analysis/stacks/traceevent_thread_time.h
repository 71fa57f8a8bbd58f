// core/analysis — thread time as TraceEvent's SampleProfilerThreadTimeComputer computes it
// (what `dotnet-trace convert` and PerfView's "Thread Time" view show for EventPipe traces).
//
// Each thread is simulated as running or blocked. Events that drive the simulation: the
// sample profiler's Thread/Sample (a Managed sample means running, any other blocked) and
// the runtime's GC/AllocationTick and GC/SampledObjectAllocation (running). When the next
// driving event of a thread arrives, the time since the previous one is charged to the
// previous stack: running time under a CPU_TIME leaf, blocked time under UNMANAGED_CODE_TIME
// (TraceEvent's name for it). The last event of each thread is charged nothing, and, as in
// TraceEvent, each interval is a float32 millisecond count (kept here in nanoseconds).
// With StackQuery::stitchAsync, thread-pool work is stitched under the stack that queued it
// (analysis/stacks/async_stitching.h) and an interval begun inside a start-stop activity gets the
// group frames "(Activities)" / "Activity …" (analysis/stacks/start_stop_activities.h): between the
// process and thread frames with groupByProcess, else at the root; TPL's scheduling, start
// and wait events also drive the simulation, and an await's time (its TaskWait/Send to its
// TaskWait/Stop) is an interval of its own under an AWAIT_TIME leaf, as TraceEvent's AwaitUnblocks.
#pragma once

#include "analysis/stacks/stack_selection.h"

namespace nettrace {

inline constexpr const char* kCpuTimeFrameName = "CPU_TIME";

// The selection for WeightKind::kTraceEventThreadTime: one entry per charged interval, with
// the row, thread and stack of the event that began it, its weight in nanoseconds, time order.
// Honours the query's thread, process and time range (an interval belongs to the range of the
// event that began it); the query's event type is ignored (the driving events are fixed).
StackSelection SelectTraceEventThreadTime(const TraceModel& model, const SymbolCollector& symbols,
                                          StackResolver* resolver, const StackQuery& query);

}  // namespace nettrace
