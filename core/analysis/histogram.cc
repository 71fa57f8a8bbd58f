#include "analysis/histogram.h"

#include <algorithm>
#include <map>

#include "analysis/event_filter.h"
#include "events/trace_clock.h"

namespace nettrace {

namespace {
constexpr uint32_t kMaxBuckets = 100000;
}  // namespace

Histogram BuildHistogram(const TraceModel& model, const HistogramQuery& query) {
  const EventQuery& q = query.filter;
  const EventStore& store = model.store();
  Histogram h;
  h.buckets = std::clamp<uint32_t>(query.buckets, 1, kMaxBuckets);

  // Per type: matches the filter? which series? Series are sorted by name (std::map).
  constexpr int32_t kSkip = -1;
  std::vector<int32_t> typeSeries(model.types().size(), kSkip);
  std::map<std::string, std::vector<size_t>> seriesTypes;
  for (size_t t = 0; t < typeSeries.size(); ++t) {
    const EventType& type = model.types()[EventTypeIndex(static_cast<uint16_t>(t))];
    if (!TypeMatches(type, q.provider, q.name)) continue;
    std::string key = query.groupBy == HistogramGroup::kProvider    ? type.metadata.providerName
                      : query.groupBy == HistogramGroup::kEventType ? type.metadata.providerName + "/" + type.name
                                                                    : std::string("all");  // kNone, kThread
    seriesTypes[key].push_back(t);
  }
  if (query.groupBy == HistogramGroup::kNone && seriesTypes.empty()) seriesTypes["all"];
  for (auto& [name, types] : seriesTypes) {
    for (size_t t : types) typeSeries[t] = static_cast<int32_t>(h.series.size());
    h.series.push_back(name);
  }
  const std::vector<bool> threadOk = ThreadMask(model, q.thread);
  // kThread: the matching types' one series above is replaced by one per OS thread id (as
  // the thread filter names threads; entries sharing an id share a series) the filter keeps.
  std::vector<int32_t> threadSeries;
  if (query.groupBy == HistogramGroup::kThread) {
    std::map<uint64_t, std::vector<size_t>> byId;
    for (size_t t = 0; t < threadOk.size(); ++t) {
      const ThreadEntry& e = model.threads()[ThreadIndex(static_cast<uint16_t>(t))];
      if (threadOk[t]) byId[e.osThreadId.value_or(e.key)].push_back(t);
    }
    h.series.clear();
    threadSeries.assign(threadOk.size(), kSkip);
    for (const auto& [id, entries] : byId) {
      for (size_t t : entries) threadSeries[t] = static_cast<int32_t>(h.series.size());
      h.series.push_back(std::to_string(id));
    }
  }

  // The range: given, or the whole trace (first to last event).
  const TraceInfo& info = model.info();
  const double firstMs = store.size() ? TicksToMs(info, store.timestamp(0)) : 0.0;
  const double lastMs = store.size() ? TicksToMs(info, store.timestamp(store.size() - 1)) : 0.0;
  h.fromMs = q.fromMs.value_or(firstMs);
  h.toMs = std::max(h.fromMs, q.toMs.value_or(lastMs));
  h.bucketMs = (h.toMs - h.fromMs) / h.buckets;
  h.counts.assign(h.series.size() * h.buckets, 0.0);

  const RowRange rows = RowsInTime(model, q.fromMs, q.toMs);
  const double span = h.toMs - h.fromMs;
  EventStore::RowCursor cursor(store);  // rows ascend
  for (size_t row = rows.begin; row < rows.end; ++row) {
    int32_t s = typeSeries[store.type(row).value];
    if (s == kSkip || !threadOk[store.thread(row).value]) continue;
    if (!threadSeries.empty()) s = threadSeries[store.thread(row).value];
    const double ms = TicksToMs(info, cursor.timestamp(row));
    double pos = span > 0 ? (ms - h.fromMs) / span * h.buckets : 0.0;
    uint32_t b = pos <= 0 ? 0 : pos >= h.buckets ? h.buckets - 1 : static_cast<uint32_t>(pos);
    h.counts[static_cast<size_t>(s) * h.buckets + b] += 1;
    ++h.total;
  }
  return h;
}

}  // namespace nettrace
