// core/analysis — the activities view: start-stop activities as TraceEvent's
// StartStopActivityComputer pairs them, the same ones whose "Activity …" frames the thread-time
// stacks carry (analysis/start_stop_activities.h follows them; events/start_stop_rule.h says
// which events begin and end them). One activity per Start the computer follows (an
// EventSource Start whose activity id is an activity path, the runtime's ExceptionCatch/Start),
// in time order; its Stop is the first Stop that found it live by activity id (TraceEvent keys
// live activities by id alone); its parent is its creator (the live activity of the Start's
// related activity id, else the one the thread's task works in), with task activities followed
// across thread-pool work and TPL tasks (analysis/async_stitching.h) as TraceEvent's
// ActivityComputer follows them. Built from the store when asked; nothing is kept while reading.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "analysis/view_format.h"
#include "events/trace_clock.h"
#include "format/records.h"

namespace nettrace {

class SymbolCollector;
class TraceModel;

class ActivityView {
 public:
  static constexpr size_t kMaxListed = 10000;  // activities listed one by one

  ActivityView(const TraceModel& model, const SymbolCollector& symbols);

  std::string Write(ViewFormat format) const;

  // The finished activities, by start time (what Write lists with a duration).
  struct Finished {
    std::string provider, name;
    uint64_t start = 0, stop = 0;  // timestamps
    uint64_t startThread = 0;
    uint32_t depth = 0;
  };
  std::vector<Finished> FinishedActivities() const;

 private:
  struct Activity {
    uint32_t name = 0;  // index in names_
    uint64_t start = 0, stop = 0;
    uint64_t startThread = 0, stopThread = 0;
    Guid id, related;
    int64_t parent = -1;
    uint32_t depth = 0;
    bool finished = false;
  };

  TraceClock clock_;
  std::vector<Activity> activities_;
  std::vector<std::pair<std::string, std::string>> names_;  // (provider, task)
  uint64_t unmatchedStops_ = 0, otherTaskStops_ = 0, withoutActivityPath_ = 0, notKept_ = 0;
};

}  // namespace nettrace
