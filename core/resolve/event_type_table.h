// core/resolve — the one table of event types: a type is an event's metadata as the event
// sees it (a v6 label list's overrides applied, or a GC dynamic event's own name), interned
// once by the resolver (resolve/type_resolver.h) and indexed by every stage after it: the
// summary's counts, the store's rows, the views. Small: one entry per distinct type.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "base/strong_index.h"
#include "events/event_kind.h"
#include "events/event_naming.h"
#include "format/records.h"

namespace nettrace {

struct EventType {
  EventMetadata metadata;  // id zeroed: several metadata ids may share one type
  std::string name;        // PerfView-style display name
  KnownProvider knownProvider = KnownProvider::kOther;
  EventKind kind = EventKind::kNone;  // the resolver's kind (events/event_kind.h)
};

class EventTypeTable {
 public:
  // Returns the type for this metadata, adding it when no identical one exists.
  // Fails (nullopt) beyond 65,535 distinct types.
  std::optional<EventTypeIndex> Intern(const EventMetadata& m, const LabelOverrides& overrides = {});
  // The same, named `name` rather than after its metadata (GcDynamicEventName): a type of its
  // own per name.
  std::optional<EventTypeIndex> InternRenamed(const EventMetadata& m, const std::string& name);
  const EventType& operator[](EventTypeIndex i) const { return types_[i.value]; }
  size_t size() const { return types_.size(); }

 private:
  std::optional<EventTypeIndex> Intern(const EventMetadata& m, const LabelOverrides& overrides, std::string name);

  std::vector<EventType> types_;
  std::unordered_multimap<std::string, uint16_t> byKey_;
};

}  // namespace nettrace
