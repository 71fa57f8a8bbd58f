#include "analysis/contention_view.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "base/json_writer.h"
#include "model/trace_model.h"

namespace nettrace {

namespace {
std::string Hex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}
const char* SourceName(ContentionView::Source s) { return s == ContentionView::Source::kLock ? "lock" : "waitHandle"; }
}  // namespace

void ContentionView::OnStart(Source source, uint64_t thread, const Start& start) {
  Totals& t = totals_[static_cast<int>(source)];
  ++t.starts;
  auto [it, added] = pending_[static_cast<int>(source)].emplace(thread, start);
  if (!added) ++t.unpairedStarts, it->second = start;  // the earlier one never stopped
}

void ContentionView::OnStop(Source source, uint64_t thread, uint64_t timestamp, std::optional<double> durationNs) {
  Totals& t = totals_[static_cast<int>(source)];
  auto it = pending_[static_cast<int>(source)].find(thread);
  if (it == pending_[static_cast<int>(source)].end()) {
    ++t.unpairedStops;  // began before the session, or its start was lost
    return;
  }
  Wait w;
  w.start = it->second, w.thread = thread, w.source = source;
  pending_[static_cast<int>(source)].erase(it);
  if (durationNs && std::isfinite(*durationNs) && *durationNs >= 0 && *durationNs < 9.2e18) {
    w.ns = static_cast<uint64_t>(std::llround(*durationNs)), w.measured = true;
  } else {
    w.ns = timestamp > w.start.timestamp ? clock_.Ns(timestamp - w.start.timestamp) : 0;
  }
  if (waits_.size() >= kMaxWaits) {
    ++t.notKept;
    return;
  }
  waits_.push_back(w);
  byOrdinal_.emplace_back(w.start.ordinal, w.ns);
  sorted_ = false;
}

void ContentionView::SortOrdinals() const {
  if (!sorted_) std::sort(byOrdinal_.begin(), byOrdinal_.end()), sorted_ = true;
}

std::optional<uint64_t> ContentionView::WaitNs(uint32_t startOrdinal) const {
  SortOrdinals();
  auto it = std::lower_bound(byOrdinal_.begin(), byOrdinal_.end(), std::make_pair(startOrdinal, uint64_t{0}));
  if (it == byOrdinal_.end() || it->first != startOrdinal) return std::nullopt;
  return it->second;
}

void ContentionView::WriteSource(JsonWriter& w, Source source, const std::unordered_map<uint64_t, std::string>& names) const {
  const Totals& t = totals_[static_cast<int>(source)];
  struct Agg {
    uint64_t count = 0, total = 0, max = 0;
  };
  auto add = [](Agg& a, uint64_t ns) { ++a.count, a.total += ns, a.max = std::max(a.max, ns); };
  Agg all;
  std::map<uint64_t, Agg> byThread, byOwner;
  std::map<uint64_t, std::pair<Agg, std::map<uint64_t, Agg>>> byLock;  // lock → (totals, owners)
  std::map<uint64_t, uint64_t> lockObject;
  std::vector<uint64_t> durations;
  uint64_t pending = 0;
  for (const auto& p : pending_[static_cast<int>(source)]) (void)p, ++pending;
  for (const Wait& x : waits_) {
    if (x.source != source) continue;
    add(all, x.ns), add(byThread[x.thread], x.ns), durations.push_back(x.ns);
    if (x.start.owner != kUnknown) add(byOwner[x.start.owner], x.ns);
    if (x.start.lockId != kUnknown) {
      auto& [lockAgg, owners] = byLock[x.start.lockId];
      add(lockAgg, x.ns);
      if (x.start.owner != kUnknown) add(owners[x.start.owner], x.ns);
      lockObject[x.start.lockId] = x.start.objectId;
    }
  }
  std::sort(durations.begin(), durations.end());
  auto thread = [&](const char* key, uint64_t tid) {
    w.Key(key).UInt(tid);
    auto n = names.find(tid);
    if (n != names.end()) w.Key("threadName").String(n->second);
  };
  auto aggFields = [&](const Agg& a) { w.Key("count").UInt(a.count).Key("totalNs").UInt(a.total).Key("maxNs").UInt(a.max); };
  w.Key(SourceName(source)).BeginObject();
  w.Key("starts").UInt(t.starts).Key("waits").UInt(all.count);
  w.Key("unpairedStarts").UInt(t.unpairedStarts + pending).Key("unpairedStops").UInt(t.unpairedStops);
  w.Key("notKept").UInt(t.notKept);
  w.Key("totalNs").UInt(all.total).Key("maxNs").UInt(all.max);
  w.Key("p50Ns").UInt(NearestRank(durations, 0.5)).Key("p90Ns").UInt(NearestRank(durations, 0.9));
  w.Key("p99Ns").UInt(NearestRank(durations, 0.99));
  w.Key("byThread").BeginArray();
  for (const auto& [tid, a] : byThread) w.BeginObject(), thread("thread", tid), aggFields(a), w.EndObject();
  w.EndArray().Key("byOwner").BeginArray();
  for (const auto& [tid, a] : byOwner) w.BeginObject(), thread("owner", tid), aggFields(a), w.EndObject();
  w.EndArray().Key("byLock").BeginArray();
  for (const auto& [lock, v] : byLock) {
    w.BeginObject().Key("lockId").String(Hex(lock)).Key("objectId").String(Hex(lockObject[lock]));
    aggFields(v.first);
    w.Key("owners").BeginArray();
    for (const auto& [tid, a] : v.second) w.BeginObject(), thread("owner", tid), aggFields(a), w.EndObject();
    w.EndArray().EndObject();
  }
  w.EndArray().EndObject();
}

