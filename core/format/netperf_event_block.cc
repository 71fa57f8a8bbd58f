#include "format/netperf_event_block.h"

#include <string_view>

#include "format/decode_util.h"
#include "format/fast_serialization/metadata_payload.h"
#include "format/netperf_stream.h"

namespace nettrace {

namespace {

// EventSize through PayloadSize: 4 + 4 + 4 + 8 + 16 + 16 + 4.
constexpr size_t kRowHeaderBytes = 56;
// NetPerf writers record no processor; .NET 5+ writes this value for "not recorded".
constexpr uint32_t kNoProcessor = 0xFFFFFFFFu;

void CopyGuid(std::span<const uint8_t> b, Guid* g) { std::copy(b.begin(), b.end(), g->bytes.begin()); }

// TraceEvent's NetPerf reader drops the stacks the runtime attached to events that are
// bookkeeping, not program activity: every rundown event, and the runtime's method
// events 140-144 (MethodLoad/Unload and their verbose forms) and 190 (MethodILToNativeMap).
bool StacksAreBookkeeping(const EventMetadata& m) {
  if (m.providerName == "Microsoft-Windows-DotNETRuntimeRundown") return true;
  if (m.providerName != "Microsoft-Windows-DotNETRuntime") return false;
  return (m.eventId >= 140 && m.eventId <= 144) || m.eventId == 190;
}

}  // namespace

Status DecodeNetPerfRow(ByteCursor& c, NetPerfRow* row) {
  const uint64_t rowOffset = c.fileOffset();
  const size_t rowStart = c.position();
  std::span<const uint8_t> h;
  if (!c.ReadBytes(kRowHeaderBytes, &h)) return Overrun(c, "an event header");
  uint32_t eventSize, metadataId, thread, payloadSize;
  uint64_t timestamp;
  std::memcpy(&eventSize, h.data(), 4);
  std::memcpy(&metadataId, h.data() + 4, 4);
  std::memcpy(&thread, h.data() + 8, 4);
  std::memcpy(&timestamp, h.data() + 12, 8);
  std::memcpy(&payloadSize, h.data() + 52, 4);
  // Sizes in 64 bits: a hostile int32 cannot wrap the checks.
  const uint64_t total = uint64_t{eventSize} + 4;
  if (total > c.remaining() + kRowHeaderBytes)
    return CorruptAt(rowOffset, "event of " + std::to_string(eventSize) + " bytes runs past the end of its block");
  if (total < kRowHeaderBytes + uint64_t{payloadSize} + 4)
    return CorruptAt(rowOffset, "event size " + std::to_string(eventSize) + " is smaller than its header, payload (" +
                                    std::to_string(payloadSize) + " bytes) and stack size");
  row->offset = rowOffset;
  EventRecord& r = row->record;
  r = EventRecord{};
  r.metadataId = metadataId;
  r.thread = thread;
  r.captureThread = thread;  // the writing thread is the event's thread
  r.processorNumber = kNoProcessor;
  r.timestamp = timestamp;
  // NetPerf writers wrote events in timestamp order (every row of the corpus is), so each
  // row may release what is pending before it; the sorter still places a row that is not
  // (sort/event_sorter.h: IsSorted is only a hint) and counts it.
  r.isSorted = true;
  CopyGuid(h.subspan(20, 16), &r.activityId);
  CopyGuid(h.subspan(36, 16), &r.relatedActivityId);
  r.payloadOffset = c.fileOffset();
  c.ReadBytes(payloadSize, &r.payload);  // fits: checked against EventSize above
  uint32_t stackSize = 0;
  if (!c.ReadU32(&stackSize) || uint64_t{stackSize} > total - (c.position() - rowStart))
    return CorruptAt(c.fileOffset() - 4, "inline stack of " + std::to_string(stackSize) +
                                             " bytes runs past the end of its event");
  c.ReadBytes(stackSize, &row->stack);
  c.Seek(rowStart + total);  // past the padding to the next 4-byte boundary
  return Status::Ok();
}

Status DecodeNetPerfEventRows(ByteCursor c, const std::function<void(const EventRecord& row)>& onRow) {
  NetPerfRow row;
  while (!c.empty()) {
    NETTRACE_RETURN_IF_ERROR(DecodeNetPerfRow(c, &row));
    if (row.record.metadataId != 0) onRow(row.record);
  }
  return Status::Ok();
}

Status NetPerfEventDecoder::DecodeBlock(ByteCursor c, BlockContext& ctx) {
  NetPerfRow row;
  while (!c.empty()) {
    NETTRACE_RETURN_IF_ERROR(DecodeNetPerfRow(c, &row));
    NETTRACE_RETURN_IF_ERROR(row.record.metadataId == 0 ? OnMetadataRow(row, ctx) : OnEventRow(row, ctx));
  }
  return Status::Ok();
}

Status NetPerfEventDecoder::OnMetadataRow(const NetPerfRow& row, BlockContext& ctx) {
  EventMetadata m;
  MetadataParseResult r;
  if (streamVersion_ < 3)
    NETTRACE_RETURN_IF_ERROR(
        ParseNetPerfStreamMetadata(row.record.payload, row.record.payloadOffset, streamVersion_, row.offset, &m, &r));
  else
    NETTRACE_RETURN_IF_ERROR(ParseMetadataV4V5(row.record.payload, row.record.payloadOffset, &m, &r));
  ctx.stats->unknownMetadataTags += r.unknownTags;
  if (StacksAreBookkeeping(m)) stacklessMetadata_.insert(m.id);
  else stacklessMetadata_.erase(m.id);
  return ctx.sink->OnMetadata(m);
}

Status NetPerfEventDecoder::OnEventRow(NetPerfRow& row, BlockContext& ctx) {
  if (!row.stack.empty() && !stacklessMetadata_.count(row.record.metadataId)) {
    const uint32_t id = stackIds_.Intern(row.stack);
    if (stackIds_.lastAdded()) NETTRACE_RETURN_IF_ERROR(ctx.sink->OnStack(id, row.stack));
    row.record.stackId = id;
  }
  return ctx.sink->OnEvent(row.record);
}

}  // namespace nettrace
