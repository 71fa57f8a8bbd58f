// A RecordSink that keeps a copy of everything the reader reports, in file order, so
// tests can compare a read-back trace with what was written. Event payload spans are
// only valid during the callback: their bytes are copied out.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "format/record_sink.h"
#include "format/records.h"

namespace nettrace::testing {

// EventRecord with an owned payload (EventRecord's span borrows the reader's block).
struct RecordedEvent {
  uint32_t metadataId = 0;
  uint32_t sequenceNumber = 0;
  uint64_t thread = 0;
  uint64_t captureThread = 0;
  uint32_t processorNumber = 0;
  uint32_t stackId = 0;
  uint64_t timestamp = 0;
  uint32_t labelListId = 0;  // v6 only
  Guid activityId;           // v4/v5 only
  Guid relatedActivityId;    // v4/v5 only
  bool isSorted = false;
  std::vector<uint8_t> payload;
  uint64_t payloadOffset = 0;  // as reported by the reader; not known to a writer

  static RecordedEvent From(const EventRecord& e) {
    RecordedEvent r;
    r.metadataId = e.metadataId, r.sequenceNumber = e.sequenceNumber, r.thread = e.thread;
    r.captureThread = e.captureThread, r.processorNumber = e.processorNumber, r.stackId = e.stackId;
    r.timestamp = e.timestamp, r.labelListId = e.labelListId, r.isSorted = e.isSorted;
    r.activityId = e.activityId, r.relatedActivityId = e.relatedActivityId;
    r.payload.assign(e.payload.begin(), e.payload.end());
    r.payloadOffset = e.payloadOffset;
    return r;
  }
  // A view for the writer; borrows this object's payload.
  EventRecord ToRecord() const {
    EventRecord e;
    e.metadataId = metadataId, e.sequenceNumber = sequenceNumber, e.thread = thread;
    e.captureThread = captureThread, e.processorNumber = processorNumber, e.stackId = stackId;
    e.timestamp = timestamp, e.labelListId = labelListId, e.isSorted = isSorted;
    e.activityId = activityId, e.relatedActivityId = relatedActivityId;
    e.payload = payload;
    return e;
  }
  // Everything but payloadOffset; isSorted only when asked (see round_trip_test.cc on
  // the uncompressed IsSorted polarity in v6).
  bool SameAs(const RecordedEvent& o, bool compareSorted) const {
    return metadataId == o.metadataId && sequenceNumber == o.sequenceNumber && thread == o.thread &&
           captureThread == o.captureThread && processorNumber == o.processorNumber && stackId == o.stackId &&
           timestamp == o.timestamp && labelListId == o.labelListId && activityId == o.activityId &&
           relatedActivityId == o.relatedActivityId && payload == o.payload &&
           (!compareSorted || isSorted == o.isSorted);
  }
  std::string ToString() const {
    return "event{meta " + std::to_string(metadataId) + ", seq " + std::to_string(sequenceNumber) + ", thread " +
           std::to_string(thread) + ", capture " + std::to_string(captureThread) + ", proc " +
           std::to_string(processorNumber) + ", stack " + std::to_string(stackId) + ", ts " +
           std::to_string(timestamp) + ", labels " + std::to_string(labelListId) + ", activity " +
           activityId.ToString() + ", related " + relatedActivityId.ToString() + ", sorted " +
           std::to_string(isSorted) + ", payload " + std::to_string(payload.size()) + " bytes}";
  }
};

// Which callback happened, in order: checks interleaving across record kinds.
enum class Callback : uint8_t {
  kTraceInfo, kMetadata, kStack, kThread, kRemoveThread, kLabelList, kEvent, kSequencePoint, kEndOfStream
};

struct Recording {
  std::vector<TraceInfo> traceInfos;
  std::vector<BlockInfo> blocks;
  std::vector<EventMetadata> metadata;
  std::vector<std::pair<uint32_t, std::vector<uint8_t>>> stacks;
  std::vector<ThreadInfo> threads;
  std::vector<ThreadSequence> removedThreads;
  std::vector<std::pair<uint32_t, LabelList>> labelLists;
  std::vector<RecordedEvent> events;
  std::vector<SequencePoint> sequencePoints;
  int endOfStreams = 0;
  std::vector<Callback> order;
};

class RecordingSink final : public RecordSink {
 public:
  Recording& recording() { return r_; }

  Status OnTraceInfo(const TraceInfo& info) override { return Add(Callback::kTraceInfo, r_.traceInfos, info); }
  Status OnBlock(const BlockInfo& block) override {
    r_.blocks.push_back(block);
    return Status::Ok();
  }
  Status OnMetadata(const EventMetadata& m) override { return Add(Callback::kMetadata, r_.metadata, m); }
  Status OnStack(uint32_t id, std::span<const uint8_t> ips) override {
    return Add(Callback::kStack, r_.stacks, std::make_pair(id, std::vector<uint8_t>(ips.begin(), ips.end())));
  }
  Status OnThread(const ThreadInfo& t) override { return Add(Callback::kThread, r_.threads, t); }
  Status OnRemoveThread(const ThreadSequence& t) override { return Add(Callback::kRemoveThread, r_.removedThreads, t); }
  Status OnLabelList(uint32_t id, const LabelList& list) override {
    return Add(Callback::kLabelList, r_.labelLists, std::make_pair(id, list));
  }
  Status OnEvent(const EventRecord& e) override { return Add(Callback::kEvent, r_.events, RecordedEvent::From(e)); }
  Status OnSequencePoint(const SequencePoint& sp) override {
    return Add(Callback::kSequencePoint, r_.sequencePoints, sp);
  }
  Status OnEndOfStream() override {
    ++r_.endOfStreams;
    r_.order.push_back(Callback::kEndOfStream);
    return Status::Ok();
  }

 private:
  template <typename T, typename V>
  Status Add(Callback c, std::vector<T>& to, V&& value) {
    to.push_back(std::forward<V>(value));
    r_.order.push_back(c);
    return Status::Ok();
  }

  Recording r_;
};

}  // namespace nettrace::testing
