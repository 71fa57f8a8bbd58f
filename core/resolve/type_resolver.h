// core/resolve — the resolver stage: sits after the reader (and its ReferenceTracker) and
// before every sink, and resolves once what later stages would otherwise each work out for
// themselves: what kind of event a metadata id describes (event_kind.h), and for every event
// its effective type — the metadata as the event sees it after a v6 label list's overrides
// (NetTraceFormat.md §LabelListBlock: OpCode, Level, Version, Keywords), or a GC dynamic
// event's own name — interned once in the one event type table the summary, the store and
// the views all index; and the thread each event ran on, in the one thread table (v4/v5: an
// OS thread id of the trace's process; v6: the thread block's current definition of an index). It sees each record first and then hands it on: a sink's OnMetadata
// already finds the new definition here, and a sink's OnEvent finds the event's resolved
// ids in current().
#pragma once

#include <map>
#include <memory>
#include <unordered_map>
#include <vector>

#include "base/stats.h"
#include "base/strong_index.h"
#include "events/event_kind.h"
#include "format/payload/allocation_tick.h"
#include "format/payload/clr_field_read.h"
#include "format/record_sink.h"
#include "resolve/event_type_table.h"
#include "resolve/thread_table.h"
#include "resolve/traceevent_bookkeeping.h"

namespace nettrace {

// What the resolver knows of one metadata id. version: the metadata's (payload layouts
// grow by version); a v6 label list's version override does not change a layout's kind.
// type: the metadata's own event type, before any label list overrides it.
struct ResolvedType {
  EventKind kind = EventKind::kNone;
  uint32_t version = 0;
  EventTypeIndex type;
  bool gcDynamic = false;  // named by each payload (GcDynamicEventName)
  TraceLogBookkeeping bookkeeping = TraceLogBookkeeping::kNever;  // of its kind
  // Its events' payloads tell the resolver their type (gcDynamic) or an allocation tick's
  // amount: each event of the type goes through TypeResolver::ReadPayloadFacts.
  bool payloadFacts = false;
  // Where its CLR template's fields lie (BuildClrFieldLayout), built once per definition
  // here; null without a template. Kept as long as the resolver (held events point to it).
  const ClrFieldLayout* clrLayout = nullptr;
  // The same by the manifest's template even when the metadata describes the fields: how
  // TraceEvent's typed parsers (and our method symbols) read MethodLoad and its kin.
  const ClrFieldLayout* clrTemplate = nullptr;
  // Its definition (MetadataOf), owned by the resolver.
  const EventMetadata* metadata = nullptr;
};

// The resolved ids of the event being handed on; valid during the sinks' OnEvent.
struct ResolvedEvent {
  EventTypeIndex type;  // effective: overrides and GC dynamic names applied
  EventKind kind = EventKind::kNone;
  ThreadIndex thread;        // the event's thread in threads()
  bool threadKnown = false;  // false: a v6 index with no current definition (or a full table)
  // The event's number in FILE order (0, 1, 2, … as read): the store keeps it per row
  // (EventStore::ordinal), and the sinks that note facts per event key them by it, so it is
  // counted here once rather than by each sink in step.
  uint32_t ordinal = 0;
  // What the resolver knows of the event's metadata id (Of(metadataId)), so that the sinks
  // do not look it up again; valid during the sinks' OnEvent only (the table may grow).
  const ResolvedType* definition = nullptr;
  // A GC/AllocationTick's amount and kind, read here once for the three readers that weigh
  // ticks (the GC statistics, the runtime signals, the bytes weight of stacks: each read it
  // before, ~100-170 instructions a tick each). Set for those events only: on others it still
  // holds the last tick's value (every reader asks by kind).
  AllocationTickValue allocationTick;
};

class TypeResolver final : public RecordSink {
 public:
  // stats: where a trace with more than 65,535 distinct event types is counted.
  TypeResolver(RecordSink* next, Stats* stats) : next_(next), stats_(stats) {}

  const ResolvedType& Of(uint32_t metadataId) const {
    if (metadataId < byId_.size()) return byId_[metadataId];
    return sparse_.empty() ? kNoType : SparseOf(metadataId);
  }
  EventKind KindOf(uint32_t metadataId) const { return Of(metadataId).kind; }
  const ResolvedEvent& current() const { return current_; }
  // The ordinal the next event will get (= events handed on so far).
  uint32_t nextOrdinal() const { return nextOrdinal_; }
  // The current definition of a metadata id (the one copy the sinks decode payloads with);
  // an empty one for an id never defined. Its address stays valid for the resolver's life.
  const EventMetadata& MetadataOf(uint32_t metadataId) const;
  const EventTypeTable& types() const { return types_; }
  // The activity and related activity ids of event e (the one being handed on): v4/v5 carry
  // them in the event header, v6 in the event's label list of the current region. Asked only
  // by the sinks that pair activities, so not resolved for every event.
  void ActivityIdsOf(const EventRecord& e, Guid* activity, Guid* related) const;
  const ThreadTable& threads() const { return threads_; }
  // Per effective type (EventTypeIndex), the events TraceEvent's TraceLog drops as bookkeeping
  // (resolve/traceevent_bookkeeping.h): told apart here, where each event's kind, layout and
  // payload are at hand (the store keeps no payloads). Types past the end have none.
  const std::vector<uint64_t>& bookkeepingByType() const { return bookkeeping_; }
  // Events whose thread no definition named (a v6 index not defined then, or a full table):
  // per the key they named, and per the table index their rows were given instead.
  const std::map<uint64_t, uint64_t>& unresolvedByKey() const { return unresolvedByKey_; }
  const std::map<uint16_t, uint64_t>& unresolvedByRowThread() const { return unresolvedByRowThread_; }

