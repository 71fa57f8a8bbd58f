// core/model — builds the time-ordered event store while the file streams: records from
// the reader (after the reference tracker) are interned into the tables, their file-order
// ordinals noted, and the events pushed through the sorter into the columnar store.
#pragma once

#include <unordered_map>
#include <unordered_set>

#include "base/stats.h"
#include "format/record_sink.h"
#include "model/event_store.h"
#include "model/trace_tables.h"
#include "sort/event_sorter.h"

namespace nettrace {

class StoreBuilder final : public RecordSink, private SortedSink {
 public:
  explicit StoreBuilder(Stats* stats) : stats_(stats) {}

  Status OnTraceInfo(const TraceInfo& info) override;
  Status OnBlock(const BlockInfo& block) override;
  Status OnMetadata(const EventMetadata& m) override;
  Status OnStack(uint32_t id, std::span<const uint8_t> ips) override;
  Status OnThread(const ThreadInfo& t) override;
  Status OnRemoveThread(const ThreadSequence& t) override;
  Status OnLabelList(uint32_t id, const LabelList& list) override;
  Status OnEvent(const EventRecord& e) override;
  Status OnSequencePoint(const SequencePoint& sp) override;
  Status OnEndOfStream() override;

  // Releases everything still pending in the sorter: at the end of input, and after a
  // fatal error so that every event read before the fault is in the store.
  void Flush();
  // Merges the late events released so far into the store (a live session's snapshot);
  // the sorter keeps what it holds.
  void SealReleased() { store_.Seal(); }

  const TraceInfo& info() const { return info_; }
  const EventStore& store() const { return store_; }
  const EventTypeTable& types() const { return types_; }
  const ThreadTable& threads() const { return threads_; }
  const StackTable& stacks() const { return stacks_; }
  const LabelTable& labels() const { return labels_; }
  const EventSorter& sorter() const { return sorter_; }

 private:
  void OnSorted(const SortItem& item, bool late) override { store_.Append(item, late); }
  void EndRegion();
  // The type of an event whose label list overrides its metadata's opcode/level/...
  uint16_t OverriddenType(const EventRecord& e, uint16_t type);
  uint16_t GcDynamicType(const EventRecord& e, uint16_t type);

  Stats* stats_;
  TraceInfo info_;
  bool v6_ = false;
  EventTypeTable types_;
  ThreadTable threads_;
  StackTable stacks_;
  LabelTable labels_;
  EventStore store_;
  EventSorter sorter_{this};
  std::unordered_map<uint32_t, uint16_t> typeOfMetadata_;
  std::unordered_map<uint32_t, EventMetadata> metadata_;  // current definitions, for overrides
  // Types of (metadata id, file label list id) pairs whose list overrides metadata.
  std::unordered_map<uint64_t, uint16_t> overriddenTypes_;
  std::unordered_set<uint32_t> gcDynamicMetadata_;  // metadata ids of GC dynamic events
  std::unordered_map<uint32_t, LabelOverrides> regionOverrides_;  // file label list id
  std::unordered_map<uint32_t, uint32_t> regionStacks_;  // file stack id → StackIndex
  std::unordered_map<uint32_t, uint32_t> regionLabels_;  // file label list id → LabelListIndex
  uint32_t nextOrdinal_ = 0;
};

}  // namespace nettrace
