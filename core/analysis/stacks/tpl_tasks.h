// core/analysis — which TPL events (System.Threading.Tasks.TplEventSource) TraceEvent's
// ActivityComputer follows as task activities, and the raw ids it keys activities by
// (analysis/stacks/async_stitching.h applies them; symbols/tpl_task_ids.h keeps each event's id).
#pragma once

#include <cstdint>

#include "model/trace_tables.h"

namespace nettrace {

enum class TplOp : uint8_t {
  kNone,
  kScheduled,              // TaskScheduled (7): creates a task, unless its id is known
  kExecuteStart,           // TaskStarted (8, TaskExecute/Start): starts it
  kExecuteStop,            // TaskCompleted (9, TaskExecute/Stop): stops it
  kWaitBegin,              // TaskWaitBegin (10, TaskWait/Send): creates an await
  kWaitEnd,                // TaskWaitEnd (11, TaskWait/Stop): starts it
  kContinuationScheduled,  // AwaitTaskContinuationScheduled (12): creates a task by ContinuationId
};

TplOp TplOpOf(const EventType& type);

// TraceEvent's id kinds: awaits (TaskWaitBegin/End) and scheduled tasks are kept apart, as
// are the thread pool's work items and I/O packets.
enum class RawIdKind : uint32_t { kTplContinuation = 1, kTplScheduledTask = 2, kIoThreadPool = 4, kThreadPool = 5 };

// TraceEvent's raw activity id: ((pid << 8) + (kind << 28)) as 32 bits, above the id.
uint64_t RawActivityId(RawIdKind kind, uint64_t pid, uint64_t id);

}  // namespace nettrace
