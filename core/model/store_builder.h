// core/model — builds the time-ordered event store while the file streams: records from
// the resolver stage (after the reference tracker) are interned into the tables, their
// file-order ordinals noted, and the events pushed through the sorter into the columnar
// store. Each event's type and thread are the resolver's (its one event type table and
// thread table); this stage keeps no metadata or threads of its own. Past the sorter, the
// sorted tap (model/sorted_tap.h) hands the CLR analyses their events in time order, and
// the event counts (model/event_counts.h) count what the store keeps.
#pragma once

#include <unordered_map>

#include "base/stats.h"
#include "format/record_sink.h"
#include "model/event_counts.h"
#include "model/event_store.h"
#include "model/region_ids.h"
#include "model/trace_tables.h"
#include "model/sorted_tap.h"
#include "resolve/type_resolver.h"
#include "sort/event_sorter.h"

namespace nettrace {

class StoreBuilder final : public RecordSink, private SortedSink {
 public:
  // resolver: the stage before this one (its address is enough: it may be built later).
  // tap: where the time-ordered analyses get their events (none: the store alone).
  StoreBuilder(Stats* stats, const TypeResolver* resolver, SortedTap* tap = nullptr)
      : stats_(stats), resolver_(resolver), tap_(tap) {}

  Status OnTraceInfo(const TraceInfo& info) override;
  Status OnBlock(const BlockInfo& block) override;
  Status OnMetadata(const EventMetadata& m) override;
  Status OnStack(uint32_t id, std::span<const uint8_t> ips) override;
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
  const EventTypeTable& types() const { return resolver_->types(); }
  const ThreadTable& threads() const { return resolver_->threads(); }
  const StackTable& stacks() const { return stacks_; }
  const LabelTable& labels() const { return labels_; }
  const EventSorter& sorter() const { return sorter_; }
  // The events read so far, counted as the store keeps them: those released plus those the
  // sorter still holds (after Flush, the store's rows alone).
  EventCounts counts() const;

 private:
  void OnSorted(const SortItem& item, bool late) override {
    store_.Append(item, late);
    if (late) counts_.Count(item, emptyStack_);
    else counts_.CountInOrder(item, emptyStack_);
    if (tap_) tap_->OnSorted(item, late, *resolver_);
  }
  // Qualified, the call is not virtual (the class is final): the run costs one virtual call.
  void OnSortedRun(std::span<const SortItem> items) override {
    for (const SortItem& item : items) StoreBuilder::OnSorted(item, false);
  }
  void EndRegion();
  void ToTap(const EventRecord& e);

  Stats* stats_;
  const TypeResolver* resolver_;
  SortedTap* tap_;
  TraceInfo info_;
  bool v6_ = false;
  StackTable stacks_;
  LabelTable labels_;
  EventStore store_;
  EventCounts counts_;      // of the items released into store_
  uint32_t emptyStack_ = 0;  // the stack table's index of the stack without frames (0: none yet)
  EventSorter sorter_{this};
  RegionIdMap regionStacks_;  // file stack id → StackIndex
  RegionIdMap regionLabels_;  // file label list id → LabelListIndex
};

// Inline (defined here, called directly by the session's fan-out), as the record facts'.
inline Status StoreBuilder::OnEvent(const EventRecord& e) {
  SortItem item;
  item.timestamp = e.timestamp;
  item.ordinal = resolver_->current().ordinal;
  item.type = resolver_->current().type.value;
  item.thread = resolver_->current().thread.value;
  if (e.stackId != 0) item.stack = regionStacks_.Get(e.stackId);  // dangling ids: 0 (the tracker counts them)
  if (v6_) {
    if (e.labelListId != 0) item.labels = regionLabels_.Get(e.labelListId);
  } else {
    item.labels = labels_.InternActivity(e.activityId, e.relatedActivityId).value;
  }
  // Held before the push: the push may release the event at once. Out of line: most events
  // are of no kind the tap wants, and this function stays small enough to inline.
  if (tap_ && tap_->Wants(resolver_->current().kind)) ToTap(e);
  sorter_.Push(e.captureThread, item, e.isSorted);
  return Status::Ok();
}

}  // namespace nettrace
