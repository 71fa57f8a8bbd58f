// core/analysis — async stitching as TraceEvent's ActivityComputer does it for thread time
// (SampleProfilerThreadTimeComputer with UseTasks, what `dotnet-trace convert` shows).
//
// Work handed to another thread is an activity: created on one thread (its creator is that
// thread's current activity, its creation stack that event's stack), started on the thread
// that runs it, which then runs it until it is stopped. An event's stack on a thread whose
// current activity has a creator is the creator's stack (itself stitched), a "STARTING TASK"
// frame, then the part of the event's own stack below the thread pool's transition into the
// work (ExecutionContext.Run, AwaitTaskContinuation.Run, Task.Execute, and Task…InnerInvoke
// helpers just below them). An empty stack keeps no part of its own; a stack without a
// transition is not stitched; own frames that already end the creator's stack just under a
// STARTING TASK, the same return addresses (TraceEvent's IsRecursiveTask: its frames are code
// addresses), add nothing. A stitched stack belongs to the
// thread at its root (the thread that created the first activity of the chain), which is
// where TraceEvent's speedscope writer files it.
//
// Followed (TraceEvent's kinds and ids, each kind of id kept apart):
// - the runtime's ThreadPool/Enqueue, /Dequeue (61, 62), /IOEnqueue, /IODequeue, /IOPack
//   (63-65): create and start work items (never stopped: EventPipe has no context switches);
// - TPL (analysis/stacks/tpl_tasks.h): TaskScheduled (unless its id is known) and
//   AwaitTaskContinuationScheduled create task activities, TaskWait/Send an await (its own
//   ids; Behavior 1 synchronous) remembered on its creator; TaskExecute/Start and
//   TaskWait/Stop start them (a TaskWait/Stop first stops an await current on its thread; a
//   synchronous await stops at once); TaskExecute/Stop stops one with all started over it.
//   The first await its creator began ending gives AWAIT_TIME (OnRow's Await);
// - the runtime's ThreadPoolWorkerThread/Wait: a fresh activity without a creator starts.
// Each activity also carries the start-stop activity it works in (start_stop_activities.h).
//
// Memory: an activity lives while it is known by id, current on a thread, or the creator or
// predecessor on its thread of a live one (reference counts; freed records are reused), so it
// is bounded by live work, not by events; each keeps at most kMaxWaits awaits it began.
#pragma once

#include <cstdint>
#include <optional>
#include <unordered_map>
#include <vector>

#include "analysis/stacks/stack_selection.h"

namespace nettrace {

inline constexpr const char* kStartingTaskFrameName = "STARTING TASK";
inline constexpr const char* kAwaitTimeFrameName = "AWAIT_TIME";
// Why a trace cannot be stitched (the flame graph JSON's asyncStitching.reason).
inline constexpr const char* kStitchingUnavailableReason =
    "the trace has no thread-pool work events (runtime ThreadPool/Enqueue, /Dequeue, /IOEnqueue, /IODequeue, "
    "/IOPack) and no TPL task events (System.Threading.Tasks.TplEventSource): record "
    "Microsoft-Windows-DotNETRuntime with the Threading keyword (0x10000) at verbose level (5), or "
    "System.Threading.Tasks.TplEventSource with its Tasks keywords";

class AsyncStitcher {
 public:
  static constexpr size_t kMaxWaits = 4096;

  AsyncStitcher(const TraceModel& model, const SymbolCollector& symbols, StackResolver* resolver);

  // Whether the trace has any event this stage follows.
  bool available() const { return available_; }
  const char* unavailableReason() const { return kStitchingUnavailableReason; }
  // Whether the trace has TPL task events (which end thread-time intervals when tasks are followed).
  bool tpl() const { return tpl_; }

  // An await that ended (TraceEvent's AwaitUnblocks): its time is charged to AWAIT_TIME.
  struct Await {
    uint32_t stack;          // the creator's stitched stack and STARTING TASK, root first
    uint16_t thread;         // the thread at its root
    int32_t startStop;       // the start-stop slot the await carried
    uint32_t createdRow;     // the TaskWait/Send
    uint64_t createdTicks, startTicks;
    bool afterStop;          // an await current on the thread ended first (implicitly)
  };
  // Follows one store row (time order).
  std::optional<Await> OnRow(size_t row);

