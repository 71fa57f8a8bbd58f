// core/format — what the tokenizers hand on. Every record is a plain value decoded from
// the wire, in file order, with nothing resolved yet (ids stay ids). The same structs are
// what the v6 writer (core/write) takes, so a write → read round trip can compare them
// field by field. Which fields a format version fills is noted on each member.
#pragma once

#include <array>
#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace nettrace {

// 16 raw bytes as stored on the wire (a .NET Guid: int32, int16, int16, 8 bytes, LE).
struct Guid {
  std::array<uint8_t, 16> bytes{};
  // Inline, two 8-byte loads: asked twice per event (activity and related activity ids).
  bool IsZero() const {
    uint64_t lo, hi;
    std::memcpy(&lo, bytes.data(), 8);
    std::memcpy(&hi, bytes.data() + 8, 8);
    return (lo | hi) == 0;
  }
  // "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx" in .NET's field order.
  std::string ToString() const;
  friend bool operator==(const Guid&, const Guid&) = default;
};

struct KeyValue {
  std::string key;
  std::string value;
  friend bool operator==(const KeyValue&, const KeyValue&) = default;
};

// Trace object (v4/v5) / TraceBlock (v6) SyncTimeUTC: a Windows SYSTEMTIME.
struct SystemTime {
  int16_t year = 0, month = 0, dayOfWeek = 0, day = 0, hour = 0, minute = 0, second = 0, millisecond = 0;
  friend bool operator==(const SystemTime&, const SystemTime&) = default;
};

struct TraceInfo {
  uint32_t formatMajor = 0;  // 3 (NetPerf), 4, 5 (v4 + V5 metadata tags seen) or 6; stream header
  uint32_t formatMinor = 0;  // v6 only
  uint32_t traceObjectVersion = 0;  // v4/v5 FastSerialization Trace object version (4)
  SystemTime syncTimeUtc;
  int64_t syncTimeTicks = 0;   // "SyncTimeQPC" in v4/v5
  int64_t tickFrequency = 0;   // "QPCFrequency" in v4/v5
  uint32_t pointerSize = 0;
  // v4/v5 fields; in v6 filled from the well-known key/values when present.
  uint32_t processId = 0;
  uint32_t numberOfProcessors = 0;
  uint32_t expectedCpuSamplingRate = 0;
  std::vector<KeyValue> keyValues;  // v6 only, file order
  friend bool operator==(const TraceInfo&, const TraceInfo&) = default;
};

// A v6 well-known trace key's value as the field it replaced: a plain decimal number that
// fits 32 bits, else 0 (the key/value itself stays visible). The reader and the writer both
// use this rule, so a trace block the writer accepts reads back with the same fields.
uint32_t ParseTraceKeyDecimal(std::string_view s);

// Payload field type codes: System.TypeCode for v4/v5, extended in v6
// (NetTraceFormat.md §MetadataBlock "enum TypeCode").
enum class TypeCode : uint8_t {
  kEmpty = 0,
  kObject = 1,
  kDBNull = 2,
  kBoolean32 = 3,
  kUTF16CodeUnit = 4,
  kSByte = 5,
  kByte = 6,
  kInt16 = 7,
  kUInt16 = 8,
  kInt32 = 9,
  kUInt32 = 10,
  kInt64 = 11,
  kUInt64 = 12,
  kSingle = 13,
  kDouble = 14,
  kDecimal = 15,
  kDateTime = 16,
  kGuid = 17,
  kNullTerminatedUTF16String = 18,
  kArray = 19,
  kVarInt = 20,
  kVarUInt = 21,
  kFixedLengthArray = 22,
  kUTF8CodeUnit = 23,
  kRelLoc = 24,
  kDataLoc = 25,
  kBoolean8 = 26,
};

