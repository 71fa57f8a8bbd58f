// core/format/fast_serialization — the v4/v5 metadata record: the payload of an event
// blob inside a MetadataBlock (NetTraceFormat_v5.md §Metadata event encoding): header,
// V1 field list, then (v5) tags: OpCode and V2Params. V2Params follows the runtime's
// layout, not the v5 document's (format-pitfalls.md §8).
#pragma once

#include <span>

#include "base/status.h"
#include "format/records.h"
#include "io/byte_cursor.h"

namespace nettrace {

struct MetadataParseResult {
  bool sawV5Tags = false;    // any tag after the V1 fields: the file is v5
  uint32_t unknownTags = 0;  // tags skipped because their kind is unknown
};

// payloadOffset: absolute file offset of the payload, for error messages.
Status ParseMetadataV4V5(std::span<const uint8_t> payload, uint64_t payloadOffset, EventMetadata* out,
                         MetadataParseResult* result);

// The event description that follows the provider in a metadata record: EventId, UTF-16
// name, keywords, version, level, V1 fields, then (v5) tags, up to the cursor's end.
// NetPerf versions 1 and 2 carry the same description after their own provider header.
Status ParseEventDescription(ByteCursor& c, EventMetadata* out, MetadataParseResult* result);

}  // namespace nettrace
