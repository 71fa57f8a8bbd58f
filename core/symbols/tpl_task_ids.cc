#include "symbols/tpl_task_ids.h"

#include <algorithm>

#include "events/event_naming.h"
#include "io/byte_cursor.h"

namespace nettrace {

void TplTaskIds::OnMetadata(const EventMetadata& m) {
  if (ClassifyProvider(m.providerName) == KnownProvider::kTpl && m.eventId >= 7 && m.eventId <= 12)
    eventIds_[m.id] = m.eventId;
  else
    eventIds_.erase(m.id);
}

bool TplTaskIds::OnEvent(const EventRecord& e, uint32_t ordinal) {
  if (eventIds_.empty()) return true;  // no TPL task events: no lookup per event
  auto it = eventIds_.find(e.metadataId);
  if (it == eventIds_.end()) return true;
  ByteCursor c(e.payload, e.payloadOffset);
  uint32_t scheduler = 0, originating = 0, id = 0, behavior = 0;
  if (!c.ReadU32(&scheduler) || !c.ReadU32(&originating) || !c.ReadU32(&id)) return false;
  if (it->second == 10 && !c.ReadU32(&behavior)) return false;
  events_.emplace_back(ordinal, TplTaskEvent{static_cast<int32_t>(id), static_cast<int32_t>(behavior)});
  return true;
}

std::optional<TplTaskEvent> TplTaskIds::Find(uint32_t ordinal) const {
  auto it = std::lower_bound(events_.begin(), events_.end(), ordinal,
                             [](const std::pair<uint32_t, TplTaskEvent>& a, uint32_t o) { return a.first < o; });
  if (it == events_.end() || it->first != ordinal) return std::nullopt;
  return it->second;
}

}  // namespace nettrace
