// core/analysis — the activities view (issue 14 item 6): EventSource Start/Stop events
// (opcodes 1 and 2, "XxxStart"/"XxxStop") paired by activity id into activities, nested by
// the Start's related activity id (EventSource sets it to the activity that was current
// when the new one began; the parent is the latest activity with that id), across threads
// and awaits. A Stop ends the open activity of its id and name (two providers may run
// activities under one id at once). The marks come from the sorted tap (model/sorted_tap.h)
// in (timestamp, file order); they are kept (64 bytes each, one pair per activity the view
// lists) and paired in that order at the end, sorted by it only after a late event (a
// writer's lying IsSorted marks). Runtime providers (Exception/Start, GC/Start, …)
// are not activities.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "analysis/view_format.h"
#include "events/trace_clock.h"
#include "format/records.h"

namespace nettrace {

class ActivityView {
 public:
  static constexpr size_t kMaxMarks = size_t{1} << 21;  // Start/Stop marks kept
  static constexpr size_t kMaxListed = 10000;           // activities listed one by one
  static constexpr size_t kMaxNames = 10000;            // distinct (provider, name)

  void OnTraceInfo(const TraceClock& clock) { clock_ = clock; }
  // name: the activity's name (the event name without its Start/Stop suffix).
  void OnMark(bool start, uint32_t ordinal, uint64_t timestamp, uint64_t thread, const Guid& activity,
              const Guid& related, const std::string& provider, const std::string& name);
  // A late event came (model/sorted_tap.h): the marks are no longer in time order.
  void OnLate() { late_ = true; }

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
  struct Mark {
    uint64_t timestamp = 0;
    uint64_t thread = 0;
    Guid activity, related;
    uint32_t ordinal = 0;
    uint32_t name = 0;
    bool start = false;
  };
  struct Activity {
    uint32_t name = 0;
    uint64_t start = 0, stop = 0;
    uint64_t startThread = 0, stopThread = 0;
    Guid id, parentId;
    int64_t parent = -1;
    uint32_t depth = 0;
    bool finished = false;
  };
  struct Built {
    std::vector<Activity> activities;  // by start time
    uint64_t unmatchedStops = 0;
    uint64_t ambiguousStops = 0;  // Stops that ended one of several open activities of one id and name
  };
  Built Pair() const;

  TraceClock clock_;
  std::vector<Mark> marks_;
  std::vector<std::pair<std::string, std::string>> names_;  // (provider, name)
  std::unordered_map<std::string, uint32_t> nameIndex_;
  uint64_t withoutId_ = 0, notKept_ = 0;
  bool late_ = false;
};

}  // namespace nettrace
