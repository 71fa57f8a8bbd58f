// core/analysis — the trace summary, built while the file streams by (a RecordSink
// after the reference tracker). Memory is proportional to the number of event types,
// threads and metadata ids, never to the number of events.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "analysis/drop_tracker.h"
#include "analysis/runtime_signals.h"
#include "analysis/summary_types.h"
#include "base/json_writer.h"
#include "base/small_key_map.h"
#include "base/stats.h"
#include "base/status.h"
#include "format/record_sink.h"
#include "model/event_naming.h"
#include "model/region_ids.h"
#include "analysis/traceevent_compat.h"
#include "resolve/type_resolver.h"

namespace nettrace {

// A thread as the summary counts it, by the key events name it with (v4/v5 thread id; v6
// thread index). What a thread is (OS ids, name, attributes) is the resolver's thread table;
// these are the counts the table does not keep.
struct ThreadSummary {
  uint64_t eventCount = 0;     // events whose thread is this key but no defined thread
  // (The events a thread captured are the drop tracker's: it looks up the capture thread
  // of every event anyway.)
};

class SummaryBuilder final : public RecordSink {
 public:
  // runtime: the runtime signals (fed in time order by the sorted tap) written as the JSON's
  // "runtime" key; none: no such key.
  SummaryBuilder(Stats* stats, const TypeResolver* resolved, const RuntimeSignals* runtime = nullptr)
      : stats_(stats), resolved_(resolved), runtime_(runtime) {}

  Status OnTraceInfo(const TraceInfo& info) override;
  Status OnBlock(const BlockInfo& block) override;
  Status OnMetadata(const EventMetadata& m) override;
  Status OnStack(uint32_t id, std::span<const uint8_t> ips) override;
  Status OnThread(const ThreadInfo& t) override;
  Status OnRemoveThread(const ThreadSequence& t) override;
  Status OnLabelList(uint32_t id, const LabelList& list) override;
  Status OnEvent(const EventRecord& e) override;
  Status OnSequencePoint(const SequencePoint& sp) override;

  struct ReaderState {
    uint32_t formatMajor = 0;
    bool complete = false;
    uint64_t bytesRead = 0;
    Status error;
  };
  // The summary's keys, written into the object the caller has begun: the session's one
  // writer adds the Universal keys (analysis/universal_summary.h) after them and closes it.
  void WriteFields(JsonWriter& w, const ReaderState& reader) const;
  // "Provider/Name, count" lines in ordinal order, TraceLog's bookkeeping removed.
  std::string TraceEventCounts() const;

  uint64_t eventCount() const { return eventCount_; }
  uint64_t droppedEventCount() const { return drops_.total(); }

 private:
  ThreadSummary& Thread(uint64_t key);
  void WriteThreads(JsonWriter& w, bool v6) const;

  Stats* stats_;
  const TypeResolver* resolved_;  // each event's type, and the type table (the stage before this one)
  DropTracker drops_;
  TraceInfo info_;
  bool haveInfo_ = false;
  SummaryTypeCounts types_;
  std::map<uint64_t, ThreadSummary> threads_;  // every key seen, the table's threads' included
  std::vector<uint64_t> threadEvents_;          // events per ThreadIndex (the resolver's)
  std::map<std::string, uint64_t> blocks_;
  uint64_t eventCount_ = 0;
  uint64_t metadataCount_ = 0, stackCount_ = 0, labelListCount_ = 0, sequencePoints_ = 0;
  uint64_t eventsWithStack_ = 0;
  uint64_t minTimestamp_ = UINT64_MAX, maxTimestamp_ = 0;
  uint64_t payloadBytes_ = 0;
  // Distinct processor numbers seen: a bitmap for the common range, a set beyond it.
  std::vector<uint8_t> processorSeen_ = std::vector<uint8_t>(4096, 0);
  std::set<uint32_t> otherProcessors_;
  uint32_t lastOtherProcessor_ = 0;  // below processorSeen_.size(), so never a real "other" one
  ThreadSummary* lastThread_ = nullptr;  // (std::map nodes are stable)
  uint64_t lastThreadKey_ = 0;
  // 1 for a file stack id of this sequence-point region whose stack has no frames.
  RegionIdMap emptyStacks_;
  const RuntimeSignals* runtime_;
};

// Inline (defined here, called directly by the session's fan-out): every event passes
// through it, and the call's prologue was an eighth of its cost.
inline Status SummaryBuilder::OnEvent(const EventRecord& e) {
  ++eventCount_;
  payloadBytes_ += e.payload.size();
  if (e.stackId != 0) ++eventsWithStack_;
  minTimestamp_ = std::min(minTimestamp_, e.timestamp);
  maxTimestamp_ = std::max(maxTimestamp_, e.timestamp);
  if (e.processorNumber < processorSeen_.size()) {
    processorSeen_[e.processorNumber] = 1;
  } else if (e.processorNumber != lastOtherProcessor_) {
    // Traces without processor numbers give every event the same large one: one tree
    // look-up per change, not per event.
    otherProcessors_.insert(e.processorNumber);
    lastOtherProcessor_ = e.processorNumber;
  }
  const ResolvedEvent& resolved = resolved_->current();
  EventTypeCounts& type = types_.At(resolved.type);
  ++type.count;
  if (e.stackId != 0 && !emptyStacks_.Get(e.stackId)) ++type.withStacks;
  if (!IsTraceLogBookkeeping(resolved.kind, resolved.definition->clrTemplate, e.payload)) ++type.traceLogCount;
  if (resolved.threadKnown) {
    if (resolved.thread.value >= threadEvents_.size()) threadEvents_.resize(resolved.thread.value + size_t{1});
    ++threadEvents_[resolved.thread.value];
  } else {
    ++Thread(e.thread).eventCount;
  }
  if (drops_.OnEvent(e.captureThread, e.sequenceNumber, e.timestamp)) {
    stats_->droppedEvents = drops_.total();
    stats_->sequenceNumberGaps = drops_.gaps();
  }
  return Status::Ok();
}

}  // namespace nettrace
