// core/format — the one interface between the tokenizers and everything after them.
// Tokenizers call these in file order; a sink returning an error stops the read there
// (the error's offset is the sink's to choose; kNoOffset gets the current block's).
#pragma once

#include <span>

#include "base/status.h"
#include "format/records.h"

namespace nettrace {

class RecordSink {
 public:
  virtual ~RecordSink() = default;
  virtual Status OnTraceInfo(const TraceInfo&) { return Status::Ok(); }
  // Called when a block/object starts, before its records.
  virtual Status OnBlock(const BlockInfo&) { return Status::Ok(); }
  virtual Status OnMetadata(const EventMetadata&) { return Status::Ok(); }
  // ips: the raw stack bytes (pointer-size little-endian instruction pointers).
  virtual Status OnStack(uint32_t id, std::span<const uint8_t> ips) {
    (void)id, (void)ips;
    return Status::Ok();
  }
  virtual Status OnThread(const ThreadInfo&) { return Status::Ok(); }
  virtual Status OnRemoveThread(const ThreadSequence&) { return Status::Ok(); }
  virtual Status OnLabelList(uint32_t id, const LabelList&) {
    (void)id;
    return Status::Ok();
  }
  virtual Status OnEvent(const EventRecord&) { return Status::Ok(); }
  virtual Status OnSequencePoint(const SequencePoint&) { return Status::Ok(); }
  virtual Status OnEndOfStream() { return Status::Ok(); }
};

}  // namespace nettrace
