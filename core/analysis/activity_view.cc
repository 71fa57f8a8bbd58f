#include "analysis/activity_view.h"

#include <algorithm>
#include <map>

#include "base/json_writer.h"
#include "sort/event_sorter.h"

namespace nettrace {

void ActivityView::OnMark(bool start, uint32_t ordinal, uint64_t timestamp, uint64_t thread, const Guid& activity,
                          const Guid& related, const std::string& provider, const std::string& name) {
  if (activity.IsZero()) {  // no activity tracking in the session: nothing to pair by
    ++withoutId_;
    return;
  }
  std::string key = provider;
  key.push_back('\0');
  key += name;
  auto it = nameIndex_.find(key);
  if (it == nameIndex_.end()) {
    if (names_.size() >= kMaxNames || marks_.size() >= kMaxMarks) {
      ++notKept_;
      return;
    }
    it = nameIndex_.emplace(std::move(key), static_cast<uint32_t>(names_.size())).first;
    names_.emplace_back(provider, name);
  }
  if (marks_.size() >= kMaxMarks) {
    ++notKept_;
    return;
  }
  marks_.push_back({timestamp, thread, activity, related, ordinal, it->second, start});
}

ActivityView::Built ActivityView::Pair() const {
  std::vector<uint32_t> order(marks_.size());
  for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  if (late_)  // else they came in (timestamp, file order) already
    std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return SortedBefore(marks_[a], marks_[b]); });
  auto key = [](const Guid& g) { return std::string(reinterpret_cast<const char*>(g.bytes.data()), 16); };
  Built b;
  // (activity id, name) → open activity: two providers may run activities under one id at
  // once (System.Net.Sockets' Accept and System.Net.Http's Request of a loopback request).
  // Several may be open under one id and name (a trace where concurrent requests got the same
  // id): a Stop then ends the latest of them, as nesting would, and is counted as ambiguous.
  std::unordered_map<std::string, std::vector<size_t>> open;
  std::unordered_map<std::string, size_t> latest;  // activity id → the latest activity with it
  for (uint32_t i : order) {
    const Mark& m = marks_[i];
    const std::string id = key(m.activity);
    std::string openKey = id;
    openKey.append(reinterpret_cast<const char*>(&m.name), sizeof m.name);
    if (m.start) {
      Activity a;
      a.name = m.name, a.start = m.timestamp, a.startThread = m.thread, a.id = m.activity, a.parentId = m.related;
      if (!m.related.IsZero())
        if (auto p = latest.find(key(m.related)); p != latest.end()) {
          a.parent = static_cast<int64_t>(p->second);
          a.depth = b.activities[p->second].depth + 1;
        }
      open[openKey].push_back(b.activities.size());
      latest[id] = b.activities.size();  // a reused id: the new activity takes it over as a parent
      b.activities.push_back(a);
      continue;
    }
    auto it = open.find(openKey);
    if (it == open.end() || it->second.empty()) {
      ++b.unmatchedStops;  // began before the session
      continue;
    }
    if (it->second.size() > 1) ++b.ambiguousStops;
    Activity& a = b.activities[it->second.back()];
    a.stop = m.timestamp, a.stopThread = m.thread, a.finished = true;
    it->second.pop_back();
  }
  return b;
}

std::vector<ActivityView::Finished> ActivityView::FinishedActivities() const {
  std::vector<Finished> out;
  for (const Activity& a : Pair().activities)
    if (a.finished) out.push_back({names_[a.name].first, names_[a.name].second, a.start, a.stop, a.startThread, a.depth});
  return out;
}

std::string ActivityView::Write(ViewFormat format) const {
  const Built b = Pair();
  auto ms = [&](uint64_t ts) { return clock_.MsFromSync(ts); };
  auto durMs = [&](const Activity& a) { return static_cast<double>(clock_.Ns(a.stop - a.start)) / 1e6; };
  if (format == ViewFormat::kCsv) {
    std::string out = "index,provider,name,id,parent,depth,startMs,durationMs,startThread,stopThread\n";
    char buf[96];
    for (size_t i = 0; i < b.activities.size(); ++i) {
      const Activity& a = b.activities[i];
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
  for (const Activity& a : b.activities) {
    ++counts[a.name];
    if (a.finished) durations[a.name].push_back(clock_.Ns(a.stop - a.start));
  }
  uint64_t finished = 0;
  for (auto& d : durations) std::sort(d.begin(), d.end()), finished += d.size();
  JsonWriter w;
  w.BeginObject().Key("count").UInt(b.activities.size()).Key("finished").UInt(finished);
  w.Key("unfinished").UInt(b.activities.size() - finished).Key("unmatchedStops").UInt(b.unmatchedStops);
  w.Key("ambiguousStops").UInt(b.ambiguousStops);
  w.Key("withoutActivityId").UInt(withoutId_).Key("notKept").UInt(notKept_);
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
  w.EndArray().Key("listed").UInt(std::min(b.activities.size(), kMaxListed)).Key("activities").BeginArray();
  for (size_t i = 0; i < b.activities.size() && i < kMaxListed; ++i) {
    const Activity& a = b.activities[i];
    w.BeginObject().Key("provider").String(names_[a.name].first).Key("name").String(names_[a.name].second);
    w.Key("id").String(a.id.ToString()).Key("relatedId").String(a.parentId.ToString()).Key("parent");
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
