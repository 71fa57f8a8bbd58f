// core/analysis — start-stop activities as TraceEvent's StartStopActivityComputer follows
// them for thread time (SampleProfilerThreadTimeComputer's GroupByStartStopActivity, on in
// `dotnet-trace convert`): a thread working inside an activity gets the group frames
// "(Activities)", then one "Activity <name>" frame per activity from the outermost creator
// in, where TraceEvent shows "(Non-Activities)" otherwise.
//
// The rules taken from TraceEvent:
// - Which events begin and end activities: events/start_stop_rule.h (EventSource Start/Stop
//   events whose activity id is an activity path of their process; the runtime's
//   ExceptionCatch/Start and /Stop, "ExceptionHandling", whatever their id). A Stop ends the
//   live activity with its activity id (and process).
// - Its creator is the live activity whose id is the Start's related activity id, else the
//   activity current on the thread (a stopped one stands for its first live creator).
// - Its name is "<task>(<id>[,<extra>])": the task is the event name without its Start opcode
//   ("ExceptionHandling" for a catch); the extra information "/<first field>=<value>" when
//   that field is a string (the catching method for a catch); the id its activity path, as
//   EventSource encodes it, "/#<pid>/1/15/" (else the GUID: ActivityIdText).
// - Which activity a thread is in is kept per task activity (analysis/stacks/async_stitching.h:
//   the thread's own one or the thread-pool work it runs; work inherits its creator's). A
//   Start makes the new activity the one of the thread's current task; a Stop makes its
//   first live creator the one of the task current at the Stop, and drops the id from the
//   live table unless that creator has the same id.
// - A Stop takes effect later (TraceEvent's DoStopIfNecessary): at the next Start or Stop, or
//   when TraceEvent's thread-time computer next asks for a thread's activity — at a sample,
//   a TPL task event, thread-pool work starting, a task ending, an await's time read from a
//   stopped activity. Until then the activity is not stopped and the task current at the Stop
//   still carries it, so a task or await created in between inherits it (an await's time
//   then falls to the live activity if it stopped before the await began).
// Not followed (no such events in our traces): the special cases events/start_stop_rule.h
// lists, the "… Activities" known-type frames (their tasks come from those cases only), and
// UNKNOWN_ASYNC time (TraceEvent's samples of it have no thread frame, so dotnet-trace's
// speedscope writer leaves them out).
//
// Memory: one record per Start event that begins an activity (as the activities view keeps
// its marks), at most kMaxActivities (later Starts are not followed), nothing per other event.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "analysis/stacks/async_stitching.h"
#include "analysis/stacks/stack_selection.h"

namespace nettrace {

inline constexpr const char* kActivitiesFrameName = "(Activities)";

// TraceEvent's decoding of an EventSource activity path: "/#<pid>/1/15/" ("/" + numbers when
// the process part is 0), or nullopt when `id` is not an activity path of process `pid`.
std::optional<std::string> ActivityPathString(const Guid& id, uint64_t pid);
// How TraceEvent names an activity id in an activity's name (StartStopActivity.Name): its
// activity path, one of its well-known HTTP/SQL patterns, or the GUID ("D" form).
std::string ActivityIdText(const Guid& id, uint64_t pid);

class StartStopActivities {
 public:
  static constexpr size_t kMaxActivities = size_t{1} << 21;

  StartStopActivities(const TraceModel& model, const SymbolCollector& symbols, StackResolver* resolver);

  // Whether the trace has EventSource Start or Stop events.
  bool available() const { return available_; }

  // Follows one store row (time order): a Start or Stop changes the start-stop activity of
  // the task current on its thread (`tasks`).
  void OnRow(size_t row, AsyncStitcher& tasks);
  // Applies the last Stop if it has not taken effect yet (see the rules above).
  void ApplyPendingStop(AsyncStitcher& tasks);

  // The live activity a task whose slot holds `slot` works in (-1: none).
  int32_t Live(int32_t slot) const;
  // The activity TraceEvent groups an await's time under: the one its task carried (`slot`)
  // unless that stopped before the await began (at `createdTicks`), else the live one (after
  // a pending Stop takes effect).
  int32_t AtCreation(int32_t slot, uint64_t createdTicks, AsyncStitcher& tasks);
  // The group frames of activity `a` (from Live), root first: "(Activities)", "Activity …";
  // 0 (no frames) for -1.
  uint32_t GroupStack(int32_t a);

  static constexpr uint32_t kNoRow = UINT32_MAX;
  // One per Start followed (TraceEvent's Start callback), in that order.
  struct Activity {
    Guid id, related;
    uint64_t pid = 0;
    uint64_t startTicks = 0;
    uint64_t stopTicks = 0;
    uint32_t startRow = 0;
    uint32_t stopRow = kNoRow;  // the Stop that ended it (TraceEvent's RememberStop): none yet
    uint16_t type = 0;          // the Start's event type
    int32_t creator = -1;
    bool stopped = false;
    uint32_t frame = 0;       // "Activity <name>"
    uint32_t group = 0;       // GroupStack, 0 until asked
    AsyncStitcher::TaskHandle stopTask;  // the task current at that Stop
  };
  const std::vector<Activity>& activities() const { return activities_; }
  // The task name of a Start event type (what precedes the activity id in its name).
  const std::string& task(uint16_t type) const { return task_[type]; }
  // Start/Stop events of the rule not followed: their activity id is no activity path of
  // their process (EventSources only), or the limit was reached (Starts).
  uint64_t withoutActivityPath() const { return withoutPath_; }
  uint64_t notKept() const { return notKept_; }
  // Stops that found no live activity with their id (begun before the session, or ended).
  uint64_t unmatchedStops() const { return unmatchedStops_; }
  // Stops that ended an activity of another provider or task: TraceEvent keys live activities
  // by activity id alone, so a Stop ends whatever last began under its id.
  uint64_t otherTaskStops() const { return otherTaskStops_; }

 private:
  void Start(size_t row, const Guid& id, const Guid& related, uint64_t pid, int32_t* task);
  // Whether a Stop event type has the provider and task of a Start event type (a Stop's task:
  // its name without the opcode).
  bool SameTask(uint16_t startType, uint16_t stopType) const;
  void Stop(size_t row, const Guid& id, uint64_t pid, AsyncStitcher::TaskHandle task);

  const TraceModel& model_;
  const SymbolCollector& symbols_;
  StackResolver* resolver_;
  bool available_ = false;
  std::vector<uint8_t> kind_;        // by event type: 0 none, 1 Start, 2 Stop
  std::vector<bool> anyId_;          // by event type: any activity id (ExceptionCatch), not only paths
  std::vector<std::string> task_;    // by event type: the task name of a Start
  std::vector<Activity> activities_;
  std::unordered_map<std::string, int32_t> live_;  // (id bytes, pid) → the live activity
  uint64_t withoutPath_ = 0, notKept_ = 0, unmatchedStops_ = 0, otherTaskStops_ = 0;
  // The Stop not applied yet: its activity (-1: none), the task current at it.
  int32_t pending_ = -1;
  AsyncStitcher::TaskHandle pendingTask_;
  uint32_t activitiesFrame_;
};

}  // namespace nettrace
