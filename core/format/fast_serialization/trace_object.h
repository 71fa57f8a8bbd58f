// core/format/fast_serialization — the v4/v5 Trace object's fields
// (NetTraceFormat_v5.md §The First Object: The Trace Object).
#pragma once

#include "base/status.h"
#include "format/records.h"
#include "io/byte_cursor.h"

namespace nettrace {

inline constexpr size_t kTraceObjectV4FieldBytes = 8 * 2 + 8 + 8 + 4 * 4;

Status DecodeTraceObjectFields(ByteCursor& c, TraceInfo* info);

}  // namespace nettrace
