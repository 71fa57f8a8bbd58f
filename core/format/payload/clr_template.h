// core/format/payload — decodes a CLR runtime/rundown/private event payload by its
// manifest template (format/clr_events.generated.h): v4/v5 runtime events carry no field
// descriptions (format-pitfalls.md §13). Internal to payload_decoder.cc.
#pragma once

#include <vector>

#include "format/clr_events.generated.h"
#include "format/payload/decode_state.h"

namespace nettrace::payload {

struct ClrDecodeResult {
  bool stopped = false;                  // an undecodable field of unknown size ended the walk
  bool exceptionMessageOmitted = false;  // the ExceptionThrown quirk was applied
};

// Decodes the top-level fields of `info` from the payload start. Pointers take
// `pointerSize` bytes; counted arrays, structs and win:Binary take their count from the
// field named by countField (or the literal fixedCount). A payload that ends between two
// top-level fields leaves the rest out (s.shorter): older runtimes write older versions.
ClrDecodeResult DecodeClrTemplate(const clr::EventInfo& info, uint32_t pointerSize, DecodeState& s, ByteCursor& c,
                                  std::vector<PayloadField>* out);

}  // namespace nettrace::payload
