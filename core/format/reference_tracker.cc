#include "format/reference_tracker.h"

#include <string>

namespace nettrace {

void ReferenceTracker::IdRuns::Add(uint32_t id) {
  // Blocks define consecutive ids, so extending the last run is the common case.
  if (!runs.empty() && runs.back().second + 1 == id) {
    runs.back().second = id;
    return;
  }
  runs.emplace_back(id, id);
}

bool ReferenceTracker::IdRuns::Contains(uint32_t id) const {
  for (auto it = runs.rbegin(); it != runs.rend(); ++it)
    if (id >= it->first && id <= it->second) return true;
  return false;
}

Status ReferenceTracker::OnTraceInfo(const TraceInfo& info) {
  v6_ = info.formatMajor >= 6;
  if (info.pointerSize == 4 || info.pointerSize == 8) pointerSize_ = info.pointerSize;
  return next_->OnTraceInfo(info);
}

Status ReferenceTracker::OnBlock(const BlockInfo& block) {
  blockOffset_ = block.offset;
  return next_->OnBlock(block);
}

Status ReferenceTracker::OnMetadata(const EventMetadata& m) {
  if (!metadata_.insert(m.id).second) {
    if (v6_)
      return Status::Error(ErrorCode::kCorrupt, blockOffset_,
                           "metadata id " + std::to_string(m.id) +
                               " is defined again without a sequence point that flushes metadata");
    ++stats_->metadataRedefinitions;
  }
  return next_->OnMetadata(m);
}

Status ReferenceTracker::OnStack(uint32_t id, std::span<const uint8_t> ips) {
  stacks_.Add(id);
  if (const size_t partial = ips.size() % pointerSize_) {
    ++stats_->partialStackIps;
    ips = ips.first(ips.size() - partial);
  }
  return next_->OnStack(id, ips);
}

Status ReferenceTracker::OnThread(const ThreadInfo& t) {
  if (!threads_.insert(t.index).second)
    return Status::Error(ErrorCode::kCorrupt, blockOffset_,
                         "thread index " + std::to_string(t.index) +
                             " is defined again while still in use (no RemoveThread or thread flush before it)");
  return next_->OnThread(t);
}

Status ReferenceTracker::OnRemoveThread(const ThreadSequence& t) {
  if (threads_.erase(t.thread) == 0)
    return Status::Error(ErrorCode::kBadReference, blockOffset_,
                         "RemoveThread names thread index " + std::to_string(t.thread) + ", which is not defined");
  return next_->OnRemoveThread(t);
}

Status ReferenceTracker::OnLabelList(uint32_t id, const LabelList& list) {
  labelLists_.Add(id);
  if (list.labels.empty()) {
    ++stats_->emptyLabelLists;
    emptyLabelLists_.Add(id);
    return Status::Ok();
  }
  return next_->OnLabelList(id, list);
}

Status ReferenceTracker::OnEvent(const EventRecord& e) {
  if (metadata_.count(e.metadataId) == 0)
    return Status::Error(ErrorCode::kBadReference, e.payloadOffset,
                         "event refers to metadata id " + std::to_string(e.metadataId) + ", which is not defined");
  if (v6_) {
    if (threads_.count(e.thread) == 0)
      return Status::Error(ErrorCode::kBadReference, e.payloadOffset,
                           "event refers to thread index " + std::to_string(e.thread) + ", which is not defined");
    if (threads_.count(e.captureThread) == 0)
      return Status::Error(ErrorCode::kBadReference, e.payloadOffset,
                           "event refers to capture thread index " + std::to_string(e.captureThread) +
                               ", which is not defined");
    if (e.labelListId != 0 && !labelLists_.Contains(e.labelListId)) ++stats_->labelListIdsUnresolved;
  }
  if (e.stackId != 0 && !stacks_.Contains(e.stackId)) ++stats_->stackIdsUnresolved;
  if (e.labelListId != 0 && !emptyLabelLists_.runs.empty() && emptyLabelLists_.Contains(e.labelListId)) {
    EventRecord withoutList = e;
    withoutList.labelListId = 0;
    return next_->OnEvent(withoutList);
  }
  return next_->OnEvent(e);
}

Status ReferenceTracker::OnSequencePoint(const SequencePoint& sp) {
  // Forward first: the flush happens after the sequence-number checks the consumers do
  // with this point (NetTraceFormat.md §SequencePointBlock).
  NETTRACE_RETURN_IF_ERROR(next_->OnSequencePoint(sp));
  stacks_.runs.clear();
  labelLists_.runs.clear();
  emptyLabelLists_.runs.clear();
  if (v6_ && (sp.flags & kSequencePointFlushThreads)) threads_.clear();
  if (v6_ && (sp.flags & kSequencePointFlushMetadata)) metadata_.clear();
  return Status::Ok();
}

}  // namespace nettrace