// Codes a metadata field may carry and a NetTrace v6 file can express: the v6 enum, plus
// 15 Decimal (the v6 change list removes no code, the runtime describes decimal fields with
// it, and TraceEvent's v6 reader takes it as v4/v5's 16-byte System.Decimal). 0 Empty,
// 2 DBNull and codes above 26 describe no payload layout (TraceEvent's v6 reader rejects a
// whole trace on them), so the reference tracker cuts a field list before them.
inline bool IsDefinedTypeCode(TypeCode c) {
  const uint8_t v = static_cast<uint8_t>(c);
  return v >= 1 && v <= 26 && v != 2;
}

struct FieldDescription;

struct FieldType {
  TypeCode code = TypeCode::kEmpty;
  // Array, FixedLengthArray, RelLoc, DataLoc: exactly one element type.
  std::vector<FieldType> element;
  uint16_t fixedLength = 0;  // FixedLengthArray only
  // Object: the nested fields.
  std::vector<FieldDescription> fields;
  friend bool operator==(const FieldType&, const FieldType&);
};

struct FieldDescription {
  std::string name;
  FieldType type;
  friend bool operator==(const FieldDescription&, const FieldDescription&) = default;
};

// Types nest at most this deep (metadata and payloads alike): deeper ones are refused by
// the v6 decoder and cut by the reference tracker, so recursion stays bounded.
inline constexpr int kMaxTypeDepth = 32;

// §MetadataBlock: whether values of `t` have one size. Arrays, NUL-terminated strings and
// VarInt/VarUInt do not (the spec's list omits the varints, format-pitfalls.md §11); an
// Object is fixed size iff its fields are, a FixedLengthArray iff its element is; all
// others are (RelLoc/DataLoc are a 4-byte location).
bool IsFixedSizeType(const FieldType& t);

// Whether `t` (at nesting `depth`) describes a payload layout NetTrace v6 can write: a
// defined type code, exactly one element type for Array/FixedLengthArray/RelLoc/DataLoc
// and none for others, fields only in an Object, a count only in a FixedLengthArray,
// RelLoc/DataLoc elements of fixed size, nesting within kMaxTypeDepth.
bool DescribesLayout(const FieldType& t, int depth = 0);

inline bool operator==(const FieldType& a, const FieldType& b) {
  return a.code == b.code && a.fixedLength == b.fixedLength && a.element == b.element && a.fields == b.fields;
}

// v6 OptionalMetadataKind (NetTraceFormat.md §MetadataBlock).
enum class OptionalMetadataKind : uint8_t {
  kOpCode = 1,
  kKeyword = 3,
  kMessageTemplate = 4,
  kDescription = 5,
  kKeyValue = 6,
  kProviderGuid = 7,
  kLevel = 8,
  kVersion = 9,
};

struct EventMetadata {
  uint32_t id = 0;
  std::string providerName;
  uint32_t eventId = 0;
  std::string eventName;  // empty for CLR runtime providers in v4/v5
  // v4/v5 always present; v6 optional (absent reads as 0 / nullopt).
  uint64_t keywords = 0;
  uint32_t version = 0;
  uint32_t level = 0;
  std::optional<uint8_t> opcode;  // v5 OpCode tag, v6 optional metadata
  std::vector<FieldDescription> fields;
  bool fieldsFromV2Params = false;  // v5: the V2Params tag replaced the (empty) V1 list
  // v6 optional metadata.
  bool hasKeywords = false, hasLevel = false, hasVersion = false;
  std::optional<std::string> messageTemplate;
  std::optional<std::string> description;
  std::vector<KeyValue> attributes;
  std::optional<Guid> providerGuid;
  friend bool operator==(const EventMetadata&, const EventMetadata&) = default;
};

// v6 ThreadBlock row.
struct ThreadInfo {
  uint64_t index = 0;
  std::optional<std::string> name;
  std::optional<uint64_t> osProcessId;
  std::optional<uint64_t> osThreadId;
  std::vector<KeyValue> attributes;
  friend bool operator==(const ThreadInfo&, const ThreadInfo&) = default;
};

