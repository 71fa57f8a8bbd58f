#include "analysis/event_query.h"

#include <cmath>

#include "analysis/event_filter.h"

namespace nettrace {

EventPage QueryEvents(const TraceModel& model, const EventQuery& q) {
  const EventStore& store = model.store();
  std::vector<bool> typeOk(model.types().size());
  for (size_t t = 0; t < typeOk.size(); ++t)
    typeOk[t] = TypeMatches(model.types()[EventTypeIndex(static_cast<uint16_t>(t))], q.provider, q.name);
  const std::vector<bool> threadOk = ThreadMask(model, q.thread);
  const RowRange rows = RowsInTime(model, q.fromMs, q.toMs);
  EventPage page;
  for (size_t row = rows.begin; row < rows.end; ++row) {
    if (!typeOk[store.type(row).value] || !threadOk[store.thread(row).value]) continue;
    if (page.totalMatches >= q.offset && page.rows.size() < q.limit) page.rows.push_back(static_cast<uint32_t>(row));
    ++page.totalMatches;
  }
  return page;
}

}  // namespace nettrace
