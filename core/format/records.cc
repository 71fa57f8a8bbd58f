#include "format/records.h"

#include <cstdio>

namespace nettrace {

bool Guid::IsZero() const {
  for (uint8_t b : bytes)
    if (b) return false;
  return true;
}

std::string Guid::ToString() const {
  // .NET layout: Data1 (LE int32), Data2 (LE int16), Data3 (LE int16), Data4 (8 bytes).
  const uint8_t* b = bytes.data();
  char buf[40];
  std::snprintf(buf, sizeof buf, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[3], b[2],
                b[1], b[0], b[5], b[4], b[7], b[6], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]);
  return buf;
}

const char* BlockKindName(BlockKind kind) {
  switch (kind) {
    case BlockKind::kEndOfStream: return "EndOfStream";
    case BlockKind::kTrace: return "Trace";
    case BlockKind::kEvent: return "Event";
    case BlockKind::kMetadata: return "Metadata";
    case BlockKind::kSequencePoint: return "SequencePoint";
    case BlockKind::kStack: return "Stack";
    case BlockKind::kThread: return "Thread";
    case BlockKind::kRemoveThread: return "RemoveThread";
    case BlockKind::kLabelList: return "LabelList";
    case BlockKind::kUnknown: return "Unknown";
  }
  return "Unknown";
}

}  // namespace nettrace
