// core/format/v6 — decoders for the v6 block kinds that exist only in v6
// (NetTraceFormat.md): TraceBlock, MetadataBlock, SequencePointBlock, ThreadBlock,
// RemoveThreadBlock, LabelListBlock. EventBlock and StackBlock are shared with v4/v5
// (format/event_block.h, format/stack_block.h). One .cc file per block kind.
#pragma once

#include "base/status.h"
#include "format/block_context.h"
#include "io/byte_cursor.h"

namespace nettrace {

Status DecodeTraceBlockV6(ByteCursor content, TraceInfo* info);
Status DecodeMetadataBlockV6(ByteCursor content, BlockContext& ctx);
Status DecodeSequencePointBlockV6(ByteCursor content, BlockContext& ctx);
Status DecodeThreadBlockV6(ByteCursor content, BlockContext& ctx);
Status DecodeRemoveThreadBlockV6(ByteCursor content, BlockContext& ctx);
Status DecodeLabelListBlockV6(ByteCursor content, BlockContext& ctx);

}  // namespace nettrace
