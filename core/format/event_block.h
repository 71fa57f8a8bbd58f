// core/format — EventBlock content (both generations share it: NetTraceFormat.md
// §EventBlock, NetTraceFormat_v5.md §The EventBlock Object): a header whose first
// short is its own size, then event rows to the end of the block. In v4/v5 the
// MetadataBlock has the same layout with metadata descriptions as payloads.
#pragma once

#include <functional>
#include <vector>

#include "base/status.h"
#include "format/block_context.h"
#include "io/byte_cursor.h"

namespace nettrace {

// content: the block's bytes after BlockSize and alignment padding.
Status DecodeEventBlock(ByteCursor content, BlockContext& ctx);
// Re-decodes all rows of an event block read again from the file (compressed headers are
// deltas of the previous row, so rows are only decodable from the block start). Payload
// spans point into `content`.
Status DecodeEventRows(ByteCursor content, RowGeneration gen, std::vector<EventRecord>* rows);
// The same, each row handed to `onRow` as it is decoded (valid during the call only), so a
// caller that keeps a few fields of each row never holds the whole records of a block.
using EventRowVisitor = std::function<void(const EventRecord& row)>;
Status DecodeEventRows(ByteCursor content, RowGeneration gen, const EventRowVisitor& onRow);
// v4/v5 MetadataBlock: rows are event blobs with metadata payloads.
Status DecodeMetadataBlockV4V5(ByteCursor content, BlockContext& ctx);

}  // namespace nettrace
