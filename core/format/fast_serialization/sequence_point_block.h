// core/format/fast_serialization — v4/v5 SPBlock content (NetTraceFormat_v5.md
// §SequencePointBlock Object): TimeStamp, ThreadCount, (ThreadId long, seq int)*.
#pragma once

#include "base/status.h"
#include "format/block_context.h"
#include "io/byte_cursor.h"

namespace nettrace {

Status DecodeSequencePointBlockV4V5(ByteCursor content, BlockContext& ctx);

}  // namespace nettrace
