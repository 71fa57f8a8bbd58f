#include "format/records.h"

#include <cstdio>

namespace nettrace {

uint32_t ParseTraceKeyDecimal(std::string_view s) {
  if (s.empty() || s.size() > 10) return 0;
  uint64_t v = 0;
  for (char ch : s) {
    if (ch < '0' || ch > '9') return 0;
    v = v * 10 + static_cast<uint64_t>(ch - '0');
  }
  return v > 0xFFFFFFFFu ? 0 : static_cast<uint32_t>(v);
}

bool IsFixedSizeType(const FieldType& t) {
  switch (t.code) {
    case TypeCode::kObject:
      for (const FieldDescription& f : t.fields)
        if (!IsFixedSizeType(f.type)) return false;
      return true;
    case TypeCode::kFixedLengthArray: return t.element.size() == 1 && IsFixedSizeType(t.element[0]);
    case TypeCode::kArray:
    case TypeCode::kNullTerminatedUTF16String:
    case TypeCode::kVarInt:
    case TypeCode::kVarUInt: return false;
    default: return true;
  }
}

bool DescribesLayout(const FieldType& t, int depth) {
  if (depth > kMaxTypeDepth || !IsDefinedTypeCode(t.code)) return false;
  const bool location = t.code == TypeCode::kRelLoc || t.code == TypeCode::kDataLoc;
  const bool container = location || t.code == TypeCode::kArray || t.code == TypeCode::kFixedLengthArray;
  if (container != (t.element.size() == 1)) return false;
  if (t.code != TypeCode::kObject && !t.fields.empty()) return false;
  if (t.code != TypeCode::kFixedLengthArray && t.fixedLength != 0) return false;
  if (location && !IsFixedSizeType(t.element[0])) return false;
  if (container) return DescribesLayout(t.element[0], depth + 1);
  if (t.fields.size() > 0xFFFF) return false;  // §FieldDescriptions: a uint16 Count
  for (const FieldDescription& f : t.fields)
    if (!DescribesLayout(f.type, depth + 1)) return false;
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
