// core/format — event rows ("event blobs" in v4/v5): the per-event header in its two
// encodings, uncompressed and header-compressed, for both container generations.
// v4/v5: NetTraceFormat_v5.md §Event blobs; v6: NetTraceFormat.md §Event rows.
// The same decoder reads v4/v5 metadata records, which are event blobs whose payload
// is a metadata description (MetadataBlock in v4/v5).
#pragma once

#include "base/status.h"
#include "format/records.h"
#include "io/byte_cursor.h"

namespace nettrace {

// kNetPerf: NetPerf (format version 3) rows, decoded by format/netperf_event_block.h.
enum class RowGeneration : uint8_t { kV4V5, kV6, kNetPerf };

// The row layout of a trace whose TraceReader::formatMajor() is `formatMajor`.
inline RowGeneration RowGenerationFor(uint32_t formatMajor) {
  return formatMajor >= 6 ? RowGeneration::kV6 : formatMajor <= 3 ? RowGeneration::kNetPerf : RowGeneration::kV4V5;
}

// Decodes the next row at the cursor. `row` holds the previous row's values on entry
// (all zero at the start of a block: both specs say so for compressed headers) and this
// row's values on return, with payload pointing into the cursor's span. The cursor ends
// at the start of the next row.
Status DecodeEventRow(ByteCursor& c, RowGeneration gen, bool compressed, EventRecord* row);

}  // namespace nettrace
