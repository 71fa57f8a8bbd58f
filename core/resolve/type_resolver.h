// core/resolve — the resolver stage: sits after the reader (and its ReferenceTracker) and
// before every sink, and decides once per metadata id what kind of event it describes
// (event_kind.h). Later stages ask it by metadata id — one array index — rather than keeping
// their own per-metadata tables of provider/id comparisons. It sees each record first and
// then hands it on, so a sink's OnMetadata already finds the new definition here.
#pragma once

#include <unordered_map>
#include <vector>

#include "format/record_sink.h"
#include "resolve/event_kind.h"

namespace nettrace {

// What the resolver knows of one metadata id. version: the metadata's (payload layouts
// grow by version); a v6 label list's version override does not change a layout's kind.
struct ResolvedType {
  EventKind kind = EventKind::kNone;
  uint32_t version = 0;
};

class TypeResolver final : public RecordSink {
 public:
  explicit TypeResolver(RecordSink* next) : next_(next) {}

  const ResolvedType& Of(uint32_t metadataId) const {
    if (metadataId < types_.size()) return types_[metadataId];
    return sparse_.empty() ? kNoType : SparseOf(metadataId);
  }
  EventKind KindOf(uint32_t metadataId) const { return Of(metadataId).kind; }

  Status OnTraceInfo(const TraceInfo& v) override { return next_->OnTraceInfo(v); }
  Status OnBlock(const BlockInfo& v) override { return next_->OnBlock(v); }
  Status OnMetadata(const EventMetadata& m) override;
  Status OnStack(uint32_t id, std::span<const uint8_t> ips) override { return next_->OnStack(id, ips); }
  Status OnThread(const ThreadInfo& v) override { return next_->OnThread(v); }
  Status OnRemoveThread(const ThreadSequence& v) override { return next_->OnRemoveThread(v); }
  Status OnLabelList(uint32_t id, const LabelList& v) override { return next_->OnLabelList(id, v); }
  Status OnEvent(const EventRecord& e) override { return next_->OnEvent(e); }
  Status OnSequencePoint(const SequencePoint& v) override { return next_->OnSequencePoint(v); }
  Status OnEndOfStream() override { return next_->OnEndOfStream(); }

 private:
  const ResolvedType& SparseOf(uint32_t metadataId) const;
  static constexpr ResolvedType kNoType{};

  // Hostile ids are not worth a huge table: beyond 1 Mi they go to a map (one entry per
  // metadata record of a kind, never per event).
  static constexpr uint32_t kMaxDenseId = 1u << 20;
  RecordSink* next_;
  std::vector<ResolvedType> types_;  // by metadata id; kNone beyond the end
  std::unordered_map<uint32_t, ResolvedType> sparse_;
};

}  // namespace nettrace