  struct Stitched {
    uint32_t stack;   // root first, without group frames
    uint16_t thread;  // the thread whose stacks it joins (the chain's first creator)
  };
  // A driving event of `thread`: TraceEvent asks for its stack, which makes the thread's
  // own activity current when it has none.
  void Touch(uint16_t thread) { Current(thread); }
  // The stack of an event of `thread` whose own stack is `raw`, resolved `stack`.
  Stitched Stack(uint16_t thread, uint32_t stack, StackIndex raw) { return Build(stack, raw, Current(thread)); }
  // The start-stop activity slot (analysis/stacks/start_stop_activities.h) of the task activity
  // current on `thread`: what TraceEvent keeps per TraceActivity. Work inherits its
  // creator's when created. Valid until the next call that may add an activity.
  int32_t* StartStopSlot(uint16_t thread) { return &activities_[Current(thread)].startStop; }
  // The task activity current on `thread` as a handle that outlives record reuse, and its
  // start-stop slot later (nullptr when the record went to another activity meanwhile).
  struct TaskHandle {
    int32_t activity = -1;
    uint64_t serial = 0;
  };
  TaskHandle CurrentTask(uint16_t thread) {
    const int32_t a = Current(thread);
    return {a, activities_[a].serial};
  }
  int32_t* StartStopSlot(TaskHandle h) {
    return h.activity >= 0 && activities_[h.activity].serial == h.serial ? &activities_[h.activity].startStop : nullptr;
  }
  // Whether the row starts or stops a task activity (TraceEvent's Start and AfterStop events,
  // on which its thread-time computer asks for the thread's start-stop activity).
  bool StartsOrStops(size_t row) const;

 private:
  enum class Kind : uint8_t { kInitial, kWork, kTask, kWait, kWaitSync, kImplied };
  struct Activity {
    Kind kind = Kind::kInitial;
    int32_t creator = -1;  // -1: a thread's own activity, or one started by a worker's wait
    int32_t prev = -1;     // what was current on its thread when it started (-1: none, not started)
    uint32_t refs = 0;
    uint16_t thread = 0;         // where it runs (for a thread's own activity: that thread)
    uint32_t creationStack = 0;  // resolved, root first
    StackIndex creationRaw;      // the same as the trace has it (its addresses)
    int32_t startStop = -1;      // the start-stop activity it works in (-1: none)
    uint64_t key = 0;            // TraceEvent's raw id
    uint64_t serial = 0;         // never reused (awaits are remembered by it)
    uint32_t createdRow = 0;
    uint64_t createdTicks = 0;
  };
  int32_t Current(uint16_t thread);
  void SetCurrent(uint16_t thread, int32_t activity);
  int32_t Create(size_t row, uint64_t key, Kind kind);
  std::optional<Await> Start(size_t row, uint64_t key, bool awaitEnd);
  void Stop(uint16_t thread, int32_t activity);
  void AutoRestart(uint16_t thread);
  void Forget(uint64_t key);  // drops the id from the table
  void OnTpl(size_t row, uint8_t op, std::optional<Await>* out);
  int32_t NewActivity(const Activity& a);
  void Release(int32_t activity);
  // The stack `stack` (`raw` in the trace) gets inside `activity`, and the thread at its root.
  Stitched Build(uint32_t stack, StackIndex raw, int32_t activity);
  // The call stack node at which the thread pool runs the work (frames below it are the
  // work's own), or UINT32_MAX when the stack has none.
  uint32_t Transition(uint32_t stack) const;
  // Whether the return addresses `own` (root first) end `stitched` just under a STARTING TASK
  // (kStartingTaskAddress there).
  static bool Recursive(const std::vector<uint64_t>& stitched, const std::vector<uint64_t>& own);

  const TraceModel& model_;
  const SymbolCollector& symbols_;
  StackResolver* resolver_;
  bool available_ = false;
  bool tpl_ = false;  // the trace has TplEventSource events
  std::vector<uint8_t> kind_;  // by event type: what the event does (async_stitching.cc)
  uint32_t startingTaskFrame_;
  uint64_t nextSerial_ = 1;
  std::vector<Activity> activities_;  // the first threads().size() are the threads' own
  std::vector<int32_t> free_;         // freed records, reused
  std::vector<int32_t> current_;      // by thread: its current activity, -1 none
  std::unordered_map<uint64_t, int32_t> byId_;  // TraceEvent's raw id → activity
  std::unordered_map<int32_t, std::vector<uint64_t>> waits_;  // activity → serials of awaits it began
};

}  // namespace nettrace