  Status OnTraceInfo(const TraceInfo& v) override;
  Status OnBlock(const BlockInfo& v) override { return next_->OnBlock(v); }
  Status OnMetadata(const EventMetadata& m) override;
  Status OnStack(uint32_t id, std::span<const uint8_t> ips) override { return next_->OnStack(id, ips); }
  Status OnThread(const ThreadInfo& v) override;
  Status OnRemoveThread(const ThreadSequence& v) override;
  Status OnLabelList(uint32_t id, const LabelList& v) override;
  Status OnEvent(const EventRecord& e) override;
  Status OnSequencePoint(const SequencePoint& v) override;
  Status OnEndOfStream() override { return next_->OnEndOfStream(); }

 private:
  const ResolvedType& SparseOf(uint32_t metadataId) const;
  void Define(uint32_t metadataId, const ResolvedType& t);
  EventTypeIndex Intern(std::optional<EventTypeIndex> t);
  EventTypeIndex OverriddenType(const EventRecord& e, EventTypeIndex type);
  EventTypeIndex GcDynamicType(const EventRecord& e, EventTypeIndex type);
  void ResolveThread(const EventRecord& e);
  void Unresolved(uint64_t key);  // the event's thread is in no definition (or the table is full)
  void CountBookkeeping(const EventRecord& e, const ResolvedType& t);

  static constexpr ResolvedType kNoType{};
  // Hostile ids are not worth a huge table: beyond 1 Mi they go to a map (one entry per
  // metadata record, never per event).
  static constexpr uint32_t kMaxDenseId = 1u << 20;
  // The type given to events beyond the table's 65,535 types (counted in tooManyEventTypes).
  static constexpr EventTypeIndex kOverflowType{0xFFFF - 1};

  RecordSink* next_;
  Stats* stats_;
  EventTypeTable types_;
  ThreadTable threads_;
  bool v6_ = false;
  uint32_t processId_ = 0;  // v4/v5: the one process
  // v4/v5 (an OS thread id, hashed): events come in runs from one thread, or alternate
  // between two (a sampled thread and the one suspending it): the last two resolutions,
  // until the table changes.
  struct ThreadMemo {
    uint64_t key = 0;
    ThreadIndex thread;
  };
  ThreadMemo threadMemo_[2];
  uint8_t threadMemos_ = 0;  // valid entries of threadMemo_; [0] is the latest
  void ForgetThreadMemo() { threadMemos_ = 0; }
  std::vector<ResolvedType> byId_;  // by metadata id; kNoType where undefined
  std::unordered_map<uint32_t, ResolvedType> sparse_;
  // Current definitions, for overrides and payloads. A redefined id's earlier definition is
  // kept (retired_): events held in the sorted tap (model/sorted_tap.h) point to the one they
  // were read with. One entry per metadata record, never per event.
  std::unordered_map<uint32_t, std::unique_ptr<EventMetadata>> metadata_;
  std::vector<std::unique_ptr<ClrFieldLayout>> clrLayouts_;  // one per definition with a template
  uint32_t pointerSize_ = 8;
  int formatMajor_ = 0;
  // The type of a GC/DynamicEvent, an allocation tick's amount (ResolvedType::payloadFacts).
  [[gnu::noinline]] void ReadPayloadFacts(const EventRecord& e, const ResolvedType& t);
  AllocationTickFields tickFields_;  // their slots found once per layout
  std::vector<std::unique_ptr<EventMetadata>> retired_;
  std::unordered_map<uint32_t, LabelOverrides> regionOverrides_;  // file label list id
  // The current region's label lists that carry activity ids: id → (activity, related).
  std::unordered_map<uint32_t, std::pair<Guid, Guid>> regionActivities_;
  // Types of (metadata id, file label list id) pairs whose list overrides metadata.
  std::unordered_map<uint64_t, EventTypeIndex> overriddenTypes_;
  ResolvedEvent current_;
  uint32_t nextOrdinal_ = 0;
  std::vector<uint64_t> bookkeeping_;
  std::map<uint64_t, uint64_t> unresolvedByKey_;
  std::map<uint16_t, uint64_t> unresolvedByRowThread_;
};

}  // namespace nettrace
