// core/symbols — the task ids of TPL's task events (System.Threading.Tasks.TplEventSource),
// which TraceEvent's ActivityComputer follows as task activities (analysis/stacks/async_stitching.h).
// The store keeps no payloads, so the id (and a TaskWaitBegin's Behavior) of each such event
// is kept here by the event's file-order ordinal, as the thread-pool work ids are.
//
// Layouts (TplEventSource): every event begins with OriginatingTaskSchedulerID and
// OriginatingTaskID (Int32 each); then TaskScheduled (7), TaskStarted (8), TaskCompleted (9),
// TaskWaitBegin (10) and TaskWaitEnd (11) have TaskID (Int32), TaskWaitBegin then Behavior
// (Int32: 1 synchronous, 2 asynchronous), and AwaitTaskContinuationScheduled (12) has
// ContinuationId (Int32). These are TraceEvent's hand-written templates, which it applies
// whatever the metadata says (TplTraceEventParser reads TaskID at offset 8): the generated
// table has no TplEventSource, so this is the one template here, read by position.
//
// Memory: 12 bytes per TPL task event, like the store's own columns per event.
#pragma once

#include <cstdint>
#include <optional>
#include <unordered_map>
#include <utility>
#include <vector>

#include "format/record_sink.h"

namespace nettrace {

struct TplTaskEvent {
  int32_t id = 0;        // TaskID, or ContinuationId for AwaitTaskContinuationScheduled
  int32_t behavior = 0;  // TaskWaitBegin's Behavior, else 0
};

class TplTaskIds {
 public:
  void OnMetadata(const EventMetadata& m);
  // False when the payload is too short for its layout (counted as malformed).
  bool OnEvent(const EventRecord& e, uint32_t ordinal);
  // No TPL event type defined: OnEvent has nothing to do.
  bool idle() const { return eventIds_.empty(); }
  std::optional<TplTaskEvent> Find(uint32_t ordinal) const;

 private:
  std::unordered_map<uint32_t, uint32_t> eventIds_;  // metadata id → TPL event id (7-12)
  std::vector<std::pair<uint32_t, TplTaskEvent>> events_;  // (ordinal, ids), ascending
};

}  // namespace nettrace