// v6 LabelListBlock entry kinds (NetTraceFormat.md §LabelListBlock).
enum class LabelKind : uint8_t {
  kActivityId = 1,
  kRelatedActivityId = 2,
  kTraceId = 3,
  kSpanId = 4,
  kStringKeyValue = 5,
  kIntKeyValue = 6,
  kOpCode = 7,
  kKeywords = 8,
  kLevel = 9,
  kVersion = 10,
};

struct Label {
  LabelKind kind = LabelKind::kActivityId;
  Guid guid;                  // ActivityId, RelatedActivityId, TraceId (16 raw bytes)
  uint64_t number = 0;        // SpanId, Keywords, OpCode/Level/Version (uint8 widened)
  int64_t intValue = 0;       // IntKeyValue
  std::string key, value;     // String/IntKeyValue key; StringKeyValue value
  friend bool operator==(const Label&, const Label&) = default;
};

// One label list, labels in file order.
struct LabelList {
  std::vector<Label> labels;
  friend bool operator==(const LabelList&, const LabelList&) = default;
};

// One event row / blob, as decoded from its header. The payload span points into the
// block being decoded and is valid only during the sink callback; payloadOffset is its
// absolute file offset so it can be re-read later.
struct EventRecord {
  uint32_t metadataId = 0;
  uint32_t sequenceNumber = 0;
  uint64_t thread = 0;         // v4/v5 ThreadId; v6 ThreadIndex
  uint64_t captureThread = 0;  // v4/v5 CaptureThreadId; v6 CaptureThreadIndex
  uint32_t processorNumber = 0;
  uint32_t stackId = 0;
  uint64_t timestamp = 0;
  uint32_t labelListId = 0;  // v6 only
  Guid activityId;           // v4/v5 only
  Guid relatedActivityId;    // v4/v5 only
  bool isSorted = false;
  std::span<const uint8_t> payload;
  uint64_t payloadOffset = 0;
};

// What an event shows beyond the store's columns (the event table's details, the payload
// exports, the payload text search), taken from its row re-decoded from its block: the payload
// span points into that block's bytes wherever they are kept.
struct EventDetail {
  uint32_t processorNumber = 0;
  uint32_t sequenceNumber = 0;
  uint64_t payloadOffset = 0;  // absolute file offset of the payload
  std::span<const uint8_t> payload;
};

struct ThreadSequence {
  uint64_t thread = 0;  // v4/v5 thread id; v6 thread index
  uint32_t sequenceNumber = 0;
  friend bool operator==(const ThreadSequence&, const ThreadSequence&) = default;
};

struct SequencePoint {
  uint64_t timestamp = 0;
  uint32_t flags = 0;  // v6: 1 = flush threads, 2 = flush metadata
  std::vector<ThreadSequence> threads;
  friend bool operator==(const SequencePoint&, const SequencePoint&) = default;
};

inline constexpr uint32_t kSequencePointFlushThreads = 1;
inline constexpr uint32_t kSequencePointFlushMetadata = 2;

// The kinds of blocks / objects, shared by both container formats. Values are the v6
// BlockKind numbers (NetTraceFormat.md §Blocks); v4/v5 objects map onto them by name.
enum class BlockKind : uint8_t {
  kEndOfStream = 0,
  kTrace = 1,
  kEvent = 2,
  kMetadata = 3,
  kSequencePoint = 4,
  kStack = 5,
  kThread = 6,
  kRemoveThread = 7,
  kLabelList = 8,
  kUnknown = 255,
};

const char* BlockKindName(BlockKind kind);

struct BlockInfo {
  BlockKind kind = BlockKind::kUnknown;
  uint8_t rawKind = 0;        // v6 kind byte as read (differs from kind for unknown kinds)
  uint64_t offset = 0;        // file offset of the block/object start
  uint64_t payloadSize = 0;   // bytes of block content
  uint64_t contentOffset = 0; // file offset of the content (after v4/v5 size + padding)
};

}  // namespace nettrace
