#include "model/store_builder.h"

namespace nettrace {

Status StoreBuilder::OnTraceInfo(const TraceInfo& info) {
  info_ = info;
  v6_ = info.formatMajor >= 6;
  if (tap_) tap_->OnTraceInfo(info);
  return Status::Ok();
}

Status StoreBuilder::OnMetadata(const EventMetadata& m) {
  if (tap_) tap_->OnMetadataKind(resolver_->KindOf(m.id));
  return Status::Ok();
}

Status StoreBuilder::OnBlock(const BlockInfo& block) {
  if (block.kind == BlockKind::kEvent)
    store_.AddEventBlock({block.contentOffset, static_cast<uint32_t>(block.payloadSize), resolver_->nextOrdinal(),
                          RowGenerationFor(info_.formatMajor)});
  return Status::Ok();
}

Status StoreBuilder::OnStack(uint32_t id, std::span<const uint8_t> ips) {
  regionStacks_.Set(id, stacks_.Intern(ips).value);
  return Status::Ok();
}

Status StoreBuilder::OnLabelList(uint32_t id, const LabelList& list) {
  regionLabels_.Set(id, labels_.Intern(list).value);
  return Status::Ok();
}

Status StoreBuilder::OnEvent(const EventRecord& e) {
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
  // Held before the push: the push may release the event at once.
  if (tap_ && tap_->Wants(resolver_->current().kind) && tap_->Keeps(e, resolver_->current()))
    tap_->Hold(e, *resolver_);
  sorter_.Push(e.captureThread, item, e.isSorted);
  return Status::Ok();
}

void StoreBuilder::EndRegion() {
  sorter_.EndRegion();
  store_.BeginRegion(resolver_->nextOrdinal());
  stats_->unsortedCaptureThreadRuns = sorter_.unsortedRuns();
  stats_->isSortedHintViolations = sorter_.lateEvents();
}

Status StoreBuilder::OnSequencePoint(const SequencePoint& sp) {
  EndRegion();
  regionStacks_.Clear();
  regionLabels_.Clear();
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
