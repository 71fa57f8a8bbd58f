// core/analysis — the facts of the records as the file wrote them, counted in file order by
// a sink of the session's fan-out: the trace header, blocks by kind, table records, payload
// bytes, processor numbers, and per capture thread the events it captured and the ones its
// sequence numbers say were dropped (analysis/summary/drop_tracker.h). These belong to file order:
// a capture thread numbers its events in the order it wrote them, and a sequence point bounds
// what came before it in the file. What the events are — their counts per type and thread,
// their stacks, their time range — is counted from the sorted stream instead
// (model/event_counts.h), as the store keeps them. Memory is proportional to the number of
// block kinds, threads and processors, never to the number of events.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "analysis/summary/drop_tracker.h"
#include "base/stats.h"
#include "format/record_sink.h"

namespace nettrace {

class RecordFacts final : public RecordSink {
 public:
  explicit RecordFacts(Stats* stats) : stats_(stats) {}

  Status OnTraceInfo(const TraceInfo& info) override;
  Status OnBlock(const BlockInfo& block) override;
  Status OnMetadata(const EventMetadata&) override { return ++metadata_, Status::Ok(); }
  Status OnStack(uint32_t, std::span<const uint8_t>) override { return ++stacks_, Status::Ok(); }
  Status OnThread(const ThreadInfo& t) override { return threadKeys_.insert(t.index), Status::Ok(); }
  Status OnRemoveThread(const ThreadSequence& t) override;
  Status OnLabelList(uint32_t, const LabelList&) override { return ++labelLists_, Status::Ok(); }
  Status OnEvent(const EventRecord& e) override;
  Status OnSequencePoint(const SequencePoint& sp) override;

  // The trace header (none read yet: haveInfo() false).
  bool haveInfo() const { return haveInfo_; }
  const TraceInfo& info() const { return info_; }
  // Blocks by kind name ("Unknown(n)" for a kind the format does not define).
  const std::map<std::string, uint64_t>& blocks() const { return blocks_; }
  uint64_t metadataRecords() const { return metadata_; }
  uint64_t stackRecords() const { return stacks_; }
  uint64_t labelListRecords() const { return labelLists_; }
  uint64_t sequencePoints() const { return sequencePoints_; }
  uint64_t payloadBytes() const { return payloadBytes_; }
  // Distinct processor numbers the events carried.
  uint64_t processors() const;
  const DropTracker& drops() const { return drops_; }
  // Thread keys named by thread definitions, RemoveThread and sequence points: each has a
  // row in the summary, events or not.
  const std::set<uint64_t>& threadKeys() const { return threadKeys_; }

 private:
  void NoteDrops() {
    stats_->droppedEvents = drops_.total();
    stats_->sequenceNumberGaps = drops_.gaps();
  }

  Stats* stats_;
  TraceInfo info_;
  bool haveInfo_ = false;
  std::map<std::string, uint64_t> blocks_;
  uint64_t metadata_ = 0, stacks_ = 0, labelLists_ = 0, sequencePoints_ = 0;
  uint64_t payloadBytes_ = 0;
  uint64_t maxTimestamp_ = 0;  // of the events so far: when a RemoveThread's loss is known
  DropTracker drops_;
  std::set<uint64_t> threadKeys_;
  // Distinct processor numbers seen: a bitmap for the common range, a set beyond it.
  std::vector<uint8_t> processorSeen_ = std::vector<uint8_t>(4096, 0);
  std::set<uint32_t> otherProcessors_;
  uint32_t lastOtherProcessor_ = 0;  // below processorSeen_.size(), so never a real "other" one
};

// Inline (defined here, called directly by the session's fan-out): every event passes
// through it.
inline Status RecordFacts::OnEvent(const EventRecord& e) {
  payloadBytes_ += e.payload.size();
  maxTimestamp_ = std::max(maxTimestamp_, e.timestamp);
  if (e.processorNumber < processorSeen_.size()) {
    processorSeen_[e.processorNumber] = 1;
  } else if (e.processorNumber != lastOtherProcessor_) {
    // Traces without processor numbers give every event the same large one: one tree
    // look-up per change, not per event.
    otherProcessors_.insert(e.processorNumber);
    lastOtherProcessor_ = e.processorNumber;
  }
  if (drops_.OnEvent(e.captureThread, e.sequenceNumber, e.timestamp)) NoteDrops();
  return Status::Ok();
}

}  // namespace nettrace
