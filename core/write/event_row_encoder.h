// core/write — v6 event rows (NetTraceFormat.md §Event rows) in both encodings. Header
// compression is relative to the previous row of the same block, so the encoder keeps
// that row's header; Reset() at every block start (the spec's "assume that the previous
// event contained every field with a zeroed value"). Internal to the writer.
#pragma once

#include <cstdint>
#include <vector>

#include "base/status.h"
#include "format/records.h"

namespace nettrace::write_internal {

// §EventBlock Flags bit 1: rows use header compression.
inline constexpr uint16_t kEventBlockFlagCompressed = 1;

class EventRowEncoder {
 public:
  explicit EventRowEncoder(bool compressed) : compressed_(compressed) {}

  void Reset() { prev_ = Header{}; }
  // Appends the row for `e` to `out` and makes it the previous row.
  Status Encode(const EventRecord& e, std::vector<uint8_t>& out);

 private:
  // The header fields compression deltas and repeats are computed from.
  struct Header {
    uint32_t metadataId = 0, sequenceNumber = 0, processorNumber = 0, stackId = 0, labelListId = 0;
    uint64_t thread = 0, captureThread = 0, timestamp = 0;
    uint32_t payloadSize = 0;
  };

  void EncodeCompressed(const EventRecord& e, uint32_t payloadSize, std::vector<uint8_t>& out) const;
  static void EncodeUncompressed(const EventRecord& e, uint32_t payloadSize, std::vector<uint8_t>& out);

  bool compressed_;
  Header prev_;
};

}  // namespace nettrace::write_internal
