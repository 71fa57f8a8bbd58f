#include "analysis/summary/summary_types.h"

#include <algorithm>
#include <map>
#include <string_view>

namespace nettrace {

std::vector<EventTypeSummary> SummaryTypeCounts::Rows(const EventTypeTable& table) const {
  std::vector<EventTypeSummary> rows;
  std::map<std::pair<std::string_view, std::string_view>, size_t> rowOf;  // (provider, name)
  for (size_t i = 0; i < table.size(); ++i) {
    const EventType& t = table[EventTypeIndex(static_cast<uint16_t>(i))];
    auto [it, added] = rowOf.try_emplace({t.metadata.providerName, t.name}, rows.size());
    if (added) {
      EventTypeSummary& row = rows.emplace_back();
      row.provider = t.metadata.providerName;
      row.name = t.name;
      row.eventId = t.metadata.eventId;
      row.version = t.metadata.version;  // overrides applied: the version the events saw
    }
    if (i >= counts_.size()) continue;
    EventTypeCounts& sum = rows[it->second].counts;
    sum.count += counts_[i].count;
    sum.withStacks += counts_[i].withStacks;
    sum.traceLogCount += counts_[i].traceLogCount;
  }
  rows.erase(std::remove_if(rows.begin(), rows.end(), [](const EventTypeSummary& r) { return r.counts.count == 0; }),
             rows.end());
  return rows;
}

void SummaryTypeCounts::WriteJson(const EventTypeTable& table, JsonWriter& w) const {
  std::vector<EventTypeSummary> rows = Rows(table);
  // Most frequent first, ties by provider then name (stable across platforms).
  std::sort(rows.begin(), rows.end(), [](const EventTypeSummary& a, const EventTypeSummary& b) {
    if (a.counts.count != b.counts.count) return a.counts.count > b.counts.count;
    if (a.provider != b.provider) return a.provider < b.provider;
    return a.name < b.name;
  });
  w.Key("types").BeginArray();
  for (const EventTypeSummary& t : rows) {
    w.BeginObject();
    w.Key("provider").String(t.provider);
    w.Key("name").String(t.name);
    w.Key("eventId").UInt(t.eventId);
    w.Key("version").UInt(t.version);
    w.Key("count").UInt(t.counts.count);
    w.Key("withStacks").UInt(t.counts.withStacks);
    w.EndObject();
  }
  w.EndArray();

  std::map<std::string, uint64_t> providers;
  for (const EventTypeSummary& t : rows) providers[t.provider] += t.counts.count;
  w.Key("providers").BeginArray();
  for (const auto& [name, count] : providers) w.BeginObject().Key("name").String(name).Key("count").UInt(count).EndObject();
  w.EndArray();
}

std::string SummaryTypeCounts::TraceEventCounts(const EventTypeTable& table) const {
  std::map<std::string, uint64_t> counts;  // std::string compares bytewise: ordinal order
  for (const EventTypeSummary& t : Rows(table))
    if (t.counts.traceLogCount) counts[t.provider + "/" + t.name] += t.counts.traceLogCount;
  std::string out;
  for (const auto& [key, count] : counts) out += key + ", " + std::to_string(count) + "\n";
  return out;
}

}  // namespace nettrace
