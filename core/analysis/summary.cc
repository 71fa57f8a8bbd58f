#include "analysis/summary.h"

#include <algorithm>
#include <cstdio>

#include "analysis/traceevent_compat.h"
#include "analysis/utc_time.h"
#include "base/json_writer.h"

namespace nettrace {

Status SummaryBuilder::OnTraceInfo(const TraceInfo& info) {
  info_ = info;
  haveInfo_ = true;
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
  std::string name = EventDisplayName(m);
  auto key = std::make_pair(m.providerName, name);
  auto it = typeIndex_.find(key);
  uint32_t index;
  if (it == typeIndex_.end()) {
    index = static_cast<uint32_t>(types_.size());
    typeIndex_.emplace(key, index);
    EventTypeSummary& t = types_.emplace_back();
    t.provider = m.providerName;
    t.name = std::move(name);
    t.eventId = m.eventId;
    t.version = m.version;
    t.knownProvider = ClassifyProvider(m.providerName);
  } else {
    index = it->second;
  }
  metadataToType_[m.id] = index;
  return Status::Ok();
}

Status SummaryBuilder::OnStack(uint32_t, std::span<const uint8_t>) {
  ++stackCount_;
  return Status::Ok();
}

ThreadSummary& SummaryBuilder::Thread(uint64_t key) {
  ThreadSummary& t = threads_[key];
  t.key = key;
  return t;
}

Status SummaryBuilder::OnThread(const ThreadInfo& info) {
  ThreadSummary& t = Thread(info.index);
  t.osThreadId = info.osThreadId;
  t.processId = info.osProcessId;
  t.name = info.name;
  t.attributes = info.attributes;
  t.removed = false;
  return Status::Ok();
}

// Dropped events (NetTraceFormat.md §Event Sequence Numbers): a capture thread's numbers
// go up by one per event; a jump means the writer dropped the events in between, and a
// sequence point or RemoveThread naming a higher number than the last one seen means the
// thread's latest events never arrived.
void SummaryBuilder::NoteSequence(ThreadSummary& t, uint32_t seq, bool fromEvent) {
  if (t.haveSequence) {
    uint32_t expected = t.lastSequence + (fromEvent ? 1 : 0);
    int32_t gap = static_cast<int32_t>(seq - expected);  // wrap-aware
    if (gap > 0) {
      t.droppedEvents += static_cast<uint32_t>(gap);
      stats_->droppedEvents += static_cast<uint32_t>(gap);
      ++stats_->sequenceNumberGaps;
    }
    if (!fromEvent && gap <= 0) return;  // a lower bound below what we saw says nothing new
  } else if (!fromEvent || seq > 1) {
    // First sight of this thread: numbers start at 1, so anything before seq is lost.
    uint32_t lost = fromEvent ? seq - 1 : seq;
    if (lost > 0 && lost < 0x80000000u) {
      t.droppedEvents += lost;
      stats_->droppedEvents += lost;
      ++stats_->sequenceNumberGaps;
    }
  }
  t.haveSequence = true;
  t.lastSequence = seq;
}

Status SummaryBuilder::OnRemoveThread(const ThreadSequence& r) {
  ThreadSummary& t = Thread(r.thread);
  NoteSequence(t, r.sequenceNumber, false);
  t.removed = true;
  return Status::Ok();
}

Status SummaryBuilder::OnLabelList(uint32_t, const LabelList&) {
  ++labelListCount_;
  return Status::Ok();
}

Status SummaryBuilder::OnEvent(const EventRecord& e) {
  ++eventCount_;
  payloadBytes_ += e.payload.size();
  if (e.stackId != 0) ++eventsWithStack_;
  minTimestamp_ = std::min(minTimestamp_, e.timestamp);
  maxTimestamp_ = std::max(maxTimestamp_, e.timestamp);
  ++processors_[e.processorNumber];
  EventTypeSummary& type = types_[metadataToType_.at(e.metadataId)];  // the tracker checked the id
  ++type.count;
  if (!IsTraceLogBookkeeping(type.knownProvider, type.eventId, e.payload)) ++type.traceLogCount;
  ++Thread(e.thread).eventCount;
  ThreadSummary& capture = Thread(e.captureThread);
  ++capture.capturedCount;
  NoteSequence(capture, e.sequenceNumber, true);
  return Status::Ok();
}

Status SummaryBuilder::OnSequencePoint(const SequencePoint& sp) {
  ++sequencePoints_;
  for (const ThreadSequence& ts : sp.threads) NoteSequence(Thread(ts.thread), ts.sequenceNumber, false);
  return Status::Ok();
}

std::string SummaryBuilder::TraceEventCounts() const {
  std::map<std::string, uint64_t> counts;  // std::string compares bytewise: ordinal order
  for (const auto& t : types_)
    if (t.traceLogCount) counts[t.provider + "/" + t.name] += t.traceLogCount;
  std::string out;
  for (const auto& [key, count] : counts) out += key + ", " + std::to_string(count) + "\n";
  return out;
}

std::string SummaryBuilder::ToJson(const ReaderState& reader) const {
  JsonWriter w;
  w.BeginObject();
  w.Key("format").BeginObject();
  w.Key("container").String(reader.formatMajor >= 6 ? "NetTrace blocks" : "NetTrace FastSerialization");
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
    w.Key("syncTimeUtc").String(IsoUtc(syncMs));
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
    w.Key("startUtc").String(IsoUtc(syncMs + relMs(minTimestamp_)));
    w.Key("endUtc").String(IsoUtc(syncMs + relMs(maxTimestamp_)));
    w.EndObject();
  }

