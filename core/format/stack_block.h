// core/format — StackBlock content, identical in both generations (NetTraceFormat.md
// §StackBlock Object): First Id, Count, then Count × (size, bytes). Ids count up from
// First Id; they are valid until the next sequence point (the reference tracker checks).
#pragma once

#include "base/status.h"
#include "format/block_context.h"
#include "io/byte_cursor.h"

namespace nettrace {

Status DecodeStackBlock(ByteCursor content, BlockContext& ctx);

}  // namespace nettrace
