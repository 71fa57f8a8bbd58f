// core/analysis — the summary's event counts per event type. The type is the resolver's
// (resolve/type_resolver.h: one table for the summary, the store and the views), so counting
// is one array index per event. The summary shows types by (provider, display name): the
// store's types that differ only in fields the summary does not show (opcode, keywords,
// level, a later version) are one row, whose event id and version are those of the first
// such type in the table — the first definition the trace gave that name.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/json_writer.h"
#include "base/strong_index.h"
#include "model/trace_tables.h"

namespace nettrace {

struct EventTypeCounts {
  uint64_t count = 0;
  uint64_t withStacks = 0;     // events whose stack has at least one frame
  uint64_t traceLogCount = 0;  // count minus TraceLog's bookkeeping events
};

// One summary row: a (provider, name) and its types' counts summed.
struct EventTypeSummary {
  std::string provider;
  std::string name;
  uint32_t eventId = 0;
  uint32_t version = 0;
  EventTypeCounts counts;
};

class SummaryTypeCounts {
 public:
  EventTypeCounts& At(EventTypeIndex type) {
    if (type.value >= counts_.size()) counts_.resize(type.value + size_t{1});  // ≤ 65,535 entries
    return counts_[type.value];
  }
  // The rows of the types with events, in table order of their first type.
  std::vector<EventTypeSummary> Rows(const EventTypeTable& table) const;
  // "types" (most frequent first, ties by provider then name) and "providers" (by name).
  void WriteJson(const EventTypeTable& table, JsonWriter& w) const;
  // "Provider/Name, count" lines in ordinal order, TraceLog's bookkeeping removed.
  std::string TraceEventCounts(const EventTypeTable& table) const;

 private:
  std::vector<EventTypeCounts> counts_;  // by EventTypeIndex
};

}  // namespace nettrace
