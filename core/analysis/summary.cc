#include "analysis/summary.h"

#include <algorithm>
#include <map>

#include "analysis/utc_time.h"
#include "events/trace_clock.h"

namespace nettrace {

namespace {

// The trace's clock (events/trace_clock.h) and its sync time as a Unix time in ms.
struct Clock {
  explicit Clock(const TraceInfo& info) : ticks(info), syncMs(SyncUnixMs(info.syncTimeUtc)) {}
  double RelMs(uint64_t ts) const { return ticks.MsFromSync(ts); }
  TraceClock ticks;
  double syncMs;
};

void WriteReader(JsonWriter& w, const SummaryReaderState& reader, const TraceInfo& info) {
  w.Key("format").BeginObject();
  w.Key("container").String(reader.formatMajor >= 6   ? "NetTrace blocks"
                            : reader.formatMajor <= 3 ? "NetPerf FastSerialization"
                                                      : "NetTrace FastSerialization");
  w.Key("major").UInt(reader.formatMajor);
  w.Key("minor").UInt(info.formatMinor);
  if (reader.formatMajor < 6) w.Key("traceObjectVersion").UInt(info.traceObjectVersion);
  w.EndObject();
  w.Key("complete").Bool(reader.complete && reader.error.ok());
  w.Key("bytesRead").UInt(reader.bytesRead);
  if (reader.error.ok()) {
    w.Key("error").Null();
    return;
  }
  w.Key("error").BeginObject();
  w.Key("code").String(ErrorCodeName(reader.error.code()));
  if (reader.error.offset() == kNoOffset) w.Key("offset").Null();
  else w.Key("offset").UInt(reader.error.offset());
  w.Key("message").String(reader.error.message());
  w.EndObject();
}

void WriteTrace(JsonWriter& w, const RecordFacts& records, const Clock& clock) {
  const TraceInfo& info = records.info();
  w.Key("trace").BeginObject();
  if (records.haveInfo()) {
    w.Key("syncTimeUtc");
    WriteUtc(w, clock.syncMs);
    w.Key("syncTimeTicks").Int(info.syncTimeTicks);
    w.Key("tickFrequency").Int(info.tickFrequency);
    w.Key("pointerSize").UInt(info.pointerSize);
    w.Key("processId").UInt(info.processId);
    w.Key("numberOfProcessors").UInt(info.numberOfProcessors);
    w.Key("expectedCpuSamplingRate").UInt(info.expectedCpuSamplingRate);
    w.Key("keyValues").BeginArray();
    for (const auto& kv : info.keyValues) w.BeginObject().Key("key").String(kv.key).Key("value").String(kv.value).EndObject();
    w.EndArray();
  }
  w.EndObject();
}

void WriteTimeRange(JsonWriter& w, const EventCounts& events, const Clock& clock) {
  w.Key("timeRange");
  if (events.rows() == 0) {
    w.Null();
    return;
  }
  const uint64_t first = events.firstTimestamp(), last = events.lastTimestamp();
  w.BeginObject();
  w.Key("firstTimestamp").UInt(first);
  w.Key("lastTimestamp").UInt(last);
  w.Key("startMs").Fixed(clock.RelMs(first), 6);
  w.Key("endMs").Fixed(clock.RelMs(last), 6);
  w.Key("durationMs").Fixed(clock.ticks.Ms(last - first), 6);
  w.Key("startUtc");
  WriteUtc(w, clock.syncMs + clock.RelMs(first));
  w.Key("endUtc");
  WriteUtc(w, clock.syncMs + clock.RelMs(last));
  w.EndObject();
}

// One row per thread key: the events of the table's threads of that key (v6: a key redefined
// after a flush is one row, described by its latest definition), of the events whose thread
// no definition named, and the events the key captured and lost.
void WriteThreads(JsonWriter& w, const SummarySources& s, bool v6) {
  struct Row {
    const ThreadEntry* definition = nullptr;
    uint64_t eventCount = 0, capturedCount = 0;
  };
  // A sorted vector of every key the sources name, not a map: a trace may have a million
  // threads (a map node is 64 bytes more each).
  std::vector<std::pair<uint64_t, Row>> rows;
  {
    std::vector<uint64_t> keys(s.records.threadKeys().begin(), s.records.threadKeys().end());
    for (const auto& [key, count] : s.resolver.unresolvedByKey()) keys.push_back(key);
    for (const DropTracker::Captured& c : s.records.drops().captured()) keys.push_back(c.thread);
    const ThreadTable& t = s.resolver.threads();
    for (size_t i = 0; i < t.size(); ++i) keys.push_back(t[ThreadIndex(static_cast<uint16_t>(i))].key);
    std::sort(keys.begin(), keys.end());
    keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
    rows.reserve(keys.size());
    for (uint64_t key : keys) rows.emplace_back(key, Row{});
  }
  auto rowOf = [&](uint64_t key) -> Row& {
    return std::lower_bound(rows.begin(), rows.end(), key, [](const auto& r, uint64_t k) { return r.first < k; })->second;
  };
  for (const auto& [key, count] : s.resolver.unresolvedByKey()) rowOf(key).eventCount += count;
  for (const DropTracker::Captured& c : s.records.drops().captured())
    if (c.count) rowOf(c.thread).capturedCount += c.count;
  const ThreadTable& table = s.resolver.threads();
  for (size_t i = 0; i < table.size(); ++i) {
    const ThreadEntry& entry = table[ThreadIndex(static_cast<uint16_t>(i))];
    Row& row = rowOf(entry.key);
    row.definition = &entry;
    if (i < s.eventsPerThread.size()) row.eventCount += s.eventsPerThread[i];
  }
  const std::map<uint64_t, uint64_t>& lost = s.records.drops().perThread();
  w.Key("threads").BeginArray();
  for (const auto& [key, row] : rows) {
    w.BeginObject();
    const ThreadEntry* d = row.definition;
    if (v6) {
      w.Key("index").UInt(key);
      w.Key("threadId");
      if (d && d->osThreadId) w.UInt(*d->osThreadId);
      else w.Null();
      w.Key("processId");
      if (d && d->processId) w.UInt(*d->processId);
      else w.Null();
      w.Key("name");
      if (d && d->name) w.String(*d->name);
      else w.Null();
      if (d && !d->attributes.empty()) {
        w.Key("attributes").BeginArray();
        for (const auto& kv : d->attributes) w.BeginObject().Key("key").String(kv.key).Key("value").String(kv.value).EndObject();
        w.EndArray();
      }
    } else {
      w.Key("threadId").UInt(key);
      w.Key("processId").UInt(s.records.info().processId);
    }
    w.Key("eventCount").UInt(row.eventCount);
    w.Key("capturedEvents").UInt(row.capturedCount);
    auto l = lost.find(key);
    w.Key("droppedEvents").UInt(l == lost.end() ? 0 : l->second);
    w.EndObject();
  }
  w.EndArray();
}

void WriteDropped(JsonWriter& w, const DropTracker& drops, const Clock& clock, bool v6) {
  w.Key("dropped").BeginObject();
  w.Key("events").UInt(drops.total());
  w.Key("gaps").UInt(drops.gaps());
  w.Key("ranges").BeginArray();
  for (const DropRange& r : drops.ranges()) {
    w.BeginObject();
    w.Key(v6 ? "threadIndex" : "threadId").UInt(r.thread);
    w.Key("count").UInt(r.count);
    w.Key("fromMs");
    if (r.fromTimestamp) w.Fixed(clock.RelMs(r.fromTimestamp), 6);
    else w.Null();
    w.Key("toMs").Fixed(clock.RelMs(r.toTimestamp), 6);
    w.EndObject();
  }
  w.EndArray();
  w.Key("rangesTruncated").Bool(drops.gaps() > drops.ranges().size());
  w.EndObject();
}

void WriteRecords(JsonWriter& w, const RecordFacts& records) {
  w.Key("processors").UInt(records.processors());
  w.Key("blocks").BeginObject();
  for (const auto& [name, count] : records.blocks()) w.Key(name).UInt(count);
  w.EndObject();
  w.Key("tables").BeginObject();
  w.Key("metadata").UInt(records.metadataRecords());
  w.Key("stacks").UInt(records.stackRecords());
  w.Key("labelLists").UInt(records.labelListRecords());
  w.Key("sequencePoints").UInt(records.sequencePoints());
  w.EndObject();
}

void WriteStats(JsonWriter& w, const Stats& stats) {
  w.Key("stats").BeginArray();
#define NETTRACE_STAT_JSON(name, severity, source, description)                                       \
  if (stats.name) {                                                                                    \
    w.BeginObject().Key("name").String(#name).Key("value").UInt(stats.name);                          \
    w.Key("severity").String(StatSeverity::severity == StatSeverity::kInfo       ? "info"             \
                             : StatSeverity::severity == StatSeverity::kDataLoss ? "data-loss"        \
                                                                                 : "error");          \
    w.Key("source").String(StatSource::source == StatSource::kTrace ? "trace" : "analysis");          \
    w.Key("description").String(description).EndObject();                                             \
  }
  NETTRACE_STATS(NETTRACE_STAT_JSON)
#undef NETTRACE_STAT_JSON
  w.EndArray();
}

}  // namespace

std::vector<uint64_t> EventsPerThread(const EventCounts& events, const TypeResolver& resolver) {
  std::vector<uint64_t> perThread = events.threads();
  // Each of those events is a row of that thread (the store builder pushes every event the
  // resolver hands on), so this never goes below zero; min() keeps it so if that changed.
  for (const auto& [thread, count] : resolver.unresolvedByRowThread())
    if (thread < perThread.size()) perThread[thread] -= std::min(perThread[thread], count);
  return perThread;
}

SummaryTypeCounts TypeCountsOf(const EventCounts& events, const TypeResolver& resolver) {
  SummaryTypeCounts counts;
  const std::vector<uint64_t>& bookkeeping = resolver.bookkeepingByType();
  for (size_t i = 0; i < events.types().size(); ++i) {
    const EventCounts::PerType& rows = events.types()[i];
    if (rows.rows == 0) continue;
    EventTypeCounts& c = counts.At(EventTypeIndex(static_cast<uint16_t>(i)));
    c.count = rows.rows;
    c.withStacks = rows.withFrames;
    c.traceLogCount = rows.rows - (i < bookkeeping.size() ? bookkeeping[i] : 0);
  }
  return counts;
}

std::string TraceEventCounts(const EventCounts& events, const TypeResolver& resolver) {
  return TypeCountsOf(events, resolver).TraceEventCounts(resolver.types());
}

void WriteSummaryFields(JsonWriter& w, const SummaryReaderState& reader, const SummarySources& s) {
  const Clock clock(s.records.info());
  const bool v6 = reader.formatMajor >= 6;
  WriteReader(w, reader, s.records.info());
  WriteTrace(w, s.records, clock);
  WriteTimeRange(w, s.events, clock);
  w.Key("eventCount").UInt(s.events.rows());
  w.Key("eventsWithStacks").UInt(s.events.withFrames());
  w.Key("payloadBytes").UInt(s.records.payloadBytes());
  TypeCountsOf(s.events, s.resolver).WriteJson(s.resolver.types(), w);
  WriteThreads(w, s, v6);
  WriteDropped(w, s.records.drops(), clock, v6);
  WriteRecords(w, s.records);
  if (s.runtime) s.runtime->WriteJson(w, s.gc);
  WriteStats(w, s.stats);
}

}  // namespace nettrace
