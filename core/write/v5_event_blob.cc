#include "write/v5_event_blob.h"

#include <string>

#include "write/wire.h"

namespace nettrace::write_internal {

namespace {

// §Header compression flag bits.
constexpr uint8_t kFlagMetadataId = 1;
constexpr uint8_t kFlagSequenceCaptureThreadProcessor = 2;
constexpr uint8_t kFlagThreadId = 4;
constexpr uint8_t kFlagStackId = 8;
constexpr uint8_t kFlagActivityId = 16;
constexpr uint8_t kFlagRelatedActivityId = 32;
constexpr uint8_t kFlagIsSorted = 64;
constexpr uint8_t kFlagPayloadSize = 128;

// §Uncompressed events: MetadataId(4) SequenceNumber(4) ThreadId(8) CaptureThreadId(8)
// ProcessorNumber(4) StackId(4) TimeStamp(8) ActivityID(16) RelatedActivityID(16)
// PayloadSize(4): what EventSize counts besides the payload and the padding
// (format-pitfalls.md §6: EventSize = 76 + PayloadSize + padding).
constexpr uint32_t kUncompressedHeaderAfterSize = 76;

// IsSorted polarity in uncompressed blobs: the spec calls the high bit of MetadataId "the
// IsSorted flag", but TraceEvent sets it when the event is NOT sorted (format-pitfalls.md
// §5). Like the v6 writer and our reader, we follow TraceEvent.
constexpr uint32_t kUncompressedNotSortedBit = 0x80000000u;

Status Invalid(std::string message) {
  return Status::Error(ErrorCode::kInvalidArgument, kNoOffset, std::move(message));
}

}  // namespace

Status EventBlobEncoder::Encode(const EventRecord& e, uint64_t fileOffset, size_t maxPayload,
                                std::vector<uint8_t>& out) {
  // §Uncompressed events: "the low 31 bits are a foreign key to the event's metadata".
  if (e.metadataId > 0x7FFFFFFF)
    return Invalid("event metadata id " + std::to_string(e.metadataId) + " does not fit 31 bits");
  if (e.labelListId != 0)
    return Invalid("event label list id " + std::to_string(e.labelListId) + ": label lists are v6 only");
  if (e.payload.size() > maxPayload)
    return Status::Error(ErrorCode::kLimitExceeded, kNoOffset,
                         "event payload of " + std::to_string(e.payload.size()) + " bytes cannot fit in a block");
  const uint32_t payloadSize = static_cast<uint32_t>(e.payload.size());
  if (compressed_) {
    EncodeCompressed(e, payloadSize, out);
  } else {
    EncodeUncompressed(e, payloadSize, fileOffset, out);
  }
  prev_ = Header{.metadataId = e.metadataId,
                 .sequenceNumber = e.sequenceNumber,
                 .processorNumber = e.processorNumber,
                 .stackId = e.stackId,
                 .thread = e.thread,
                 .captureThread = e.captureThread,
                 .timestamp = e.timestamp,
                 .activityId = e.activityId,
                 .relatedActivityId = e.relatedActivityId,
                 .payloadSize = payloadSize};
  return Status::Ok();
}

void EventBlobEncoder::EncodeUncompressed(const EventRecord& e, uint32_t payloadSize, uint64_t fileOffset,
                                          std::vector<uint8_t>& out) {
  // "Zero padding - Aligns to 4 byte file offset": the next blob starts 4-aligned. The
  // header is 80 bytes, so only the blob's start and the payload size decide it.
  const uint64_t end = fileOffset + 4 + kUncompressedHeaderAfterSize + payloadSize;
  const uint32_t padding = static_cast<uint32_t>((4 - end % 4) % 4);
  wire::PutU32(out, kUncompressedHeaderAfterSize + payloadSize + padding);  // EventSize: all after itself
  wire::PutU32(out, e.metadataId | (e.isSorted ? 0u : kUncompressedNotSortedBit));
  wire::PutU32(out, e.sequenceNumber);
  wire::PutU64(out, e.thread);
  wire::PutU64(out, e.captureThread);
  wire::PutU32(out, e.processorNumber);
  wire::PutU32(out, e.stackId);
  wire::PutU64(out, e.timestamp);
  wire::PutBytes(out, e.activityId.bytes);
  wire::PutBytes(out, e.relatedActivityId.bytes);
  wire::PutU32(out, payloadSize);
  wire::PutBytes(out, e.payload);
  out.resize(out.size() + padding, 0);
}

// §Header compression. A field group is written only when the value the reader would
// infer from the previous blob is wrong; re-sending it would also be legal
// (format-pitfalls.md §3) but costs bytes.
void EventBlobEncoder::EncodeCompressed(const EventRecord& e, uint32_t payloadSize, std::vector<uint8_t>& out) const {
  // Without flag 2 the sequence number is the previous one, plus 1 "if MetadataId != 0"
  // (metadata blobs carry none of their own, format-pitfalls.md §4); capture thread and
  // processor repeat. uint32 arithmetic wraps as the sequence counter does.
  const uint32_t inferredSequence = prev_.sequenceNumber + (e.metadataId != 0 ? 1u : 0u);
  uint8_t flags = 0;
  if (e.metadataId != prev_.metadataId) flags |= kFlagMetadataId;
  if (e.sequenceNumber != inferredSequence || e.captureThread != prev_.captureThread ||
      e.processorNumber != prev_.processorNumber)
    flags |= kFlagSequenceCaptureThreadProcessor;
  if (e.thread != prev_.thread) flags |= kFlagThreadId;
  if (e.stackId != prev_.stackId) flags |= kFlagStackId;
  if (e.activityId != prev_.activityId) flags |= kFlagActivityId;
  if (e.relatedActivityId != prev_.relatedActivityId) flags |= kFlagRelatedActivityId;
  if (e.isSorted) flags |= kFlagIsSorted;
  if (payloadSize != prev_.payloadSize) flags |= kFlagPayloadSize;

  // Field order: MetadataId, SequenceNumber, CaptureThreadId, ProcessorNumber, ThreadId,
  // StackId, TimeStamp, ActivityId, RelatedActivityId, PayloadSize.
  wire::PutU8(out, flags);
  if (flags & kFlagMetadataId) wire::PutVarUInt(out, e.metadataId);
  if (flags & kFlagSequenceCaptureThreadProcessor) {
    // With flag 2 readers add 1 after the delta, whatever the MetadataId (TraceEvent's
    // reading, format-pitfalls.md §4): the delta is (seq - previous - 1) mod 2^32.
    wire::PutVarUInt(out, static_cast<uint32_t>(e.sequenceNumber - prev_.sequenceNumber - 1));
    wire::PutVarUInt(out, e.captureThread);
    wire::PutVarUInt(out, e.processorNumber);
  }
  if (flags & kFlagThreadId) wire::PutVarUInt(out, e.thread);
  if (flags & kFlagStackId) wire::PutVarUInt(out, e.stackId);
  // Always present, relative to the previous blob mod 2^64: a step back in time (another
  // capture thread's events) wraps to a 10-byte varuint (format-pitfalls.md §1).
  wire::PutVarUInt(out, e.timestamp - prev_.timestamp);
  if (flags & kFlagActivityId) wire::PutBytes(out, e.activityId.bytes);
  if (flags & kFlagRelatedActivityId) wire::PutBytes(out, e.relatedActivityId.bytes);
  if (flags & kFlagPayloadSize) wire::PutVarUInt(out, payloadSize);
  // "Followed by PayloadSize bytes of payload and no alignment."
  wire::PutBytes(out, e.payload);
}

}  // namespace nettrace::write_internal
