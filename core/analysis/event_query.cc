#include "analysis/event_query.h"

#include <cctype>
#include <cmath>

namespace nettrace {

namespace {
bool SameIgnoreCase(const std::string& a, const std::string& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) return false;
  return true;
}
}  // namespace

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
  for (size_t t = 0; t < typeOk.size(); ++t) {
    const EventType& type = model.types()[EventTypeIndex(static_cast<uint16_t>(t))];
    typeOk[t] = (q.provider.empty() || SameIgnoreCase(type.metadata.providerName, q.provider)) &&
                (q.name.empty() || type.name == q.name);
  }
  std::vector<bool> threadOk(model.threads().size(), true);
  if (q.thread) {
    for (size_t t = 0; t < threadOk.size(); ++t) {
      const ThreadEntry& e = model.threads()[ThreadIndex(static_cast<uint16_t>(t))];
      threadOk[t] = e.osThreadId.value_or(e.key) == *q.thread;
    }
  }
  // Rows are in time order: the range is two binary searches.
  size_t begin = q.fromMs ? store.LowerBound(MsToTicks(model.info(), *q.fromMs)) : 0;
  size_t end = store.size();
  if (q.toMs) {
    const uint64_t to = MsToTicks(model.info(), *q.toMs);
    end = to == UINT64_MAX ? store.size() : store.LowerBound(to + 1);
  }
  EventPage page;
  for (size_t row = begin; row < end; ++row) {
    if (!typeOk[store.type(row).value] || !threadOk[store.thread(row).value]) continue;
    if (page.totalMatches >= q.offset && page.rows.size() < q.limit) page.rows.push_back(static_cast<uint32_t>(row));
    ++page.totalMatches;
  }
  return page;
}

}  // namespace nettrace
