#include "write/nettrace_writer.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <utility>

#include "write/event_row_encoder.h"
#include "write/metadata_encoder.h"
#include "write/wire.h"

namespace nettrace {

namespace {

Status Invalid(std::string message) {
  return Status::Error(ErrorCode::kInvalidArgument, kNoOffset, std::move(message));
}

Status TooManyRows(size_t count, const char* what) {
  return Status::Error(ErrorCode::kLimitExceeded, kNoOffset,
                       std::to_string(count) + " " + what + " cannot fit in one block (16 MiB)");
}

// NetTraceFormat.md §TraceBlock: the well-known keys that replaced the v4/v5 Trace object
// fields. Readers parse them as decimal numbers.
struct WellKnownKey {
  const char* key;
  uint32_t TraceInfo::*field;
};
constexpr WellKnownKey kWellKnownKeys[] = {
    {"ProcessId", &TraceInfo::processId},
    {"HardwareThreadCount", &TraceInfo::numberOfProcessors},
    {"ExpectedCPUSamplingRate", &TraceInfo::expectedCpuSamplingRate},
};

// §ThreadBlock OptionalThreadInfo kinds.
constexpr uint8_t kThreadName = 1, kThreadOSProcessId = 2, kThreadOSThreadId = 3, kThreadKeyValue = 4;
// §LabelListBlock: a Kind with the high bit set is the last label of its list.
constexpr uint8_t kLastLabelBit = 0x80;

Status EncodeLabel(const Label& l, bool last, std::vector<uint8_t>& out) {
  const uint8_t kind = static_cast<uint8_t>(l.kind);
  wire::PutU8(out, kind | (last ? kLastLabelBit : 0));
  switch (l.kind) {
    case LabelKind::kActivityId:
    case LabelKind::kRelatedActivityId:
    case LabelKind::kTraceId:  // byte[16], kept in the Guid's raw bytes
      wire::PutBytes(out, l.guid.bytes);
      return Status::Ok();
    case LabelKind::kSpanId:
    case LabelKind::kKeywords: wire::PutU64(out, l.number); return Status::Ok();
    case LabelKind::kStringKeyValue:
      wire::PutString(out, l.key);
      wire::PutString(out, l.value);
      return Status::Ok();
    case LabelKind::kIntKeyValue:
      wire::PutString(out, l.key);
      wire::PutVarInt(out, l.intValue);  // varint64
      return Status::Ok();
    case LabelKind::kOpCode:
    case LabelKind::kLevel:
    case LabelKind::kVersion:
      if (l.number > 0xFF)
        return Invalid("label kind " + std::to_string(kind) + " value " + std::to_string(l.number) +
                       " does not fit a uint8");
      wire::PutU8(out, static_cast<uint8_t>(l.number));
      return Status::Ok();
  }
  return Invalid("unknown label kind " + std::to_string(kind));
}

}  // namespace

NetTraceV6Writer::NetTraceV6Writer(uint32_t majorVersion, uint32_t minorVersion) {
  // §First Bytes: "Nettrace", uint32 Reserved = 0, uint32 MajorVersion, uint32 MinorVersion.
  static constexpr uint8_t kMagic[8] = {'N', 'e', 't', 't', 'r', 'a', 'c', 'e'};
  wire::PutBytes(bytes_, kMagic);
  wire::PutU32(bytes_, 0);
  wire::PutU32(bytes_, majorVersion);
  wire::PutU32(bytes_, minorVersion);
}

std::vector<uint8_t> NetTraceV6Writer::TakeBytes() {
  taken_ += bytes_.size();
  return std::exchange(bytes_, {});
}

Status NetTraceV6Writer::RequireBlocksState(const char* what) const {
  if (state_ == State::kNeedTraceBlock)
    return Invalid(std::string(what) + " before the trace block (NetTraceFormat.md §TraceBlock: it comes first)");
  if (state_ == State::kEnded) return Invalid(std::string(what) + " after the end-of-stream block");
  return Status::Ok();
}

// §Blocks: a little-endian uint32 X with BlockSize = X & 0xFFFFFF, BlockKind = X >> 24.
size_t NetTraceV6Writer::BeginBlock(uint8_t kind) {
  const size_t start = bytes_.size();
  wire::PutU32(bytes_, uint32_t{kind} << 24);
  return start;
}

Status NetTraceV6Writer::EndBlock(size_t start, const char* what) {
  const size_t content = bytes_.size() - start - 4;
  if (content > kMaxBlockContent) {
    bytes_.resize(start);
    return Status::Error(ErrorCode::kLimitExceeded, kNoOffset,
                         std::string(what) + " block content of " + std::to_string(content) +
                             " bytes exceeds the 24-bit BlockSize limit of 16777215");
  }
  uint32_t header;
  std::memcpy(&header, bytes_.data() + start, 4);
  wire::PatchU32(bytes_, start, header | static_cast<uint32_t>(content));
  return Status::Ok();
}

Status NetTraceV6Writer::FinishBlock(size_t start, Status encoded, const char* what) {
  if (!encoded.ok()) {
    bytes_.resize(start);
    return encoded;
  }
  return EndBlock(start, what);
}

Status NetTraceV6Writer::WriteTraceBlock(const TraceInfo& info) {
  if (state_ != State::kNeedTraceBlock) return Invalid("the trace block is written once, first");
  if (info.pointerSize != 4 && info.pointerSize != 8)
    return Invalid("pointer size " + std::to_string(info.pointerSize) + " is neither 4 nor 8");
  std::vector<KeyValue> keyValues = info.keyValues;
  for (const WellKnownKey& w : kWellKnownKeys) {
    const uint32_t value = info.*w.field;
    // A reader takes the field from the last such key (ParseTraceKeyDecimal): refuse only a
    // field that would not read back, not a key spelled differently ("0042" for 42).
    auto it = std::find_if(keyValues.rbegin(), keyValues.rend(), [&](const KeyValue& kv) { return kv.key == w.key; });
    if (it == keyValues.rend()) {
      if (value != 0) keyValues.push_back({w.key, std::to_string(value)});
    } else if (value != 0 && ParseTraceKeyDecimal(it->value) != value) {
      return Invalid(std::string("trace key ") + w.key + "=" + it->value + " disagrees with the field value " +
                     std::to_string(value));
    }
  }
  const size_t start = BeginBlock(static_cast<uint8_t>(BlockKind::kTrace));
  // §TraceBlock: SyncTimeUTC as 8 shorts, SyncTimeTicks, TickFrequency, PointerSize,
  // KeyValueCount, then key/value strings.
  const SystemTime& t = info.syncTimeUtc;
  for (int16_t v : {t.year, t.month, t.dayOfWeek, t.day, t.hour, t.minute, t.second, t.millisecond})
    wire::PutI16(bytes_, v);
  wire::PutI64(bytes_, info.syncTimeTicks);
  wire::PutI64(bytes_, info.tickFrequency);
  wire::PutI32(bytes_, static_cast<int32_t>(info.pointerSize));
  wire::PutI32(bytes_, static_cast<int32_t>(keyValues.size()));
  for (const KeyValue& kv : keyValues) {
    wire::PutString(bytes_, kv.key);
    wire::PutString(bytes_, kv.value);
  }
  NETTRACE_RETURN_IF_ERROR(EndBlock(start, "trace"));
  pointerSize_ = info.pointerSize;
  state_ = State::kBlocks;
  return Status::Ok();
}

Status NetTraceV6Writer::WriteMetadataBlock(std::span<const EventMetadata> rows, uint16_t extraHeaderBytes) {
  NETTRACE_RETURN_IF_ERROR(RequireBlocksState("a metadata block"));
  const size_t start = BeginBlock(static_cast<uint8_t>(BlockKind::kMetadata));
  // §MetadataBlock: uint16 HeaderSize NOT counting itself (unlike the EventBlock's),
  // then that many uninterpreted bytes.
  wire::PutU16(bytes_, extraHeaderBytes);
  bytes_.resize(bytes_.size() + extraHeaderBytes, 0);
  Status s;
  for (const EventMetadata& m : rows) {
    s = write_internal::EncodeMetadataRow(m, bytes_);
    if (!s.ok()) break;
  }
  return FinishBlock(start, s, "metadata");
}

// §ThreadBlock row: uint16 RowSize (not counting itself), varuint64 Index, then
// OptionalThreadInfo entries.
Status NetTraceV6Writer::WriteThreadBlock(std::span<const ThreadInfo> threads) {
  NETTRACE_RETURN_IF_ERROR(RequireBlocksState("a thread block"));
  const size_t start = BeginBlock(static_cast<uint8_t>(BlockKind::kThread));
  Status s;
  for (const ThreadInfo& t : threads) {
    const size_t sizeAt = bytes_.size();
    wire::PutU16(bytes_, 0);
    wire::PutVarUInt(bytes_, t.index);
    if (t.name) wire::PutU8(bytes_, kThreadName), wire::PutString(bytes_, *t.name);
    if (t.osProcessId) wire::PutU8(bytes_, kThreadOSProcessId), wire::PutVarUInt(bytes_, *t.osProcessId);
    if (t.osThreadId) wire::PutU8(bytes_, kThreadOSThreadId), wire::PutVarUInt(bytes_, *t.osThreadId);
    for (const KeyValue& kv : t.attributes) {
      wire::PutU8(bytes_, kThreadKeyValue);
      wire::PutString(bytes_, kv.key);
      wire::PutString(bytes_, kv.value);
    }
    const size_t rowSize = bytes_.size() - sizeAt - 2;
    if (rowSize > 0xFFFF) {
      s = Status::Error(ErrorCode::kLimitExceeded, kNoOffset,
                        "thread row " + std::to_string(t.index) + " is " + std::to_string(rowSize) +
                            " bytes; its uint16 RowSize allows 65535");
      break;
    }
    wire::PatchU16(bytes_, sizeAt, static_cast<uint16_t>(rowSize));
  }
  return FinishBlock(start, s, "thread");
}

// §RemoveThreadBlock: (varuint Index, varuint SequenceNumber) pairs, no count.
Status NetTraceV6Writer::WriteRemoveThreadBlock(std::span<const ThreadSequence> threads) {
  NETTRACE_RETURN_IF_ERROR(RequireBlocksState("a remove-thread block"));
  const size_t start = BeginBlock(static_cast<uint8_t>(BlockKind::kRemoveThread));
  for (const ThreadSequence& t : threads) {
    wire::PutVarUInt(bytes_, t.thread);
    wire::PutVarUInt(bytes_, t.sequenceNumber);
  }
  return EndBlock(start, "remove-thread");
}

// §StackBlock: uint32 FirstId, uint32 Count, then per stack uint32 size + IP bytes.
Status NetTraceV6Writer::WriteStackBlock(uint32_t firstId, std::span<const std::vector<uint8_t>> stacks) {
  NETTRACE_RETURN_IF_ERROR(RequireBlocksState("a stack block"));
  if (!stacks.empty() && uint64_t{firstId} + stacks.size() - 1 > 0xFFFFFFFFu)
    return Invalid("stack ids from " + std::to_string(firstId) + " overflow 32 bits");
  // §Version 5 -> 6: "All stack block IPs should use this pointer size".
  for (const auto& stack : stacks)
    if (stack.size() % pointerSize_ != 0)
      return Invalid("a stack of " + std::to_string(stack.size()) + " bytes is not a whole number of " +
                     std::to_string(pointerSize_) + "-byte IPs");
  // Each stack costs at least its 4-byte size; more than fit is refused before copying.
  if (stacks.size() > kMaxBlockContent / 4) return TooManyRows(stacks.size(), "stacks");
  const size_t start = BeginBlock(static_cast<uint8_t>(BlockKind::kStack));
  wire::PutU32(bytes_, firstId);
  wire::PutU32(bytes_, static_cast<uint32_t>(stacks.size()));
  for (const auto& stack : stacks) {
    wire::PutU32(bytes_, static_cast<uint32_t>(std::min<size_t>(stack.size(), 0xFFFFFFFFu)));
    wire::PutBytes(bytes_, stack);
    if (bytes_.size() - start > kMaxBlockContent + 4) break;  // EndBlock reports the overflow
  }
  return EndBlock(start, "stack");
}

// §LabelListBlock: uint32 firstIndex (>= 1), uint32 count, then the lists, each one or
// more labels whose last has the high bit of its Kind set.
Status NetTraceV6Writer::WriteLabelListBlock(uint32_t firstIndex, std::span<const LabelList> lists) {
  NETTRACE_RETURN_IF_ERROR(RequireBlocksState("a label list block"));
  if (firstIndex == 0) return Invalid("label list firstIndex must be >= 1 (index 0 is the implicit empty list)");
  if (uint64_t{firstIndex} + lists.size() - 1 > 0xFFFFFFFFu && !lists.empty())
    return Invalid("label list ids from " + std::to_string(firstIndex) + " overflow 32 bits");
  // Each list costs at least 2 bytes (a kind and a uint8 value).
  if (lists.size() > kMaxBlockContent / 2) return TooManyRows(lists.size(), "label lists");
  const size_t start = BeginBlock(static_cast<uint8_t>(BlockKind::kLabelList));
  wire::PutU32(bytes_, firstIndex);
  wire::PutU32(bytes_, static_cast<uint32_t>(lists.size()));
  Status s;
  for (size_t i = 0; i < lists.size() && s.ok(); ++i) {
    const std::vector<Label>& labels = lists[i].labels;
    if (labels.empty()) {
      s = Invalid("label list " + std::to_string(firstIndex + i) + " is empty; only index 0 may be empty");
      break;
    }
    for (size_t j = 0; j < labels.size() && s.ok(); ++j) s = EncodeLabel(labels[j], j + 1 == labels.size(), bytes_);
    if (bytes_.size() - start > kMaxBlockContent + 4) break;  // EndBlock reports the overflow
  }
  return FinishBlock(start, s, "label list");
}

Status NetTraceV6Writer::WriteEventBlock(std::span<const EventRecord> events, bool compressed) {
  if (events.empty()) return Invalid("an event block holds one or more events (NetTraceFormat.md §EventBlock)");
  return WriteEventBlocks(events, compressed, kMaxBlockContent, /*split=*/false);
}

Status NetTraceV6Writer::WriteEvents(std::span<const EventRecord> events, bool compressed, size_t maxBlockContent) {
  return WriteEventBlocks(events, compressed, maxBlockContent, /*split=*/true);
}

Status NetTraceV6Writer::WriteEventBlocks(std::span<const EventRecord> events, bool compressed, size_t maxBlockContent,
                                          bool split) {
  NETTRACE_RETURN_IF_ERROR(RequireBlocksState("event blocks"));
  maxBlockContent = std::min(maxBlockContent, kMaxBlockContent);
  const size_t rollback = bytes_.size();
  write_internal::EventRowEncoder encoder(compressed);
  std::vector<uint8_t> row;
  size_t block = 0;  // start of the open block in bytes_
  bool open = false;
  uint64_t minTs = 0, maxTs = 0;

  // §EventBlock header: HeaderSize (20, counting itself), Flags, Min and Max TimeStamp.
  auto closeBlock = [&]() -> Status {
    wire::PatchU16(bytes_, block + 4, kEventBlockHeaderSize);
    wire::PatchU16(bytes_, block + 6, compressed ? write_internal::kEventBlockFlagCompressed : 0);
    std::memcpy(bytes_.data() + block + 8, &minTs, 8);
    std::memcpy(bytes_.data() + block + 16, &maxTs, 8);
    open = false;
    return EndBlock(block, "event");
  };
  for (const EventRecord& e : events) {
    row.clear();
    Status s = encoder.Encode(e, row);
    if (s.ok() && open && bytes_.size() - block - 4 + row.size() > maxBlockContent) {
      s = split ? closeBlock()
                : Status::Error(ErrorCode::kLimitExceeded, kNoOffset,
                                std::to_string(events.size()) + " events do not fit in one event block (16 MiB)");
      // Compression restarts from zeroed fields in every block: re-encode the row.
      encoder.Reset();
      row.clear();
      if (s.ok()) s = encoder.Encode(e, row);
    }
    if (s.ok() && !open) {
      block = BeginBlock(static_cast<uint8_t>(BlockKind::kEvent));
      bytes_.resize(bytes_.size() + kEventBlockHeaderSize, 0);
      open = true;
      minTs = maxTs = e.timestamp;
      if (kEventBlockHeaderSize + row.size() > maxBlockContent)
        s = Status::Error(ErrorCode::kLimitExceeded, kNoOffset,
                          "an event row of " + std::to_string(row.size()) +
                              " bytes does not fit in an event block of " + std::to_string(maxBlockContent) + " bytes");
    }
    if (!s.ok()) {
      bytes_.resize(rollback);
      return s;
    }
    wire::PutBytes(bytes_, row);
    minTs = std::min(minTs, e.timestamp);
    maxTs = std::max(maxTs, e.timestamp);
  }
  if (open) {
    Status s = closeBlock();
    if (!s.ok()) {
      bytes_.resize(rollback);
      return s;
    }
  }
  return Status::Ok();
}

// §SequencePointBlock: uint64 TimeStamp, uint32 Flags, uint32 ThreadCount, then
// (varuint64 ThreadIndex, varuint32 SequenceNumber) per thread.
Status NetTraceV6Writer::WriteSequencePointBlock(const SequencePoint& point) {
  NETTRACE_RETURN_IF_ERROR(RequireBlocksState("a sequence point block"));
  // Each thread entry costs at least 2 bytes (two one-byte varuints).
  if (point.threads.size() > kMaxBlockContent / 2) return TooManyRows(point.threads.size(), "sequence point threads");
  const size_t start = BeginBlock(static_cast<uint8_t>(BlockKind::kSequencePoint));
  wire::PutU64(bytes_, point.timestamp);
  wire::PutU32(bytes_, point.flags);
  wire::PutU32(bytes_, static_cast<uint32_t>(point.threads.size()));
  for (const ThreadSequence& t : point.threads) {
    wire::PutVarUInt(bytes_, t.thread);
    wire::PutVarUInt(bytes_, t.sequenceNumber);
    if (bytes_.size() - start > kMaxBlockContent + 4) break;  // EndBlock reports the overflow
  }
  return EndBlock(start, "sequence point");
}

Status NetTraceV6Writer::WriteRawBlock(uint8_t kind, std::span<const uint8_t> content) {
  if (content.size() > kMaxBlockContent)
    return Status::Error(ErrorCode::kLimitExceeded, kNoOffset,
                         "raw block content of " + std::to_string(content.size()) + " bytes exceeds 16777215");
  const size_t start = BeginBlock(kind);
  wire::PutBytes(bytes_, content);
  return EndBlock(start, "raw");
}

// §EndOfStreamBlock: kind 0, no content.
Status NetTraceV6Writer::WriteEndOfStream() {
  NETTRACE_RETURN_IF_ERROR(RequireBlocksState("the end-of-stream block"));
  NETTRACE_RETURN_IF_ERROR(EndBlock(BeginBlock(static_cast<uint8_t>(BlockKind::kEndOfStream)), "end-of-stream"));
  state_ = State::kEnded;
  return Status::Ok();
}

}  // namespace nettrace
