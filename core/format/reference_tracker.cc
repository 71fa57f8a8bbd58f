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

// Events name their metadata by the low 31 bits of MetadataId (§Events), so a row with a
// larger id can never be referred to: it is dropped (and an event naming it is refused).
constexpr uint32_t kMaxMetadataId = 0x7FFFFFFF;

Status ReferenceTracker::OnMetadata(const EventMetadata& m) {
  if (m.id > kMaxMetadataId) {
    ++stats_->metadataIdsOutOfRange;
    return Status::Ok();
  }
  bool added = false;
  metadata_.At(m.id, &added);
  if (!added) {
    if (v6_)
      return Status::Error(ErrorCode::kCorrupt, blockOffset_,
                           "metadata id " + std::to_string(m.id) +
                               " is defined again without a sequence point that flushes metadata");
    ++stats_->metadataRedefinitions;
  }
  const size_t describable = DescribableFieldCount(m.fields);
  if (m.version <= 0xFF && m.level <= 0xFF && describable == m.fields.size()) return next_->OnMetadata(m);
  return next_->OnMetadata(Normalised(m, describable));
}

size_t ReferenceTracker::DescribableFieldCount(const std::vector<FieldDescription>& fields) {
  for (size_t i = 0; i < fields.size(); ++i)
    if (i >= 0xFFFF || !DescribesLayout(fields[i].type)) return i;
  return fields.size();
}

// v4/v5 metadata carries Version and Level as int32, but an event's version and level are
// bytes everywhere else (v6 metadata, TraceEvent's event header keeps the low byte). And a
// field whose type describes no layout (an undefined type code, a container without its
// element type…) cannot be decoded, nor can any field after it: the list ends before it.
EventMetadata ReferenceTracker::Normalised(const EventMetadata& m, size_t describableFields) {
  EventMetadata out = m;
  if (m.version > 0xFF || m.level > 0xFF) {
    ++stats_->metadataByteFieldsTruncated;
    out.version &= 0xFF;
    out.level &= 0xFF;
  }
  if (describableFields < m.fields.size()) {
    ++stats_->metadataFieldsCut;
    out.fields.resize(describableFields);
  }
  return out;
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
  bool added = false;
  threads_.At(t.index, &added);
  if (!added)
    return Status::Error(ErrorCode::kCorrupt, blockOffset_,
                         "thread index " + std::to_string(t.index) +
                             " is defined again while still in use (no RemoveThread or thread flush before it)");
  return next_->OnThread(t);
}

Status ReferenceTracker::OnRemoveThread(const ThreadSequence& t) {
  knownThreads_ = {};
  if (!threads_.Erase(t.thread))
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
  if (e.metadataId != lastDefinedMetadataId_ && !metadata_.Contains(e.metadataId))
    return Status::Error(ErrorCode::kBadReference, e.payloadOffset,
                         "event refers to metadata id " + std::to_string(e.metadataId) +
                             (e.metadataId > kMaxMetadataId ? ", beyond the 31 bits metadata ids have"
                                                            : ", which is not defined"));
  lastDefinedMetadataId_ = e.metadataId;
  if (v6_) {
    if (!knownThreads_.Holds(e.thread, e.captureThread)) {
      if (!threads_.Contains(e.thread))
        return Status::Error(ErrorCode::kBadReference, e.payloadOffset,
                             "event refers to thread index " + std::to_string(e.thread) + ", which is not defined");
      if (!threads_.Contains(e.captureThread))
        return Status::Error(ErrorCode::kBadReference, e.payloadOffset,
                             "event refers to capture thread index " + std::to_string(e.captureThread) +
                                 ", which is not defined");
      knownThreads_ = {true, e.thread, e.captureThread};
    }
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
  if (v6_ && (sp.flags & kSequencePointFlushThreads)) threads_.Clear(), knownThreads_ = {};
  if (v6_ && (sp.flags & kSequencePointFlushMetadata)) metadata_.Clear(), lastDefinedMetadataId_ = UINT32_MAX;
  return Status::Ok();
}

}  // namespace nettrace
