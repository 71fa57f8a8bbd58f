// core/write — encoding of one v6 metadata row (NetTraceFormat.md §MetadataBlock), with
// the checks that make it read back unchanged. Internal to the writer; exposed for its
// unit tests.
#pragma once

#include <cstdint>
#include <vector>

#include "base/status.h"
#include "format/records.h"

namespace nettrace::write_internal {

// Nesting depth and fixed-size types follow format/records.h (kMaxTypeDepth,
// IsFixedSizeType), the same rules the reader applies.

// Appends the row, starting with its uint16 Size, to `out`. On error `out` may hold a
// partial row: the caller rolls back.
Status EncodeMetadataRow(const EventMetadata& m, std::vector<uint8_t>& out);

}  // namespace nettrace::write_internal
