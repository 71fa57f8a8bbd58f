// core/format — the reference rules of the format, checked between the tokenizer and the
// consumers (a RecordSink that forwards to the next one). It owns the lifetimes the
// spec gives each table: metadata ids (global in v4/v5; in v6 until a sequence point
// with the metadata-flush flag), thread indexes (v6: from their Thread block to their
// RemoveThread or a thread-flush sequence point), stack and label-list ids (until the
// next sequence point). Violations the spec calls errors are fatal Status errors;
// dangling stack or label-list ids are counted (base/stats.h) and the event still flows.
// Two shapes the format cannot express but a damaged file can produce are normalised
// here, once for every consumer (counted, so the summary shows them): a stack whose size
// is not a whole number of pointers loses its partial last IP, and a label list left
// empty (its only label of an unknown kind) is not forwarded — events naming it get list
// 0, the implicit empty list, which means the same. Metadata rows get the same treatment
// for what NetTrace v6 and TraceEvent cannot hold (a 32-bit id, a Version or Level above
// a byte, a field type that describes no layout), so every consumer — the converter
// included — sees one normalised definition.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "base/small_key_map.h"
#include "base/stats.h"
#include "format/record_sink.h"

namespace nettrace {

class ReferenceTracker final : public RecordSink {
 public:
  ReferenceTracker(RecordSink* next, Stats* stats) : next_(next), stats_(stats) {}

  Status OnTraceInfo(const TraceInfo& info) override;
  Status OnBlock(const BlockInfo& block) override;
  Status OnMetadata(const EventMetadata& m) override;
  Status OnStack(uint32_t id, std::span<const uint8_t> ips) override;
  Status OnThread(const ThreadInfo& t) override;
  Status OnRemoveThread(const ThreadSequence& t) override;
  Status OnLabelList(uint32_t id, const LabelList& list) override;
  Status OnEvent(const EventRecord& e) override;
  Status OnSequencePoint(const SequencePoint& sp) override;
  Status OnEndOfStream() override { return next_->OnEndOfStream(); }

 private:
  // Ids defined in the current sequence-point region, as runs [first, last].
  static size_t DescribableFieldCount(const std::vector<FieldDescription>& fields);
  EventMetadata Normalised(const EventMetadata& m, size_t describableFields);

  struct IdRuns {
    std::vector<std::pair<uint32_t, uint32_t>> runs;
    void Add(uint32_t id);
    bool Contains(uint32_t id) const;
  };

  RecordSink* next_;
  Stats* stats_;
  bool v6_ = false;
  uint32_t pointerSize_ = 8;
  uint64_t blockOffset_ = 0;
  SmallKeyMap<uint8_t> metadata_;  // ids defined (the value is unused); most are small
  // The last id an event named, known defined: events come in runs of one type, so most
  // skip the set's look-up. No row has this id (ids above 31 bits are dropped).
  uint32_t lastDefinedMetadataId_ = UINT32_MAX;
  SmallKeyMap<uint8_t> threads_;  // v6 thread indexes defined (the value is unused)
  // v6: the last (thread, capture thread) pair an event named, both defined; forgotten when
  // a thread leaves the table.
  struct KnownThreads {
    bool valid = false;
    uint64_t thread = 0, captureThread = 0;
    bool Holds(uint64_t t, uint64_t c) const { return valid && t == thread && c == captureThread; }
  } knownThreads_;
  IdRuns stacks_;
  IdRuns labelLists_;
  IdRuns emptyLabelLists_;  // defined, but with no label: events name list 0 instead
};

}  // namespace nettrace