std::string ContentionView::Write(const TraceModel& model, ViewFormat format) const {
  std::unordered_map<uint64_t, std::string> names;  // OS thread id → name, where the trace names it
  for (size_t i = 0; i < model.threads().size(); ++i) {
    const ThreadEntry& t = model.threads()[ThreadIndex(static_cast<uint16_t>(i))];
    if (t.name && !t.name->empty()) names[t.osThreadId.value_or(t.key)] = *t.name;
  }
  auto ms = [&](uint64_t ts) { return clock_.MsFromSync(ts); };
  // Waits in time order (pairing order is file order).
  std::vector<const Wait*> order;
  order.reserve(waits_.size());
  for (const Wait& x : waits_) order.push_back(&x);
  std::stable_sort(order.begin(), order.end(), [](const Wait* a, const Wait* b) { return a->start.timestamp < b->start.timestamp; });
  if (format == ViewFormat::kCsv) {
    std::string out = "kind,timeMs,thread,durationNs,measured,lockId,objectId,owner\n";
    char buf[64];
    for (const Wait* x : order) {
      std::snprintf(buf, sizeof buf, "%.6f", ms(x->start.timestamp));
      out += std::string(SourceName(x->source)) + ',' + buf + ',' + std::to_string(x->thread) + ',' + std::to_string(x->ns) + ',' +
             (x->measured ? "true" : "false") + ',' + (x->start.lockId != kUnknown ? Hex(x->start.lockId) : "") + ',' +
             (x->start.objectId != kUnknown ? Hex(x->start.objectId) : "") + ',' +
             (x->start.owner != kUnknown ? std::to_string(x->start.owner) : "") + '\n';
    }
    return out;
  }
  JsonWriter w;
  w.BeginObject();
  WriteSource(w, Source::kLock, names);
  WriteSource(w, Source::kWaitHandle, names);
  w.Key("listed").UInt(std::min(order.size(), kMaxListed));
  w.Key("list").BeginArray();
  for (size_t i = 0; i < order.size() && i < kMaxListed; ++i) {
    const Wait& x = *order[i];
    w.BeginObject().Key("kind").String(SourceName(x.source)).Key("timeMs").Fixed(ms(x.start.timestamp), 6);
    w.Key("thread").UInt(x.thread).Key("durationNs").UInt(x.ns).Key("measured").Bool(x.measured);
    if (x.start.lockId != kUnknown) w.Key("lockId").String(Hex(x.start.lockId));
    if (x.start.objectId != kUnknown) w.Key("objectId").String(Hex(x.start.objectId));
    if (x.start.owner != kUnknown) w.Key("owner").UInt(x.start.owner);
    w.Key("detail").UInt(x.start.detail);
    w.EndObject();
  }
  w.EndArray().EndObject();
  return w.Take();
}

}  // namespace nettrace
