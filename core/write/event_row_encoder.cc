#include "write/event_row_encoder.h"

#include <string>

#include "write/wire.h"

namespace nettrace::write_internal {

namespace {

// §Header compression flag bits.
constexpr uint8_t kFlagMetadataId = 1;
constexpr uint8_t kFlagSequenceCaptureThreadProcessor = 2;
constexpr uint8_t kFlagThreadIndex = 4;
constexpr uint8_t kFlagStackId = 8;
constexpr uint8_t kFlagLabelListId = 16;
constexpr uint8_t kFlagIsSorted = 64;
constexpr uint8_t kFlagPayloadSize = 128;

// §Uncompressed events: MetadataId(4) SequenceNumber(4) ThreadIndex(8)
// CaptureThreadIndex(8) ProcessorNumber(4) StackId(4) TimeStamp(8) LabelListId(4)
// PayloadSize(4): what EventSize counts besides the payload.
constexpr uint32_t kUncompressedHeaderAfterSize = 48;

// IsSorted polarity in uncompressed rows. The spec (§Uncompressed events) calls the high
// bit of MetadataId "the IsSorted flag", but TraceEvent, the reference reader and writer,
// sets it when the event is NOT sorted (format-pitfalls.md §5). For interop we follow
// TraceEvent, and our reader treats IsSorted only as a hint either way.
constexpr uint32_t kUncompressedNotSortedBit = 0x80000000u;

}  // namespace

Status EventRowEncoder::Encode(const EventRecord& e, std::vector<uint8_t>& out) {
  // §Event rows: only the low 31 bits of MetadataId are the id.
  if (e.metadataId > 0x7FFFFFFF)
    return Status::Error(ErrorCode::kInvalidArgument, kNoOffset,
                         "event metadata id " + std::to_string(e.metadataId) + " does not fit 31 bits");
  // A payload must fit a block (< 16 MiB) anyway; this keeps the uint32 casts exact.
  if (e.payload.size() > 0xFFFFFF)
    return Status::Error(ErrorCode::kLimitExceeded, kNoOffset,
                         "event payload of " + std::to_string(e.payload.size()) + " bytes cannot fit in a block");
  const uint32_t payloadSize = static_cast<uint32_t>(e.payload.size());
  if (compressed_) {
    EncodeCompressed(e, payloadSize, out);
  } else {
    EncodeUncompressed(e, payloadSize, out);
  }
  wire::PutBytes(out, e.payload);
  prev_ = Header{.metadataId = e.metadataId,
                 .sequenceNumber = e.sequenceNumber,
                 .processorNumber = e.processorNumber,
                 .stackId = e.stackId,
                 .labelListId = e.labelListId,
                 .thread = e.thread,
                 .captureThread = e.captureThread,
                 .timestamp = e.timestamp,
                 .payloadSize = payloadSize};
  return Status::Ok();
}

void EventRowEncoder::EncodeUncompressed(const EventRecord& e, uint32_t payloadSize, std::vector<uint8_t>& out) {
  wire::PutU32(out, kUncompressedHeaderAfterSize + payloadSize);  // EventSize: all after itself
  wire::PutU32(out, e.metadataId | (e.isSorted ? 0u : kUncompressedNotSortedBit));
  wire::PutU32(out, e.sequenceNumber);
  wire::PutU64(out, e.thread);
  wire::PutU64(out, e.captureThread);
  wire::PutU32(out, e.processorNumber);
  wire::PutU32(out, e.stackId);
  wire::PutU64(out, e.timestamp);
  wire::PutU32(out, e.labelListId);
  wire::PutU32(out, payloadSize);
  // The payload follows directly: v6 rows have no alignment padding (§Uncompressed events
  // lists none), unlike v4/v5 rows (format-pitfalls.md §6).
}

// §Header compression. A field group is written only when the value the reader would
// infer from the previous row is wrong; writing it anyway would also be legal
// (format-pitfalls.md §3) but costs bytes.
void EventRowEncoder::EncodeCompressed(const EventRecord& e, uint32_t payloadSize, std::vector<uint8_t>& out) const {
  uint8_t flags = 0;
  if (e.metadataId != prev_.metadataId) flags |= kFlagMetadataId;
  // Without flag 2 the reader takes sequence = previous + 1 ("in either case increment
  // SequenceNumber by 1") and keeps capture thread and processor; uint32 arithmetic
  // wraps as the sequence counter does.
  if (e.sequenceNumber != static_cast<uint32_t>(prev_.sequenceNumber + 1) || e.captureThread != prev_.captureThread ||
      e.processorNumber != prev_.processorNumber)
    flags |= kFlagSequenceCaptureThreadProcessor;
  if (e.thread != prev_.thread) flags |= kFlagThreadIndex;
  if (e.stackId != prev_.stackId) flags |= kFlagStackId;
  if (e.labelListId != prev_.labelListId) flags |= kFlagLabelListId;
  if (e.isSorted) flags |= kFlagIsSorted;
  if (payloadSize != prev_.payloadSize) flags |= kFlagPayloadSize;

  // Field order: MetadataId, SequenceNumber, CaptureThreadIndex, ProcessorNumber,
  // ThreadIndex, StackId, TimeStamp, LabelListId, PayloadSize.
  wire::PutU8(out, flags);
  if (flags & kFlagMetadataId) wire::PutVarUInt(out, e.metadataId);
  if (flags & kFlagSequenceCaptureThreadProcessor) {
    // The reader adds 1 after adding the delta: (seq - prev - 1) mod 2^32.
    wire::PutVarUInt(out, static_cast<uint32_t>(e.sequenceNumber - prev_.sequenceNumber - 1));
    wire::PutVarUInt(out, e.captureThread);
    wire::PutVarUInt(out, e.processorNumber);
  }
  if (flags & kFlagThreadIndex) wire::PutVarUInt(out, e.thread);
  if (flags & kFlagStackId) wire::PutVarUInt(out, e.stackId);
  // Always present, relative to the previous row mod 2^64: a step back in time (another
  // capture thread's events, §Event TimeStamp sorting) wraps to a 10-byte varuint
  // (format-pitfalls.md §1).
  wire::PutVarUInt(out, e.timestamp - prev_.timestamp);
  if (flags & kFlagLabelListId) wire::PutVarUInt(out, e.labelListId);
  if (flags & kFlagPayloadSize) wire::PutVarUInt(out, payloadSize);
}

}  // namespace nettrace::write_internal
