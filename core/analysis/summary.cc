#include "analysis/summary.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "analysis/traceevent_compat.h"
#include "analysis/utc_time.h"
#include "base/json_writer.h"
#include "format/clr_events.generated.h"

namespace nettrace {

Status SummaryBuilder::OnTraceInfo(const TraceInfo& info) {
  info_ = info;
  haveInfo_ = true;
  if (std::isnan(SyncUnixMs(info.syncTimeUtc))) ++stats_->syncTimeInvalid;
  return Status::Ok();
}

Status SummaryBuilder::OnBlock(const BlockInfo& block) {
  std::string name = block.kind == BlockKind::kUnknown ? "Unknown(" + std::to_string(block.rawKind) + ")"
                                                       : BlockKindName(block.kind);
  ++blocks_[name];
  return Status::Ok();
}

Status SummaryBuilder::OnMetadata(const EventMetadata& m) {
  ++metadataCount_;
  return Status::Ok();
}

Status SummaryBuilder::OnStack(uint32_t id, std::span<const uint8_t> ips) {
  ++stackCount_;
  emptyStacks_.Set(id, ips.empty() ? 1 : 0);
  return Status::Ok();
}

ThreadSummary& SummaryBuilder::Thread(uint64_t key) {
  if (lastThread_ && lastThreadKey_ == key) return *lastThread_;
  lastThreadKey_ = key;
  return *(lastThread_ = &threads_[key]);
}

Status SummaryBuilder::OnThread(const ThreadInfo& info) {
  Thread(info.index);  // the definition itself is in the resolver's thread table
  return Status::Ok();
}

Status SummaryBuilder::OnRemoveThread(const ThreadSequence& r) {
  Thread(r.thread);
  // RemoveThread carries no time: the loss, if any, is known as of the latest event.
  drops_.OnLowerBound(r.thread, r.sequenceNumber, eventCount_ ? maxTimestamp_ : 0);
  drops_.Forget(r.thread);
  stats_->droppedEvents = drops_.total();
  stats_->sequenceNumberGaps = drops_.gaps();
  return Status::Ok();
}

Status SummaryBuilder::OnLabelList(uint32_t id, const LabelList& list) {
  ++labelListCount_;
  return Status::Ok();
}

Status SummaryBuilder::OnSequencePoint(const SequencePoint& sp) {
  ++sequencePoints_;
  emptyStacks_.Clear();  // stack ids restart after a sequence point, as in the store
  for (const ThreadSequence& ts : sp.threads) {
    Thread(ts.thread);
    drops_.OnLowerBound(ts.thread, ts.sequenceNumber, sp.timestamp);
  }
  // The thread flush happens after the checks (NetTraceFormat.md §SequencePointBlock).
  if (info_.formatMajor >= 6 && (sp.flags & kSequencePointFlushThreads)) drops_.ForgetAll();
  stats_->droppedEvents = drops_.total();
  stats_->sequenceNumberGaps = drops_.gaps();
  return Status::Ok();
}

std::string SummaryBuilder::TraceEventCounts() const { return types_.TraceEventCounts(resolved_->types()); }

void SummaryBuilder::WriteFields(JsonWriter& w, const ReaderState& reader) const {
  w.Key("format").BeginObject();
  w.Key("container").String(reader.formatMajor >= 6   ? "NetTrace blocks"
                            : reader.formatMajor <= 3 ? "NetPerf FastSerialization"
                                                      : "NetTrace FastSerialization");
  w.Key("major").UInt(reader.formatMajor);
  w.Key("minor").UInt(info_.formatMinor);
  if (reader.formatMajor < 6) w.Key("traceObjectVersion").UInt(info_.traceObjectVersion);
  w.EndObject();
  w.Key("complete").Bool(reader.complete && reader.error.ok());
  w.Key("bytesRead").UInt(reader.bytesRead);
  if (reader.error.ok()) {
    w.Key("error").Null();
  } else {
    w.Key("error").BeginObject();
    w.Key("code").String(ErrorCodeName(reader.error.code()));
    if (reader.error.offset() == kNoOffset) w.Key("offset").Null();
    else w.Key("offset").UInt(reader.error.offset());
    w.Key("message").String(reader.error.message());
    w.EndObject();
  }

  const double freq = info_.tickFrequency > 0 ? static_cast<double>(info_.tickFrequency) : 0.0;
  auto relMs = [&](uint64_t ts) {
    return freq > 0 ? (static_cast<double>(static_cast<int64_t>(ts - static_cast<uint64_t>(info_.syncTimeTicks)))) *
                          1000.0 / freq
                    : 0.0;
  };
  const double syncMs = SyncUnixMs(info_.syncTimeUtc);
  w.Key("trace").BeginObject();
  if (haveInfo_) {
    w.Key("syncTimeUtc");
    WriteUtc(w, syncMs);
    w.Key("syncTimeTicks").Int(info_.syncTimeTicks);
    w.Key("tickFrequency").Int(info_.tickFrequency);
    w.Key("pointerSize").UInt(info_.pointerSize);
    w.Key("processId").UInt(info_.processId);
    w.Key("numberOfProcessors").UInt(info_.numberOfProcessors);
    w.Key("expectedCpuSamplingRate").UInt(info_.expectedCpuSamplingRate);
    w.Key("keyValues").BeginArray();
    for (const auto& kv : info_.keyValues) w.BeginObject().Key("key").String(kv.key).Key("value").String(kv.value).EndObject();
    w.EndArray();
  }
  w.EndObject();

  w.Key("timeRange");
  if (eventCount_ == 0) {
    w.Null();
  } else {
    w.BeginObject();
    w.Key("firstTimestamp").UInt(minTimestamp_);
    w.Key("lastTimestamp").UInt(maxTimestamp_);
    w.Key("startMs").Fixed(relMs(minTimestamp_), 6);
    w.Key("endMs").Fixed(relMs(maxTimestamp_), 6);
    w.Key("durationMs").Fixed(freq > 0 ? static_cast<double>(maxTimestamp_ - minTimestamp_) * 1000.0 / freq : 0.0, 6);
    w.Key("startUtc");
    WriteUtc(w, syncMs + relMs(minTimestamp_));
    w.Key("endUtc");
    WriteUtc(w, syncMs + relMs(maxTimestamp_));
    w.EndObject();
  }

  w.Key("eventCount").UInt(eventCount_);
  w.Key("eventsWithStacks").UInt(eventsWithStack_);
  w.Key("payloadBytes").UInt(payloadBytes_);

  types_.WriteJson(resolved_->types(), w);

  const bool v6 = reader.formatMajor >= 6;
  WriteThreads(w, v6);

  w.Key("dropped").BeginObject();
  w.Key("events").UInt(drops_.total());
  w.Key("gaps").UInt(drops_.gaps());
  w.Key("ranges").BeginArray();
  for (const DropRange& r : drops_.ranges()) {
    w.BeginObject();
    w.Key(v6 ? "threadIndex" : "threadId").UInt(r.thread);
    w.Key("count").UInt(r.count);
    w.Key("fromMs");
    if (r.fromTimestamp) w.Fixed(relMs(r.fromTimestamp), 6);
    else w.Null();
    w.Key("toMs").Fixed(relMs(r.toTimestamp), 6);
    w.EndObject();
  }
  w.EndArray();
  w.Key("rangesTruncated").Bool(drops_.gaps() > drops_.ranges().size());
  w.EndObject();
  w.Key("processors").UInt(std::count(processorSeen_.begin(), processorSeen_.end(), uint8_t{1}) + otherProcessors_.size());
  w.Key("blocks").BeginObject();
  for (const auto& [name, count] : blocks_) w.Key(name).UInt(count);
  w.EndObject();
  w.Key("tables").BeginObject();
  w.Key("metadata").UInt(metadataCount_);
  w.Key("stacks").UInt(stackCount_);
  w.Key("labelLists").UInt(labelListCount_);
  w.Key("sequencePoints").UInt(sequencePoints_);
  w.EndObject();

  if (runtime_) runtime_->WriteJson(w);

  w.Key("stats").BeginArray();
#define NETTRACE_STAT_JSON(name, severity, source, description)                                       \
  if (stats_->name) {                                                                                  \
    w.BeginObject().Key("name").String(#name).Key("value").UInt(stats_->name);                        \
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

// One row per key: the counts kept here plus the table's threads of that key (v6: a key
// redefined after a flush is one row, described by its latest definition).
void SummaryBuilder::WriteThreads(JsonWriter& w, bool v6) const {
  struct Row {
    const ThreadEntry* definition = nullptr;
    uint64_t eventCount = 0, capturedCount = 0;
  };
  std::map<uint64_t, Row> rows;
  for (const auto& [key, t] : threads_) rows[key] = {nullptr, t.eventCount, 0};
  for (const DropTracker::Captured& c : drops_.captured())
    if (c.count) rows[c.thread].capturedCount += c.count;
  const ThreadTable& table = resolved_->threads();
  for (size_t i = 0; i < table.size(); ++i) {
    const ThreadEntry& entry = table[ThreadIndex(static_cast<uint16_t>(i))];
    Row& row = rows[entry.key];
    row.definition = &entry;
    if (i < threadEvents_.size()) row.eventCount += threadEvents_[i];
  }
  w.Key("threads").BeginArray();
  for (const auto& [key, row] : rows) {
    w.BeginObject();
    if (v6) {
      const ThreadEntry* d = row.definition;
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
      w.Key("processId").UInt(info_.processId);
    }
    w.Key("eventCount").UInt(row.eventCount);
    w.Key("capturedEvents").UInt(row.capturedCount);
    auto lost = drops_.perThread().find(key);
    w.Key("droppedEvents").UInt(lost == drops_.perThread().end() ? 0 : lost->second);
    w.EndObject();
  }
  w.EndArray();
}

}  // namespace nettrace
