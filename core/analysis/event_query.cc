#include "analysis/event_query.h"

#include <cmath>

#include "analysis/event_filter.h"

namespace nettrace {

double TicksToMs(const TraceInfo& info, uint64_t ticks) {
  if (info.tickFrequency <= 0) return 0;
  const int64_t rel = static_cast<int64_t>(ticks - static_cast<uint64_t>(info.syncTimeTicks));
  return static_cast<double>(rel) * 1000.0 / static_cast<double>(info.tickFrequency);
}

uint64_t MsToTicks(const TraceInfo& info, double ms) {
  const double rel = std::floor(ms * static_cast<double>(info.tickFrequency) / 1000.0);
  const double abs = static_cast<double>(info.syncTimeTicks) + rel;
  if (abs <= 0) return 0;
  if (abs >= 18446744073709551615.0) return UINT64_MAX;
  return static_cast<uint64_t>(abs);
}

EventPage QueryEvents(const StoreBuilder& model, const EventQuery& q) {
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
