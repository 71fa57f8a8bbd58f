#include "analysis/activity_view.h"

#include <algorithm>
#include <cstdio>
#include <map>

#include "analysis/async_stitching.h"
#include "analysis/start_stop_activities.h"
#include "base/json_writer.h"
#include "model/trace_model.h"

namespace nettrace {

ActivityView::ActivityView(const TraceModel& model, const SymbolCollector& symbols) : clock_(model.clock()) {
  StackResolver resolver(model, symbols);
  AsyncStitcher tasks(model, symbols, &resolver);
  StartStopActivities startStops(model, symbols, &resolver);
  if (!startStops.available()) return;
  // TraceEvent's StartStopActivityComputer on its own (no thread-time computer asking for
  // activities): a Stop takes effect at the next Start or Stop, and task activities are
  // followed as its ActivityComputer follows them.
  const EventStore& store = model.store();
  for (size_t row = 0; row < store.size(); ++row) {
    (void)tasks.OnRow(row);
    startStops.OnRow(row, tasks);
  }
  startStops.ApplyPendingStop(tasks);
  unmatchedStops_ = startStops.unmatchedStops(), otherTaskStops_ = startStops.otherTaskStops();
  withoutActivityPath_ = startStops.withoutActivityPath(), notKept_ = startStops.notKept();

  auto osThread = [&](uint32_t row) {
    const ThreadEntry& t = model.threads()[store.thread(row)];
    return t.osThreadId.value_or(t.key);
  };
  std::map<std::pair<std::string, std::string>, uint32_t> nameIndex;
  const std::vector<StartStopActivities::Activity>& list = startStops.activities();
  activities_.reserve(list.size());
  for (const StartStopActivities::Activity& a : list) {
    std::pair<std::string, std::string> key{model.types()[EventTypeIndex(a.type)].metadata.providerName, startStops.task(a.type)};
    auto [it, added] = nameIndex.emplace(key, static_cast<uint32_t>(names_.size()));
    if (added) names_.push_back(std::move(key));
    Activity v;
    v.name = it->second, v.start = a.startTicks, v.startThread = osThread(a.startRow);
    v.id = a.id, v.related = a.related, v.parent = a.creator;
    v.depth = a.creator >= 0 ? activities_[static_cast<size_t>(a.creator)].depth + 1 : 0;
    if (a.stopRow != StartStopActivities::kNoRow) v.finished = true, v.stop = a.stopTicks, v.stopThread = osThread(a.stopRow);
    activities_.push_back(v);
  }
}

std::vector<ActivityView::Finished> ActivityView::FinishedActivities() const {
  std::vector<Finished> out;
  for (const Activity& a : activities_)
    if (a.finished) out.push_back({names_[a.name].first, names_[a.name].second, a.start, a.stop, a.startThread, a.depth});
  return out;
}

std::string ActivityView::Write(ViewFormat format) const {
  auto ms = [&](uint64_t ts) { return clock_.MsFromSync(ts); };
  auto durMs = [&](const Activity& a) { return static_cast<double>(clock_.Ns(a.stop - a.start)) / 1e6; };
  if (format == ViewFormat::kCsv) {
    std::string out = "index,provider,name,id,parent,depth,startMs,durationMs,startThread,stopThread\n";
    char buf[96];
    for (size_t i = 0; i < activities_.size(); ++i) {
      const Activity& a = activities_[i];
      out += std::to_string(i) + ',';
      AppendCsvField(names_[a.name].first, &out), out += ',';
      AppendCsvField(names_[a.name].second, &out);
      out += ',' + a.id.ToString() + ',' + (a.parent >= 0 ? std::to_string(a.parent) : "") + ',' + std::to_string(a.depth);
      std::snprintf(buf, sizeof buf, ",%.6f,", ms(a.start));
      out += buf;
      if (a.finished) std::snprintf(buf, sizeof buf, "%.6f", durMs(a)), out += buf;
      out += ',' + std::to_string(a.startThread) + ',' + (a.finished ? std::to_string(a.stopThread) : "") + '\n';
    }
    return out;
  }
  // Per name: durations of the finished ones, for percentiles.
  std::vector<std::vector<uint64_t>> durations(names_.size());
  std::vector<uint64_t> counts(names_.size());
  for (const Activity& a : activities_) {
    ++counts[a.name];
    if (a.finished) durations[a.name].push_back(clock_.Ns(a.stop - a.start));
  }
  uint64_t finished = 0;
  for (auto& d : durations) std::sort(d.begin(), d.end()), finished += d.size();
  JsonWriter w;
  w.BeginObject().Key("count").UInt(activities_.size()).Key("finished").UInt(finished);
  w.Key("unfinished").UInt(activities_.size() - finished).Key("unmatchedStops").UInt(unmatchedStops_);
  w.Key("ambiguousStops").UInt(otherTaskStops_);
  w.Key("withoutActivityId").UInt(withoutActivityPath_).Key("notKept").UInt(notKept_);
  w.Key("names").BeginArray();
  std::vector<uint32_t> byName(names_.size());
  for (uint32_t i = 0; i < byName.size(); ++i) byName[i] = i;
  std::sort(byName.begin(), byName.end(), [&](uint32_t x, uint32_t y) { return names_[x] < names_[y]; });
  for (uint32_t n : byName) {
    const std::vector<uint64_t>& d = durations[n];
    uint64_t total = 0;
    for (uint64_t v : d) total += v;
    w.BeginObject().Key("provider").String(names_[n].first).Key("name").String(names_[n].second);
    w.Key("count").UInt(counts[n]).Key("finished").UInt(d.size());
    w.Key("p50Ms").Fixed(static_cast<double>(NearestRank(d, 0.5)) / 1e6, 6);
    w.Key("p90Ms").Fixed(static_cast<double>(NearestRank(d, 0.9)) / 1e6, 6);
    w.Key("p99Ms").Fixed(static_cast<double>(NearestRank(d, 0.99)) / 1e6, 6);
    w.Key("maxMs").Fixed(d.empty() ? 0.0 : static_cast<double>(d.back()) / 1e6, 6);
    w.Key("meanMs").Fixed(d.empty() ? 0.0 : static_cast<double>(total) / static_cast<double>(d.size()) / 1e6, 6);
    w.EndObject();
  }
  w.EndArray().Key("listed").UInt(std::min(activities_.size(), kMaxListed)).Key("activities").BeginArray();
  for (size_t i = 0; i < activities_.size() && i < kMaxListed; ++i) {
    const Activity& a = activities_[i];
    w.BeginObject().Key("provider").String(names_[a.name].first).Key("name").String(names_[a.name].second);
    w.Key("id").String(a.id.ToString()).Key("relatedId").String(a.related.ToString()).Key("parent");
    a.parent >= 0 ? w.UInt(static_cast<uint64_t>(a.parent)) : w.Null();
    w.Key("depth").UInt(a.depth).Key("startMs").Fixed(ms(a.start), 6).Key("durationMs");
    a.finished ? w.Fixed(durMs(a), 6) : w.Null();
    w.Key("startThread").UInt(a.startThread).Key("stopThread");
    a.finished ? w.UInt(a.stopThread) : w.Null();
    w.EndObject();
  }
  w.EndArray().EndObject();
  return w.Take();
}

}  // namespace nettrace
