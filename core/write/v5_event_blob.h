// core/write — v4/v5 event blobs (NetTraceFormat_v5.md §Event blobs) in both encodings,
// the inverse of format/event_row.cc for RowGeneration::kV4V5. Used for the rows of
// EventBlocks and, with metadata payloads, of MetadataBlocks. Header compression is
// relative to the previous blob of the same block: Reset() at every block start ("assume
// that the previous event contained every field with a zeroed value"). Uncompressed
// blobs end with zero padding to a 4-byte FILE offset, so Encode needs the offset the
// blob will be written at. Internal to the v4/v5 writer.
#pragma once

#include <cstdint>
#include <vector>

#include "base/status.h"
#include "format/records.h"

namespace nettrace::write_internal {

class EventBlobEncoder {
 public:
  explicit EventBlobEncoder(bool compressed) : compressed_(compressed) {}

  void Reset() { prev_ = Header{}; }
  // Appends the blob for `e` to `out` and makes it the previous blob. fileOffset: the
  // absolute stream offset the blob will start at. Refuses what v4/v5 cannot carry: a
  // label list id, a metadata id above 31 bits, a payload beyond `maxPayload`.
  Status Encode(const EventRecord& e, uint64_t fileOffset, size_t maxPayload, std::vector<uint8_t>& out);

 private:
  // The header fields compression deltas and repeats are computed from.
  struct Header {
    uint32_t metadataId = 0, sequenceNumber = 0, processorNumber = 0, stackId = 0;
    uint64_t thread = 0, captureThread = 0, timestamp = 0;
    Guid activityId, relatedActivityId;
    uint32_t payloadSize = 0;
  };

  void EncodeCompressed(const EventRecord& e, uint32_t payloadSize, std::vector<uint8_t>& out) const;
  static void EncodeUncompressed(const EventRecord& e, uint32_t payloadSize, uint64_t fileOffset,
                                 std::vector<uint8_t>& out);

  bool compressed_;
  Header prev_;
};

}  // namespace nettrace::write_internal
