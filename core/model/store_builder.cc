#include "model/store_builder.h"

namespace nettrace {

Status StoreBuilder::OnTraceInfo(const TraceInfo& info) {
  info_ = info;
  v6_ = info.formatMajor >= 6;
  return Status::Ok();
}

Status StoreBuilder::OnBlock(const BlockInfo& block) {
  if (block.kind == BlockKind::kEvent)
    store_.AddEventBlock({block.contentOffset, static_cast<uint32_t>(block.payloadSize), nextOrdinal_,
                          RowGenerationFor(info_.formatMajor)});
  return Status::Ok();
}

Status StoreBuilder::OnMetadata(const EventMetadata& m) {
  std::optional<EventTypeIndex> t = types_.Intern(m);
  if (!t) {
    ++stats_->tooManyEventTypes;
    t = EventTypeIndex(0xFFFF - 1);
  }
  typeOfMetadata_[m.id] = t->value;
  metadata_[m.id] = m;
  // GC dynamic events take their name from each payload (GcDynamicEventName).
  if (IsGcDynamicEvent(m))
    gcDynamicMetadata_.insert(m.id);
  else
    gcDynamicMetadata_.erase(m.id);
  for (auto it = overriddenTypes_.begin(); it != overriddenTypes_.end();)
    it = (it->first >> 32) == m.id ? overriddenTypes_.erase(it) : std::next(it);
  return Status::Ok();
}

Status StoreBuilder::OnStack(uint32_t id, std::span<const uint8_t> ips) {
  regionStacks_[id] = stacks_.Intern(ips).value;
  return Status::Ok();
}

Status StoreBuilder::OnThread(const ThreadInfo& t) {
  if (!threads_.Define(t)) ++stats_->tooManyThreads;
  return Status::Ok();
}

Status StoreBuilder::OnRemoveThread(const ThreadSequence& t) {
  threads_.Forget(t.thread);
  return Status::Ok();
}

Status StoreBuilder::OnLabelList(uint32_t id, const LabelList& list) {
  regionLabels_[id] = labels_.Intern(list).value;
  if (LabelOverrides o = OverridesOf(list); o.any()) regionOverrides_[id] = o;
  return Status::Ok();
}

Status StoreBuilder::OnEvent(const EventRecord& e) {
  SortItem item;
  item.timestamp = e.timestamp;
  item.ordinal = nextOrdinal_++;
  item.type = typeOfMetadata_.at(e.metadataId);  // the reference tracker checked the id
  if (e.labelListId != 0 && !regionOverrides_.empty()) item.type = OverriddenType(e, item.type);
  if (gcDynamicMetadata_.count(e.metadataId)) item.type = GcDynamicType(e, item.type);
  std::optional<ThreadIndex> thread =
      v6_ ? threads_.ForIndex(e.thread) : threads_.ForThreadId(e.thread, info_.processId);
  if (!thread) {
    ++stats_->tooManyThreads;
    thread = ThreadIndex(static_cast<uint16_t>(threads_.size() - 1));
  }
  item.thread = thread->value;
  if (e.stackId != 0) {
    auto it = regionStacks_.find(e.stackId);
    item.stack = it == regionStacks_.end() ? 0 : it->second;  // dangling ids are counted by the tracker
  }
  if (v6_) {
    if (e.labelListId != 0) {
      auto it = regionLabels_.find(e.labelListId);
      item.labels = it == regionLabels_.end() ? 0 : it->second;
    }
  } else {
    item.labels = labels_.InternActivity(e.activityId, e.relatedActivityId).value;
  }
  sorter_.Push(e.captureThread, item, e.isSorted);
  return Status::Ok();
}

uint16_t StoreBuilder::OverriddenType(const EventRecord& e, uint16_t type) {
  auto o = regionOverrides_.find(e.labelListId);
  if (o == regionOverrides_.end()) return type;
  const uint64_t key = (uint64_t{e.metadataId} << 32) | e.labelListId;
  if (auto it = overriddenTypes_.find(key); it != overriddenTypes_.end()) return it->second;
  std::optional<EventTypeIndex> t = types_.Intern(metadata_.at(e.metadataId), o->second);
  if (!t) {
    ++stats_->tooManyEventTypes;
    return type;
  }
  overriddenTypes_[key] = t->value;
  return t->value;
}

uint16_t StoreBuilder::GcDynamicType(const EventRecord& e, uint16_t type) {
  std::optional<std::string> name = GcDynamicEventName(metadata_.at(e.metadataId), e.payload);
  if (!name) return type;
  std::optional<EventTypeIndex> t = types_.InternRenamed(metadata_.at(e.metadataId), *name);
  if (!t) {
    ++stats_->tooManyEventTypes;
    return type;
  }
  return t->value;
}

void StoreBuilder::EndRegion() {
  sorter_.EndRegion();
  store_.BeginRegion(nextOrdinal_);
  stats_->unsortedCaptureThreadRuns = sorter_.unsortedRuns();
  stats_->isSortedHintViolations = sorter_.lateEvents();
}

Status StoreBuilder::OnSequencePoint(const SequencePoint& sp) {
  EndRegion();
  regionStacks_.clear();
  regionLabels_.clear();
  regionOverrides_.clear();
  overriddenTypes_.clear();  // label list ids restart after a sequence point
  if (v6_ && (sp.flags & kSequencePointFlushThreads)) threads_.ForgetAll();
  return Status::Ok();
}

Status StoreBuilder::OnEndOfStream() {
  EndRegion();
  return Status::Ok();
}

void StoreBuilder::Flush() {
  EndRegion();
  store_.Seal();
}

}  // namespace nettrace
