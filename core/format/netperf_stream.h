// core/format — NetPerf versions 1 and 2 (.NET Core 2.0's EventPipeFile object), as the
// runtime's writer of the time laid them out (coreclr 2.0 eventpipefile.cpp,
// fastserializer.cpp) and TraceEvent read them (EventPipeEventSource, SUPPORT_V1_V2):
//
//   int32 20, "!FastSerialization.1"
//   tag 4, type header (tag 4, tag 1, version 1|2, minimum reader version, name
//     "Microsoft.DotNet.Runtime.EventPipeFile", tag 6), then the object's fields:
//     int32 forward-reference index (its value: the offset where the events end),
//     SYSTEMTIME (8 × int16), int64 start timestamp, int64 timestamp frequency
//   events, back to back (no block, no padding), each the row of a NetPerf v3 EventBlock
//   tag 6 (the end of the object) at the offset the forward reference names
//   forward-reference table: int32 count, count × uint32 offsets
//   trailer: uint32 offset of the table, uint32 offset of the trailer (the file's last bytes)
//
// No pointer size, process id nor processor count is stored: pointer size 8 (the writer ran
// on 64-bit Linux only), process 0 and 1 processor, as TraceEvent assumes. A metadata event
// has MetadataId 0 and is named by its own offset (the stream position of its EventSize):
// the events it describes carry that offset as their MetadataId. Its payload: the provider
// (v1: its GUID; v2: its UTF-16 name), int32 EventId, int32 Version, int32 length of the
// event description that follows (0: none; else the v3 description, EventId to fields).
#pragma once

#include <span>

#include "base/status.h"
#include "format/fast_serialization/metadata_payload.h"
#include "format/records.h"
#include "io/byte_cursor.h"

namespace nettrace {

inline constexpr char kNetPerfStreamTypeName[] = "Microsoft.DotNet.Runtime.EventPipeFile";
// The object's fields before the first event: index, SYSTEMTIME, timestamp, frequency.
inline constexpr size_t kNetPerfStreamFieldBytes = 4 + 16 + 8 + 8;
// The writer kept at most 100 forward references: the table and trailer fit in this many
// bytes at the end of the file, which one range read fetches.
inline constexpr size_t kNetPerfTailBytes = 4 + 100 * 4 + 8;

// Decodes the object's fields into info (version, and the assumed pointer size, process and
// processors) and returns the forward-reference index of the end of the events.
Status DecodeNetPerfStreamFields(ByteCursor& c, int32_t version, TraceInfo* info, uint32_t* endReference);

// Finds where the events end from the last bytes of the file: tail holds the file's bytes
// [fileSize - tail.size(), fileSize). eventsStart: the first event's offset (the end
// cannot be before it).
Status FindNetPerfEndOfEvents(std::span<const uint8_t> tail, uint64_t fileSize, uint32_t endReference,
                              uint64_t eventsStart, uint64_t* endOfEvents);

// Decodes a v1/v2 metadata payload; the metadata id is the offset of its row.
Status ParseNetPerfStreamMetadata(std::span<const uint8_t> payload, uint64_t payloadOffset, int32_t version,
                                  uint64_t rowOffset, EventMetadata* out, MetadataParseResult* result);

// The provider name TraceEvent gives a version 1 GUID: the runtime's own providers by a
// fixed table, any other (an EventSource's name hash) "Provider(<guid>)".
std::string NetPerfProviderNameOfGuid(const Guid& guid);

}  // namespace nettrace
