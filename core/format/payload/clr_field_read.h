// core/format/payload — one integer field of a CLR event read where the manifest template
// puts it, without decoding the payload. DecodePayload builds every field (names, values,
// nested arrays) and costs thousands of instructions an event; summaries read one or three
// integers of a few thousand GC events, and those lie behind fixed-size fields only.
// The answer is DecodePayload's whenever this one gives one; kNotFixed means "decode".
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "format/records.h"

namespace nettrace {

struct ClrFieldRead {
  enum class Result : uint8_t {
    kValue,     // `value` is the field, as DecodePayload's PayloadValue::asUInt would give it
    kAbsent,    // the payload ends before the field ends: DecodePayload has no integer there
    kNotFixed,  // not answerable here (metadata-described fields, no template, a field of
                // variable size before it, not an integer): call DecodePayload
  };
  Result result = Result::kNotFixed;
  uint64_t value = 0;
};

// The first top-level field named `name` of the CLR template DecodePayload would use for an
// event with this metadata, when every field before it has a fixed size.
ClrFieldRead ReadClrIntegerField(const EventMetadata& metadata, std::span<const uint8_t> payload,
                                 uint32_t pointerSize, std::string_view name);

// A NUL-terminated UTF-16 string field the same way: its code units (without the
// terminator) when it lies behind fixed-size fields and ends within the payload; kNotFixed
// in every other case (DecodePayload then gives the answer, or its error value).
struct ClrStringRead {
  ClrFieldRead::Result result = ClrFieldRead::Result::kNotFixed;
  std::span<const uint8_t> utf16;
};
ClrStringRead ReadClrStringField(const EventMetadata& metadata, std::span<const uint8_t> payload,
                                 uint32_t pointerSize, std::string_view name);

}  // namespace nettrace
