#include "format/event_block.h"

#include "format/decode_util.h"
#include "format/fast_serialization/metadata_payload.h"
#include "format/netperf_event_block.h"

namespace nettrace {

namespace {

constexpr uint16_t kFlagCompressedHeaders = 1;

// HeaderSize (includes itself), Flags, min and max timestamps, extension bytes.
Status ReadBlockHeader(ByteCursor& c, bool* compressed) {
  const uint64_t at = c.fileOffset();
  uint16_t headerSize, flags;
  if (!c.ReadU16(&headerSize) || !c.ReadU16(&flags)) return Overrun(c, "an event block header");
  if (headerSize < 4 || !c.Skip(headerSize - 4))
    return CorruptAt(at, "event block header size " + std::to_string(headerSize) + " does not fit its block");
  *compressed = (flags & kFlagCompressedHeaders) != 0;
  return Status::Ok();
}

template <typename OnRow>
Status ForEachRow(ByteCursor& c, RowGeneration gen, OnRow&& onRow) {
  bool compressed;
  NETTRACE_RETURN_IF_ERROR(ReadBlockHeader(c, &compressed));
  EventRecord row;  // all zero: the "previous header" at the start of every block
  while (!c.empty()) {
    NETTRACE_RETURN_IF_ERROR(DecodeEventRow(c, gen, compressed, &row));
    NETTRACE_RETURN_IF_ERROR(onRow(row));
  }
  return Status::Ok();
}

}  // namespace

Status DecodeEventBlock(ByteCursor c, BlockContext& ctx) {
  return ForEachRow(c, ctx.generation, [&](const EventRecord& row) { return ctx.sink->OnEvent(row); });
}

Status DecodeEventRows(ByteCursor c, RowGeneration gen, std::vector<EventRecord>* rows) {
  rows->clear();
  return DecodeEventRows(c, gen, [&](const EventRecord& row) { rows->push_back(row); });
}

Status DecodeEventRows(ByteCursor c, RowGeneration gen, const EventRowVisitor& onRow) {
  if (gen == RowGeneration::kNetPerf) return DecodeNetPerfEventRows(c, onRow);
  return ForEachRow(c, gen, [&](const EventRecord& row) {
    onRow(row);
    return Status::Ok();
  });
}

Status DecodeMetadataBlockV4V5(ByteCursor c, BlockContext& ctx) {
  return ForEachRow(c, RowGeneration::kV4V5, [&](const EventRecord& row) {
    EventMetadata m;
    MetadataParseResult r;
    NETTRACE_RETURN_IF_ERROR(ParseMetadataV4V5(row.payload, row.payloadOffset, &m, &r));
    ctx.sawV5Tags |= r.sawV5Tags;
    ctx.stats->unknownMetadataTags += r.unknownTags;
    return ctx.sink->OnMetadata(m);
  });
}

}  // namespace nettrace
