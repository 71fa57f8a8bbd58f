#include "resolve/type_resolver.h"

#include <algorithm>
#include <utility>

#include "format/payload/clr_field_read.h"
#include "format/payload/clr_payload_fields.h"

namespace nettrace {

EventTypeIndex TypeResolver::Intern(std::optional<EventTypeIndex> t) {
  if (t) return *t;
  ++stats_->tooManyEventTypes;
  return kOverflowType;
}

void TypeResolver::Define(uint32_t metadataId, const ResolvedType& t) {
  if (metadataId < kMaxDenseId) {
    if (metadataId >= byId_.size()) byId_.resize(metadataId + 1);
    byId_[metadataId] = t;  // also an id redefined after a flush
  } else {
    sparse_[metadataId] = t;
  }
}

Status TypeResolver::OnTraceInfo(const TraceInfo& info) {
  v6_ = info.formatMajor >= 6;
  pointerSize_ = info.pointerSize ? info.pointerSize : 8;  // as the analyses decode payloads
  formatMajor_ = static_cast<int>(info.formatMajor);
  processId_ = info.processId;
  return next_->OnTraceInfo(info);
}

Status TypeResolver::OnThread(const ThreadInfo& t) {
  ForgetThreadMemo();
  // A thread row the table cannot index is not counted here: tooManyThreads counts events
  // (Unresolved, as each of its events arrives), as its description says.
  threads_.Define(t);
  return next_->OnThread(t);
}

Status TypeResolver::OnRemoveThread(const ThreadSequence& t) {
  ForgetThreadMemo();
  threads_.Forget(t.thread);
  return next_->OnRemoveThread(t);
}

Status TypeResolver::OnMetadata(const EventMetadata& m) {
  ResolvedType t{EventKindOf(m), m.version, Intern(types_.Intern(m)), IsGcDynamicEvent(m)};
  t.bookkeeping = kTraceLogBookkeeping[static_cast<size_t>(t.kind)];
  t.payloadFacts = t.gcDynamic || t.kind == EventKind::kGcAllocationTick;
  if (ClrFieldLayout layout = BuildClrFieldLayout(m, pointerSize_); !layout.fields.empty()) {
    clrLayouts_.push_back(std::make_unique<ClrFieldLayout>(std::move(layout)));
    t.clrLayout = t.clrTemplate = clrLayouts_.back().get();
  } else if (!m.fields.empty()) {
    if (ClrFieldLayout manifest = BuildClrFieldLayout(m, pointerSize_, /*templateEvenIfDescribed=*/true);
        !manifest.fields.empty()) {
      clrLayouts_.push_back(std::make_unique<ClrFieldLayout>(std::move(manifest)));
      t.clrTemplate = clrLayouts_.back().get();
    }
  }
  std::unique_ptr<EventMetadata>& slot = metadata_[m.id];
  if (slot) retired_.push_back(std::move(slot));
  slot = std::make_unique<EventMetadata>(m);
  t.metadata = slot.get();
  Define(m.id, t);
  for (auto it = overriddenTypes_.begin(); it != overriddenTypes_.end();)
    it = (it->first >> 32) == m.id ? overriddenTypes_.erase(it) : std::next(it);
  return next_->OnMetadata(m);
}

Status TypeResolver::OnLabelList(uint32_t id, const LabelList& list) {
  if (LabelOverrides o = OverridesOf(list); o.any()) regionOverrides_[id] = o;
  std::pair<Guid, Guid> ids;
  bool any = false;
  for (const Label& l : list.labels) {
    if (l.kind == LabelKind::kActivityId) ids.first = l.guid, any = true;
    if (l.kind == LabelKind::kRelatedActivityId) ids.second = l.guid, any = true;
  }
  if (any) regionActivities_[id] = ids;
  return next_->OnLabelList(id, list);
}

Status TypeResolver::OnEvent(const EventRecord& e) {
  const ResolvedType& t = Of(e.metadataId);  // the reference tracker checked the id
  current_.definition = &t;
  current_.type = t.type;
  current_.kind = t.kind;
  if (e.labelListId != 0 && !regionOverrides_.empty()) {
    current_.type = OverriddenType(e, current_.type);
    // The effective type's kind: an overridden opcode may make an EventSource event a Start
    // or a Stop (events/start_stop.h), for every sink alike.
    if (current_.type != t.type) current_.kind = types_[current_.type].kind;
  }
  if (t.payloadFacts) ReadPayloadFacts(e, t);
  ResolveThread(e);
  // Inline: a rundown's method records are most of a trace like HeartRateMonitor, and each
  // is one (TraceLog drops those of methods whose flags say so).
  if (t.bookkeeping != TraceLogBookkeeping::kNever) CountBookkeeping(e, t);
  current_.ordinal = nextOrdinal_++;
  return next_->OnEvent(e);
}

// What the payloads of two kinds tell, out of line behind one test of the type: a second
// test on every event's path, and the tick reader's frame inlined there, cost 5 instructions
// an event (HeartRateMonitor, callgrind).
void TypeResolver::ReadPayloadFacts(const EventRecord& e, const ResolvedType& t) {
  if (t.gcDynamic) current_.type = GcDynamicType(e, current_.type);
  if (t.kind == EventKind::kGcAllocationTick) {
    ClrPayloadFields fields(t.metadata ? *t.metadata : MetadataOf(e.metadataId), t.clrLayout, e.payload, pointerSize_,
                            formatMajor_);
    current_.allocationTick = tickFields_.Read(fields);
  }
}

void TypeResolver::ResolveThread(const EventRecord& e) {
  if (v6_) {
    // A v6 index is looked up directly (one load): blocks that interleave many threads would
    // miss the memo below, and keeping it up costs more than the look-up.
    if (std::optional<ThreadIndex> thread = threads_.ForIndex(e.thread)) {
      current_.thread = *thread, current_.threadKnown = true;
      return;
    }
    Unresolved(e.thread);
    return;
  }
  if (threadMemos_ > 0 && e.thread == threadMemo_[0].key) {
    current_.thread = threadMemo_[0].thread, current_.threadKnown = true;
    return;
  }
  if (threadMemos_ > 1 && e.thread == threadMemo_[1].key) {
    std::swap(threadMemo_[0], threadMemo_[1]);
    current_.thread = threadMemo_[0].thread, current_.threadKnown = true;
    return;
  }
  std::optional<ThreadIndex> thread = threads_.ForThreadId(e.thread, processId_);
  if (!thread) return Unresolved(e.thread);
  threadMemo_[1] = threadMemo_[0];
  threadMemo_[0] = {e.thread, *thread};
  threadMemos_ = static_cast<uint8_t>(std::min(threadMemos_ + 1, 2));
  current_.thread = *thread, current_.threadKnown = true;
}

void TypeResolver::Unresolved(uint64_t key) {
  // The store's rows need some thread: the last one (as before the resolver took threads).
  ++stats_->tooManyThreads;
  current_.thread = ThreadIndex(static_cast<uint16_t>(threads_.size() - 1));
  current_.threadKnown = false;
  ++unresolvedByKey_[key];
  ++unresolvedByRowThread_[current_.thread.value];
}

void TypeResolver::CountBookkeeping(const EventRecord& e, const ResolvedType& t) {
  if (t.bookkeeping == TraceLogBookkeeping::kByMethodFlags && !IsMethodBookkeeping(t.kind, t.clrTemplate, e.payload))
    return;
  if (current_.type.value >= bookkeeping_.size()) bookkeeping_.resize(current_.type.value + size_t{1});
  ++bookkeeping_[current_.type.value];
}

EventTypeIndex TypeResolver::OverriddenType(const EventRecord& e, EventTypeIndex type) {
  auto o = regionOverrides_.find(e.labelListId);
  if (o == regionOverrides_.end()) return type;
  const uint64_t key = (uint64_t{e.metadataId} << 32) | e.labelListId;
  if (auto it = overriddenTypes_.find(key); it != overriddenTypes_.end()) return it->second;
  std::optional<EventTypeIndex> t = types_.Intern(*metadata_.at(e.metadataId), o->second);
  if (!t) {
    ++stats_->tooManyEventTypes;
    return type;
  }
  overriddenTypes_[key] = *t;
  return *t;
}

EventTypeIndex TypeResolver::GcDynamicType(const EventRecord& e, EventTypeIndex type) {
  const EventMetadata& m = *metadata_.at(e.metadataId);
  std::optional<std::string> name = GcDynamicEventName(m, e.payload);
  if (!name) return type;
  std::optional<EventTypeIndex> t = types_.InternRenamed(m, *name);
  if (!t) {
    ++stats_->tooManyEventTypes;
    return type;
  }
  return *t;
}

Status TypeResolver::OnSequencePoint(const SequencePoint& sp) {
  regionOverrides_.clear();
  regionActivities_.clear();
  overriddenTypes_.clear();  // label list ids restart after a sequence point
  if (v6_ && (sp.flags & kSequencePointFlushThreads)) threads_.ForgetAll(), ForgetThreadMemo();
  return next_->OnSequencePoint(sp);
}

void TypeResolver::ActivityIdsOf(const EventRecord& e, Guid* activity, Guid* related) const {
  if (!v6_) {
    *activity = e.activityId, *related = e.relatedActivityId;
    return;
  }
  auto it = regionActivities_.find(e.labelListId);
  if (e.labelListId != 0 && it != regionActivities_.end()) *activity = it->second.first, *related = it->second.second;
}

const EventMetadata& TypeResolver::MetadataOf(uint32_t metadataId) const {
  static const EventMetadata kUndefined;
  const EventMetadata* m = Of(metadataId).metadata;  // the vector's entry: no map look-up per event
  return m ? *m : kUndefined;
}

const ResolvedType& TypeResolver::SparseOf(uint32_t metadataId) const {
  auto it = sparse_.find(metadataId);
  return it == sparse_.end() ? kNoType : it->second;
}

}  // namespace nettrace
