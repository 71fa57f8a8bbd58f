#include "analysis/event_filter.h"

#include "events/trace_clock.h"
#include "format/provider_family.h"

namespace nettrace {

bool TypeMatches(const EventType& type, const std::string& provider, const std::string& name) {
  return (provider.empty() || EqualsIgnoreAsciiCase(type.metadata.providerName, provider)) && (name.empty() || type.name == name);
}

std::vector<bool> ThreadMask(const TraceModel& model, std::optional<uint64_t> osThreadId) {
  std::vector<bool> ok(model.threads().size(), true);
  if (!osThreadId) return ok;
  for (size_t t = 0; t < ok.size(); ++t) {
    const ThreadEntry& e = model.threads()[ThreadIndex(static_cast<uint16_t>(t))];
    ok[t] = e.osThreadId.value_or(e.key) == *osThreadId;
  }
  return ok;
}

RowRange RowsInTime(const TraceModel& model, std::optional<double> fromMs, std::optional<double> toMs) {
  const EventStore& store = model.store();
  RowRange r{0, store.size()};
  if (fromMs) r.begin = store.LowerBound(MsToTicks(model.info(), *fromMs));
  if (toMs) {
    const uint64_t to = MsToTicks(model.info(), *toMs);
    r.end = to == UINT64_MAX ? store.size() : store.LowerBound(to + 1);
  }
  if (r.end < r.begin) r.end = r.begin;
  return r;
}

}  // namespace nettrace