  w.Key("eventCount").UInt(eventCount_);
  w.Key("eventsWithStacks").UInt(eventsWithStack_);
  w.Key("payloadBytes").UInt(payloadBytes_);

  // Types: most frequent first, ties by provider then name (stable across platforms).
  std::vector<const EventTypeSummary*> types;
  for (const auto& t : types_)
    if (t.count) types.push_back(&t);
  std::sort(types.begin(), types.end(), [](const EventTypeSummary* a, const EventTypeSummary* b) {
    if (a->count != b->count) return a->count > b->count;
    if (a->provider != b->provider) return a->provider < b->provider;
    return a->name < b->name;
  });
  w.Key("types").BeginArray();
  for (const auto* t : types) {
    w.BeginObject();
    w.Key("provider").String(t->provider);
    w.Key("name").String(t->name);
    w.Key("eventId").UInt(t->eventId);
    w.Key("version").UInt(t->version);
    w.Key("count").UInt(t->count);
    w.EndObject();
  }
  w.EndArray();

  std::map<std::string, uint64_t> providers;
  for (const auto& t : types_)
    if (t.count) providers[t.provider] += t.count;
  w.Key("providers").BeginArray();
  for (const auto& [name, count] : providers) w.BeginObject().Key("name").String(name).Key("count").UInt(count).EndObject();
  w.EndArray();

  const bool v6 = reader.formatMajor >= 6;
  uint64_t dropped = 0;
  w.Key("threads").BeginArray();
  for (const auto& [key, t] : threads_) {
    dropped += t.droppedEvents;
    w.BeginObject();
    if (v6) {
      w.Key("index").UInt(t.key);
      w.Key("threadId");
      if (t.osThreadId) w.UInt(*t.osThreadId);
      else w.Null();
      w.Key("processId");
      if (t.processId) w.UInt(*t.processId);
      else w.Null();
      w.Key("name");
      if (t.name) w.String(*t.name);
      else w.Null();
      if (!t.attributes.empty()) {
        w.Key("attributes").BeginArray();
        for (const auto& kv : t.attributes) w.BeginObject().Key("key").String(kv.key).Key("value").String(kv.value).EndObject();
        w.EndArray();
      }
    } else {
      w.Key("threadId").UInt(t.key);
      w.Key("processId").UInt(info_.processId);
    }
    w.Key("eventCount").UInt(t.eventCount);
    w.Key("capturedEvents").UInt(t.capturedCount);
    w.Key("droppedEvents").UInt(t.droppedEvents);
    w.EndObject();
  }
  w.EndArray();

  w.Key("droppedEvents").UInt(dropped);
  w.Key("processors").UInt(processors_.size());
  w.Key("blocks").BeginObject();
  for (const auto& [name, count] : blocks_) w.Key(name).UInt(count);
  w.EndObject();
  w.Key("tables").BeginObject();
  w.Key("metadata").UInt(metadataCount_);
  w.Key("stacks").UInt(stackCount_);
  w.Key("labelLists").UInt(labelListCount_);
  w.Key("sequencePoints").UInt(sequencePoints_);
  w.EndObject();

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
  w.EndObject();
  return w.Take();
}

}  // namespace nettrace
