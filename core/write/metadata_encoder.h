// core/write — encoding of one v6 metadata row (NetTraceFormat.md §MetadataBlock), with
// the checks that make it read back unchanged. Internal to the writer; exposed for its
// unit tests.
#pragma once

#include <cstdint>
#include <vector>

#include "base/status.h"
#include "format/records.h"

namespace nettrace::write_internal {

// The deepest type nesting the reader accepts (format/v6/metadata_block.cc kMaxDepth);
// the writer refuses to produce what our own reader would reject.
inline constexpr int kMaxTypeDepth = 32;

// §MetadataBlock "To determine if a type is fixed size", plus VarInt/VarUInt, which are
// variable length although the list omits them (format-pitfalls.md §11), and RelLoc/
// DataLoc themselves, whose referenced data lies elsewhere in the payload.
bool IsFixedSizeType(const FieldType& type);

// Appends the row, starting with its uint16 Size, to `out`. On error `out` may hold a
// partial row: the caller rolls back.
Status EncodeMetadataRow(const EventMetadata& m, std::vector<uint8_t>& out);

}  // namespace nettrace::write_internal
