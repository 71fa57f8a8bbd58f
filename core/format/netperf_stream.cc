#include "format/netperf_stream.h"

#include <array>
#include <cstring>
#include <string>

#include "format/decode_util.h"

namespace nettrace {

Status DecodeSystemTime(ByteCursor& c, SystemTime* t);  // fast_serialization/trace_object.cc

namespace {

// A GUID as Guid.ToByteArray() lays it out, from its text form's groups.
constexpr Guid MakeGuid(uint32_t a, uint16_t b, uint16_t c, std::array<uint8_t, 8> d) {
  Guid g;
  for (int i = 0; i < 4; ++i) g.bytes[i] = static_cast<uint8_t>(a >> (8 * i));
  for (int i = 0; i < 2; ++i) g.bytes[4 + i] = static_cast<uint8_t>(b >> (8 * i));
  for (int i = 0; i < 2; ++i) g.bytes[6 + i] = static_cast<uint8_t>(c >> (8 * i));
  for (int i = 0; i < 8; ++i) g.bytes[8 + i] = d[i];
  return g;
}

struct KnownProvider {
  Guid guid;
  const char* name;
};

// The providers TraceEvent's NetPerf reader maps between name and GUID by a fixed table
// (EventPipeEventMetaData.GetProviderGuidFromProviderName); other GUIDs are EventSource
// name hashes, which cannot be turned back into names.
const KnownProvider kKnownProviders[] = {
    {MakeGuid(0xe13c0d23, 0xccbc, 0x4e12, {0x93, 0x1b, 0xd9, 0xcc, 0x2e, 0xee, 0x27, 0xe4}), "Microsoft-Windows-DotNETRuntime"},
    {MakeGuid(0xa669021c, 0xc450, 0x4609, {0xa0, 0x35, 0x5a, 0xf5, 0x9a, 0xf4, 0xdf, 0x18}),
     "Microsoft-Windows-DotNETRuntimeRundown"},
    {MakeGuid(0x763fd754, 0x7086, 0x4dfe, {0x95, 0xeb, 0xc0, 0x1a, 0x46, 0xfa, 0xf4, 0xca}),
     "Microsoft-Windows-DotNETRuntimePrivate"},
    {MakeGuid(0xcc2bcbba, 0x16b6, 0x4cf3, {0x89, 0x90, 0xd7, 0x4c, 0x2e, 0x8a, 0xf5, 0x00}),
     "Microsoft-Windows-DotNETRuntimeStress"},
    {MakeGuid(0x2e5dba47, 0xa3d2, 0x4d16, {0x8e, 0xe0, 0x66, 0x71, 0xff, 0xdc, 0xd7, 0xb5}),
     "System.Threading.Tasks.TplEventSource"},
    {MakeGuid(0x8e9f5090, 0x2d75, 0x4d03, {0x8a, 0x81, 0xe5, 0xaf, 0xbf, 0x85, 0xda, 0xf1}),
     "System.Diagnostics.Eventing.FrameworkEventSource"},
    {MakeGuid(0x3c530d44, 0x97ae, 0x513a, {0x1e, 0x6d, 0x78, 0x3e, 0x8f, 0x8e, 0x03, 0xa9}),
     "Microsoft-DotNETCore-SampleProfiler"},
};

uint32_t ReadU32At(std::span<const uint8_t> b, size_t at) {
  uint32_t v;
  std::memcpy(&v, b.data() + at, 4);
  return v;
}

}  // namespace

Status DecodeNetPerfStreamFields(ByteCursor& c, int32_t version, TraceInfo* info, uint32_t* endReference) {
  if (!c.ReadU32(endReference)) return Overrun(c, "the forward reference to the end of the events");
  NETTRACE_RETURN_IF_ERROR(DecodeSystemTime(c, &info->syncTimeUtc));
  if (!c.ReadI64(&info->syncTimeTicks) || !c.ReadI64(&info->tickFrequency))
    return Overrun(c, "the EventPipeFile object");
  info->traceObjectVersion = static_cast<uint32_t>(version);
  info->formatMajor = static_cast<uint32_t>(version);
  info->pointerSize = 8;
  info->processId = 0;
  info->numberOfProcessors = 1;
  return Status::Ok();
}

Status FindNetPerfEndOfEvents(std::span<const uint8_t> tail, uint64_t fileSize, uint32_t endReference,
                              uint64_t eventsStart, uint64_t* endOfEvents) {
  const uint64_t tailStart = fileSize - tail.size();
  if (tail.size() < 8 || fileSize < tail.size())
    return Status::Error(ErrorCode::kTruncated, fileSize, "the file is too short for the NetPerf trailer");
  const uint32_t table = ReadU32At(tail, tail.size() - 8);
  const uint32_t trailer = ReadU32At(tail, tail.size() - 4);
  // The writer's last act: a file cut short (the usual damage) ends in other bytes.
  if (trailer != fileSize - 8)
    return Status::Error(ErrorCode::kTruncated, fileSize - 4,
                         "the NetPerf trailer names offset " + std::to_string(trailer) + " as its own, but it is at " +
                             std::to_string(fileSize - 8) + ": the file is truncated (or damaged at its end)");
  if (table < tailStart || uint64_t{table} + 4 > trailer)
    return CorruptAt(fileSize - 8, "the forward-reference table offset " + std::to_string(table) +
                                       " is outside the last " + std::to_string(tail.size()) + " bytes");
  const uint32_t count = ReadU32At(tail, table - tailStart);
  if (uint64_t{table} + 4 + uint64_t{count} * 4 != trailer)
    return CorruptAt(table, "the forward-reference table's count " + std::to_string(count) +
                                " does not reach the trailer at " + std::to_string(trailer));
  if (endReference >= count)
    return CorruptAt(table, "forward reference " + std::to_string(endReference) + " is not in the table of " +
                                std::to_string(count));
  const uint32_t end = ReadU32At(tail, table - tailStart + 4 + 4 * size_t{endReference});
  // The events end at the object's end tag, which comes before the table.
  if (end < eventsStart || end >= table)
    return CorruptAt(table + 4 + 4 * uint64_t{endReference},
                     "the end of the events, offset " + std::to_string(end) + ", is not between the first event (" +
                         std::to_string(eventsStart) + ") and the forward-reference table (" + std::to_string(table) + ")");
  *endOfEvents = end;
  return Status::Ok();
}

Status ParseNetPerfStreamMetadata(std::span<const uint8_t> payload, uint64_t payloadOffset, int32_t version,
                                  uint64_t rowOffset, EventMetadata* m, MetadataParseResult* result) {
  ByteCursor c(payload, payloadOffset);
  m->id = static_cast<uint32_t>(rowOffset);
  if (version == 1) {
    std::span<const uint8_t> g;
    if (!c.ReadBytes(16, &g)) return Overrun(c, "a metadata provider GUID");
    Guid guid;
    std::copy(g.begin(), g.end(), guid.bytes.begin());
    m->providerGuid = guid;
    m->providerName = NetPerfProviderNameOfGuid(guid);
  } else if (!c.ReadNullTerminatedUtf16(&m->providerName)) {
    return Overrun(c, "a metadata provider name");
  }
  int32_t eventId, eventVersion, length;
  if (!c.ReadI32(&eventId) || !c.ReadI32(&eventVersion) || !c.ReadI32(&length))
    return Overrun(c, "a metadata event id, version and description length");
  m->eventId = static_cast<uint32_t>(eventId);
  m->version = static_cast<uint32_t>(eventVersion);
  if (length == 0) return Status::Ok();  // the runtime's own events: named by provider and id
  if (length < 0 || static_cast<size_t>(length) != c.remaining())
    return CorruptAt(c.fileOffset() - 4, "metadata description of " + std::to_string(length) + " bytes, but " +
                                             std::to_string(c.remaining()) + " bytes remain in the payload");
  return ParseEventDescription(c, m, result);
}

std::string NetPerfProviderNameOfGuid(const Guid& guid) {
  for (const KnownProvider& p : kKnownProviders)
    if (p.guid.bytes == guid.bytes) return p.name;
  // As TraceEvent names a provider it knows only by GUID: "Provider(xxxxxxxx-xxxx-...)".
  static constexpr int kOrder[16] = {3, 2, 1, 0, 5, 4, 7, 6, 8, 9, 10, 11, 12, 13, 14, 15};
  static constexpr char kHex[] = "0123456789abcdef";
  std::string name = "Provider(";
  for (int i = 0; i < 16; ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) name += '-';
    const uint8_t b = guid.bytes[kOrder[i]];
    name += kHex[b >> 4];
    name += kHex[b & 15];
  }
  return name + ")";
}

}  // namespace nettrace
