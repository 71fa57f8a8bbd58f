// core/analysis — the trace summary document (`nettrace summary`, TraceSession::SummaryJson),
// written from the stages that hold its facts; it keeps none of its own:
//   - the records as the file wrote them, in file order (analysis/summary/record_facts.h): header,
//     blocks, tables, payload bytes, processors, captured and dropped events;
//   - the events as the store keeps them, counted from the sorted stream
//     (model/event_counts.h): counts per type and thread, stacks, the time range;
//   - the resolver's type and thread tables, and what it told apart per event that the
//     store's rows cannot say (resolve/type_resolver.h): TraceLog's bookkeeping events, and
//     the events whose thread no definition named;
//   - the runtime signals, from the sorted tap (analysis/runtime/runtime_signals.h).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "analysis/summary/record_facts.h"
#include "analysis/runtime/runtime_signals.h"
#include "analysis/summary/summary_types.h"
#include "base/json_writer.h"
#include "base/stats.h"
#include "base/status.h"
#include "model/event_counts.h"
#include "resolve/type_resolver.h"

namespace nettrace {

struct SummarySources {
  const RecordFacts& records;
  const EventCounts& events;  // every event read: the store's rows and those still being sorted
  const TypeResolver& resolver;
  const std::vector<uint64_t>& eventsPerThread;  // EventsPerThread(events, resolver)
  const Stats& stats;
  const RuntimeSignals* runtime = nullptr;  // none: no "runtime" key
  const GcStats* gc = nullptr;              // the runtime key's GC pauses (TraceEvent's GCStats)
};

struct SummaryReaderState {
  uint32_t formatMajor = 0;
  bool complete = false;
  uint64_t bytesRead = 0;
  Status error;
};

// The summary's keys, written into the object the caller has begun: the session's one
// writer adds the Universal keys (analysis/summary/universal_summary.h) after them and closes it.
void WriteSummaryFields(JsonWriter& w, const SummaryReaderState& reader, const SummarySources& s);

// Events per thread of the resolver's table (by ThreadIndex): the rows of each, less those
// it was given for events whose thread no definition named.
std::vector<uint64_t> EventsPerThread(const EventCounts& events, const TypeResolver& resolver);

// The counts per type: the rows of each, those with frames, and those TraceLog would keep.
SummaryTypeCounts TypeCountsOf(const EventCounts& events, const TypeResolver& resolver);

// "Provider/Name, count" lines in ordinal order, TraceLog's bookkeeping removed.
std::string TraceEventCounts(const EventCounts& events, const TypeResolver& resolver);

}  // namespace nettrace
