// core/analysis — the event table's queries: filter the time-ordered store by provider,
// event name, thread and time range, and return one page of row numbers (the view asks
// for the rows it shows; nothing is materialised for the others).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/trace_model.h"

namespace nettrace {

struct EventQuery {
  std::string provider;            // case-insensitive exact match; empty: any
  std::string name;                // exact display name ("GC/Start"); empty: any
  std::optional<uint64_t> thread;  // OS thread id; empty: any
  std::optional<double> fromMs;    // inclusive, ms from the trace's sync time
  std::optional<double> toMs;      // inclusive
  // Free text (reread/text_search.h). QueryEvents ignores it; TraceSession::SearchText
  // and the JS API's events() apply it.
  std::string text;
  uint64_t offset = 0;
  uint64_t limit = 100;
};

struct EventPage {
  uint64_t totalMatches = 0;
  std::vector<uint32_t> rows;
};

EventPage QueryEvents(const TraceModel& model, const EventQuery& query);

}  // namespace nettrace
