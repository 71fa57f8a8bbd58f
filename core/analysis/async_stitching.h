// core/analysis — async stitching as TraceEvent's ActivityComputer does it for thread time
// (SampleProfilerThreadTimeComputer with UseTasks, what `dotnet-trace convert` shows).
//
// Work handed to the thread pool is an activity: created by an enqueue event on one
// thread (its creator is that thread's current activity, its creation stack that event's
// stack) and started by the dequeue event on the thread that runs it, which then runs
// it until something stops it. An event's stack on a thread whose current activity has a
// creator is the creator's stack (itself stitched), a "STARTING TASK" frame, then the
// part of the event's own stack below the thread pool's transition into the work
// (ExecutionContext.Run, AwaitTaskContinuation.Run, Task.Execute, and Task…InnerInvoke
// helpers just below them). An empty stack keeps no part of its own; a stack without a
// transition is not stitched. A stitched stack belongs to the thread at its root (the
// thread that created the first activity of the chain), which is where TraceEvent's
// speedscope writer files it.
//
// Covered: the runtime's ThreadPool/Enqueue, /Dequeue (61, 62) and ThreadPool/IOEnqueue,
// /IODequeue, /IOPack (63-65). Not yet: TPL task events, AWAIT_TIME. Each activity also
// carries the start-stop activity it works in (analysis/start_stop_activities.h).
// Without CPU context switches (never in EventPipe) TraceEvent stops no thread-pool
// activity, so a started one stays current on its thread until another starts over it.
//
// Memory: an activity lives while it is queued (not started), current on a thread, or the
// creator of a live one (reference counts; freed records are reused), so it is bounded by
// live work, not by events. TraceEvent's chain of activities started over each other on a
// thread is only used to stop them, which never happens here, so only whether there was
// one is kept.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "analysis/call_tree.h"

namespace nettrace {

inline constexpr const char* kStartingTaskFrameName = "STARTING TASK";
// Why a trace cannot be stitched (the flame graph JSON's asyncStitching.reason).
inline constexpr const char* kStitchingUnavailableReason =
    "the trace has no thread-pool work events (runtime ThreadPool/Enqueue, /Dequeue, /IOEnqueue, /IODequeue, "
    "/IOPack): record Microsoft-Windows-DotNETRuntime with the Threading keyword (0x10000) at verbose level (5)";

// The same for a trace whose only async events are TPL's, which this stage does not follow yet.
inline constexpr const char* kStitchingTplOnlyReason =
    "the trace's async events are TPL task events (System.Threading.Tasks.TplEventSource), whose stitching "
    "is not implemented yet; it has no thread-pool work events (runtime ThreadPool/Enqueue, /Dequeue)";

class AsyncStitcher {
 public:
  AsyncStitcher(const StoreBuilder& model, const SymbolCollector& symbols, StackResolver* resolver);

  // Whether the trace has any event this stage follows.
  bool available() const { return available_; }
  // Why not, when not available (kStitchingUnavailableReason or kStitchingTplOnlyReason).
  const char* unavailableReason() const { return tpl_ ? kStitchingTplOnlyReason : kStitchingUnavailableReason; }
  // Whether the trace has TPL task events (which end thread-time intervals when tasks are followed).
  bool tpl() const { return tpl_; }

  // Follows one store row (time order): enqueue and dequeue events change the activities.
  void OnRow(size_t row);

  struct Stitched {
    uint32_t stack;   // root first, without group frames
    uint16_t thread;  // the thread whose stacks it joins (the chain's first creator)
  };
  // A driving event of `thread` outside the query's threads: TraceEvent still asks for its
  // stack, which makes the thread's own activity current (what a later start records).
  void Touch(uint16_t thread) { Current(thread); }
  // The stack of an event of `thread` whose own resolved stack is `stack`.
  Stitched Stack(uint16_t thread, uint32_t stack);
  // The start-stop activity slot (analysis/start_stop_activities.h) of the task activity
  // current on `thread`: what TraceEvent keeps per TraceActivity. Work inherits its
  // creator's when queued. Valid until the next call that may add an activity.
  int32_t* StartStopSlot(uint16_t thread) { return &activities_[Current(thread)].startStop; }

 private:
  struct Activity {
    int32_t creator = -1;  // -1: a thread's own activity
    bool startedOver = false;  // started over another activity (then never again)
    uint32_t refs = 0;         // queued + current on a thread + live activities it created
    uint16_t thread = 0;         // where it runs (for a thread's own activity: that thread)
    uint32_t creationStack = 0;  // resolved, root first
    int32_t startStop = -1;      // the start-stop activity it works in (-1: none)
  };
  int32_t Current(uint16_t thread);
  int32_t NewActivity(const Activity& a);
  void Release(int32_t activity);
  // The stack `stack` gets inside `activity`, and the thread at its root.
  Stitched Build(uint32_t stack, int32_t activity);
  // The call stack node at which the thread pool runs the work (frames below it are the
  // work's own), or UINT32_MAX when the stack has none.
  uint32_t Transition(uint32_t stack) const;

  const StoreBuilder& model_;
  const SymbolCollector& symbols_;
  StackResolver* resolver_;
  bool available_ = false;
  bool tpl_ = false;  // the trace has TplEventSource events
  std::vector<uint8_t> kind_;  // by event type: 0 none, 1 create, 2 start
  uint32_t startingTaskFrame_;
  std::vector<Activity> activities_;  // the first threads().size() are the threads' own
  std::vector<int32_t> free_;         // freed records, reused
  std::vector<int32_t> current_;      // by thread: its current activity, -1 not yet asked
  std::unordered_map<uint64_t, int32_t> byId_;  // (kind, pid, id) → activity
};

}  // namespace nettrace
