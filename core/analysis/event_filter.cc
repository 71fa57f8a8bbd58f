#include "analysis/event_filter.h"

#include <cctype>

#include "analysis/event_query.h"

namespace nettrace {

bool SameIgnoreCase(const std::string& a, const std::string& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) return false;
  return true;
}

bool TypeMatches(const EventType& type, const std::string& provider, const std::string& name) {
  return (provider.empty() || SameIgnoreCase(type.metadata.providerName, provider)) && (name.empty() || type.name == name);
}

std::vector<bool> ThreadMask(const StoreBuilder& model, std::optional<uint64_t> osThreadId) {
  std::vector<bool> ok(model.threads().size(), true);
  if (!osThreadId) return ok;
  for (size_t t = 0; t < ok.size(); ++t) {
    const ThreadEntry& e = model.threads()[ThreadIndex(static_cast<uint16_t>(t))];
    ok[t] = e.osThreadId.value_or(e.key) == *osThreadId;
  }
  return ok;
}

RowRange RowsInTime(const StoreBuilder& model, std::optional<double> fromMs, std::optional<double> toMs) {
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
