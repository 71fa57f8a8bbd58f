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
  const StackIndex stack = stacks_.Intern(ips);
  regionStacks_.Set(id, stack.value);
  if (ips.empty()) emptyStack_ = stack.value;  // interned once: every empty stack has this index
  return Status::Ok();
}

Status StoreBuilder::OnLabelList(uint32_t id, const LabelList& list) {
  regionLabels_.Set(id, labels_.Intern(list).value);
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

// An event of a kind the tap wants: rebuilt from its sorted item later, or held now (unless
// every reader filters it out).
void StoreBuilder::ToTap(const EventRecord& e) {
  const ResolvedEvent& r = resolver_->current();
  if (!tap_->RebuildsFromItem(r) && tap_->Keeps(e, r)) tap_->Hold(e, *resolver_);
}

EventCounts StoreBuilder::counts() const {
  EventCounts counts = counts_;
  sorter_.ForEachPending([&](const SortItem& item) { counts.Count(item, emptyStack_); });
  return counts;
}

void StoreBuilder::Flush() {
  EndRegion();
  store_.Seal();
}

}  // namespace nettrace
