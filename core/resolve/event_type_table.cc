#include "resolve/event_type_table.h"

namespace nettrace {

namespace {

void AppendString(std::string* out, const std::string& s) {
  out->append(std::to_string(s.size())).push_back(':');
  out->append(s);
}

}  // namespace

std::optional<EventTypeIndex> EventTypeTable::Intern(const EventMetadata& m, const LabelOverrides& overrides) {
  return Intern(m, overrides, EventDisplayName(m, overrides));
}

std::optional<EventTypeIndex> EventTypeTable::InternRenamed(const EventMetadata& m, const std::string& name) {
  return Intern(m, {}, name);
}

std::optional<EventTypeIndex> EventTypeTable::Intern(const EventMetadata& m, const LabelOverrides& overrides,
                                                     std::string name) {
  EventMetadata copy = ApplyOverrides(m, overrides);
  copy.id = 0;
  std::string key;
  AppendString(&key, m.providerName);
  AppendString(&key, m.eventName);
  key += std::to_string(m.eventId) + "/" + std::to_string(m.version);
  auto [lo, hi] = byKey_.equal_range(key);
  for (auto it = lo; it != hi; ++it)
    if (types_[it->second].metadata == copy && types_[it->second].name == name) return EventTypeIndex(it->second);
  if (types_.size() >= 0xFFFF) return std::nullopt;
  uint16_t index = static_cast<uint16_t>(types_.size());
  EventType& t = types_.emplace_back();
  t.name = std::move(name);
  t.knownProvider = ClassifyProvider(copy.providerName);
  t.kind = EventKindOf(m, overrides.opcode);  // an overridden opcode may make it a Start or a Stop
  t.metadata = std::move(copy);
  byKey_.emplace(std::move(key), index);
  return EventTypeIndex(index);
}

}  // namespace nettrace
