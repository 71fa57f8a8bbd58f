#include "format/event_row.h"

#include "format/decode_util.h"

namespace nettrace {

namespace {

// Compressed header flag bits (both specs, "Header compression").
constexpr uint8_t kFlagMetadataId = 1;
constexpr uint8_t kFlagCaptureThreadAndSequence = 2;
constexpr uint8_t kFlagThreadId = 4;
constexpr uint8_t kFlagStackId = 8;
constexpr uint8_t kFlagActivityIdOrLabelList = 16;  // v4/v5 ActivityId, v6 LabelListId
constexpr uint8_t kFlagRelatedActivityId = 32;      // v4/v5 only
constexpr uint8_t kFlagSorted = 64;
constexpr uint8_t kFlagDataLength = 128;

// Uncompressed rows: the high bit of MetadataId marks sortedness. The spec says set =
// sorted; TraceEvent's reader and writer use set = NOT sorted (format-pitfalls.md §5). We
// follow TraceEvent (as our writer does) and treat IsSorted only as a hint.
constexpr uint32_t kUnsortedBit = 0x80000000u;

Status ReadGuid(ByteCursor& c, Guid* g) {
  std::span<const uint8_t> b;
  if (!c.ReadBytes(16, &b)) return Overrun(c, "an activity id");
  std::copy(b.begin(), b.end(), g->bytes.begin());
  return Status::Ok();
}

Status DecodeUncompressed(ByteCursor& c, RowGeneration gen, EventRecord* row) {
  const uint64_t rowOffset = c.fileOffset();
  const size_t rowStart = c.position();
  uint32_t eventSize, metadataId, seq, proc, stackId, payloadSize;
  uint64_t thread, captureThread, timestamp;
  if (!c.ReadU32(&eventSize) || !c.ReadU32(&metadataId) || !c.ReadU32(&seq) || !c.ReadU64(&thread) ||
      !c.ReadU64(&captureThread) || !c.ReadU32(&proc) || !c.ReadU32(&stackId) || !c.ReadU64(&timestamp))
    return Overrun(c, "an event header");
  if (gen == RowGeneration::kV4V5) {
    NETTRACE_RETURN_IF_ERROR(ReadGuid(c, &row->activityId));
    NETTRACE_RETURN_IF_ERROR(ReadGuid(c, &row->relatedActivityId));
  } else {
    if (!c.ReadU32(&row->labelListId)) return Overrun(c, "an event header");
  }
  if (!c.ReadU32(&payloadSize)) return Overrun(c, "an event header");
  const size_t headerBytes = c.position() - rowStart;
  // EventSize counts everything after itself; v4/v5 adds padding to a 4-byte file offset
  // (format-pitfalls.md §6), so advancing by EventSize is the reliable step.
  if (uint64_t{eventSize} + 4 < headerBytes + uint64_t{payloadSize})
    return CorruptAt(rowOffset, "event size " + std::to_string(eventSize) + " is smaller than its header plus payload (" +
                                    std::to_string(payloadSize) + " bytes)");
  if (uint64_t{eventSize} + 4 > c.remaining() + headerBytes)
    return CorruptAt(rowOffset, "event of " + std::to_string(eventSize) + " bytes runs past the end of its block");
  row->metadataId = metadataId & ~kUnsortedBit;
  row->isSorted = (metadataId & kUnsortedBit) == 0;
  row->sequenceNumber = seq;
  row->thread = thread;
  row->captureThread = captureThread;
  row->processorNumber = proc;
  row->stackId = stackId;
  row->timestamp = timestamp;
  row->payloadOffset = c.fileOffset();
  row->payload = c.data().subspan(c.position(), payloadSize);
  c.Seek(rowStart + 4 + eventSize);
  return Status::Ok();
}

Status DecodeCompressed(ByteCursor& c, RowGeneration gen, EventRecord* row) {
  uint8_t flags;
  if (!c.ReadU8(&flags)) return Overrun(c, "an event header");
  if (flags & kFlagMetadataId) {
    if (!c.ReadVarUInt32(&row->metadataId)) return Overrun(c, "an event's metadata id");
  }
  if (flags & kFlagCaptureThreadAndSequence) {
    uint32_t seqDelta;
    if (!c.ReadVarUInt32(&seqDelta) || !c.ReadVarUInt64(&row->captureThread) || !c.ReadVarUInt32(&row->processorNumber))
      return Overrun(c, "an event's capture thread and sequence number");
    // Written as (seq - previous - 1) mod 2^32 (format-pitfalls.md §1).
    row->sequenceNumber += seqDelta + 1;
  } else if (gen == RowGeneration::kV6 || row->metadataId != 0) {
    // v6: "in either case increment by 1". v4/v5: metadata records (id 0) carry no
    // sequence number of their own, so only events advance it (TraceEvent's reading).
    row->sequenceNumber += 1;
  }
  if (flags & kFlagThreadId) {
    if (!c.ReadVarUInt64(&row->thread)) return Overrun(c, "an event's thread id");
  }
  if (flags & kFlagStackId) {
    if (!c.ReadVarUInt32(&row->stackId)) return Overrun(c, "an event's stack id");
  }
  uint64_t tsDelta;
  if (!c.ReadVarUInt64(&tsDelta)) return Overrun(c, "an event's timestamp");
  row->timestamp += tsDelta;  // wraps for steps backwards (format-pitfalls.md §1)
  if (gen == RowGeneration::kV4V5) {
    if (flags & kFlagActivityIdOrLabelList) NETTRACE_RETURN_IF_ERROR(ReadGuid(c, &row->activityId));
    if (flags & kFlagRelatedActivityId) NETTRACE_RETURN_IF_ERROR(ReadGuid(c, &row->relatedActivityId));
  } else if (flags & kFlagActivityIdOrLabelList) {
    if (!c.ReadVarUInt32(&row->labelListId)) return Overrun(c, "an event's label list id");
  }
  row->isSorted = (flags & kFlagSorted) != 0;
  uint32_t payloadSize = static_cast<uint32_t>(row->payload.size());
  if (flags & kFlagDataLength) {
    if (!c.ReadVarUInt32(&payloadSize)) return Overrun(c, "an event's payload size");
  }
  row->payloadOffset = c.fileOffset();
  if (!c.ReadBytes(payloadSize, &row->payload))
    return CorruptAt(row->payloadOffset, "event payload of " + std::to_string(payloadSize) +
                                             " bytes runs past the end of its block");
  return Status::Ok();
}

}  // namespace

Status DecodeEventRow(ByteCursor& c, RowGeneration gen, bool compressed, EventRecord* row) {
  return compressed ? DecodeCompressed(c, gen, row) : DecodeUncompressed(c, gen, row);
}

}  // namespace nettrace
