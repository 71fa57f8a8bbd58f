// core/write — the v4/v5 metadata record: the payload of an event blob inside a
// MetadataBlock (NetTraceFormat_v5.md §Metadata event encoding), the inverse of
// format/fast_serialization/metadata_payload.cc. Header (id, provider, event id, name,
// keywords, version, level), the V1 field list, then the v5 tags OpCode and V2Params in
// the runtime's layout (format-pitfalls.md §8). Internal to the v4/v5 writer.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "format/records.h"

namespace nettrace::write_internal {

// The reader refuses a V1 or V2 field list longer than this (metadata_payload.cc
// kMaxFields); the writer refuses to produce one.
inline constexpr size_t kMaxV5FieldsPerList = 4096;

// Appends `utf8` as UTF-16LE code units and a 0 terminator (the v4/v5 "string" of
// metadata records). Fails, leaving `out` possibly extended, if the text would not read
// back unchanged: invalid UTF-8, or a NUL that would end the string early.
Status PutNullTerminatedUtf16(std::vector<uint8_t>& out, std::string_view utf8, const std::string& what);

// Appends the metadata payload of `m` to `out`. allowTags = false (v4) refuses what only
// v5 tags can carry: an opcode, or fields that need V2Params (fieldsFromV2Params).
// hasKeywords / hasLevel / hasVersion are ignored: v4/v5 always carry all three values.
// On error `out` may hold a partial payload: the caller rolls back.
Status EncodeV5MetadataPayload(const EventMetadata& m, bool allowTags, std::vector<uint8_t>& out);

}  // namespace nettrace::write_internal
