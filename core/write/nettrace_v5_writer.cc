#include "write/nettrace_v5_writer.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <utility>

#include "write/event_row_encoder.h"
#include "write/v5_event_blob.h"
#include "write/v5_metadata_payload.h"
#include "write/wire.h"

namespace nettrace {

namespace {

// FastSerialization tags (NetTraceFormat_v5.md §Objects).
constexpr uint8_t kTagNullReference = 1;
constexpr uint8_t kTagBeginPrivateObject = 5;
constexpr uint8_t kTagEndObject = 6;
constexpr std::string_view kFastSerializationSignature = "!FastSerialization.1";
// §The First Object: "Version: 4, MinumumReaderVersion: 4" (also what .NET 5+ writes,
// format-pitfalls.md §7).
constexpr int32_t kTraceObjectVersion = 4;
// The largest reserved space after the block header: HeaderSize is a short counting the
// 20 fixed bytes too.
constexpr uint16_t kMaxExtraHeaderBytes = 0xFFFF - NetTraceV5Writer::kEventBlockHeaderSize;

Status Invalid(std::string message) {
  return Status::Error(ErrorCode::kInvalidArgument, kNoOffset, std::move(message));
}

Status TooBig(const std::string& what, size_t bytes, size_t limit) {
  return Status::Error(ErrorCode::kLimitExceeded, kNoOffset,
                       what + " of " + std::to_string(bytes) + " bytes exceeds the block limit of " +
                           std::to_string(limit) + " bytes");
}

Status CheckExtraHeaderBytes(uint16_t extraHeaderBytes) {
  if (extraHeaderBytes > kMaxExtraHeaderBytes)
    return Invalid(std::to_string(extraHeaderBytes) + " extra header bytes overflow the short HeaderSize");
  return Status::Ok();
}

}  // namespace

NetTraceV5Writer::NetTraceV5Writer(Version version) : version_(version) {
  // §First Bytes: "Nettrace"; §Stream Header: int 20, then "!FastSerialization.1".
  static constexpr uint8_t kMagic[8] = {'N', 'e', 't', 't', 'r', 'a', 'c', 'e'};
  wire::PutBytes(bytes_, kMagic);
  wire::PutI32(bytes_, static_cast<int32_t>(kFastSerializationSignature.size()));
  wire::PutBytes(bytes_, std::span(reinterpret_cast<const uint8_t*>(kFastSerializationSignature.data()),
                                   kFastSerializationSignature.size()));
}

std::vector<uint8_t> NetTraceV5Writer::TakeBytes() {
  taken_ += bytes_.size();
  return std::exchange(bytes_, {});
}

Status NetTraceV5Writer::RequireObjectsState(const char* what) const {
  if (state_ == State::kNeedTrace)
    return Invalid(std::string(what) + " before the Trace object (NetTraceFormat_v5.md: it comes first)");
  if (state_ == State::kEnded) return Invalid(std::string(what) + " after the end-of-stream tag");
  return Status::Ok();
}

// §Objects: BeginPrivateObject, then the type (itself an object whose type is the
// NullReference tag): BeginPrivateObject, NullReference, int version, int minimum reader
// version, string name (int byte count + UTF-8), EndObject.
void NetTraceV5Writer::PutObjectType(std::string_view typeName, int32_t version, int32_t minReaderVersion) {
  wire::PutU8(bytes_, kTagBeginPrivateObject);
  wire::PutU8(bytes_, kTagBeginPrivateObject);
  wire::PutU8(bytes_, kTagNullReference);
  wire::PutI32(bytes_, version);
  wire::PutI32(bytes_, minReaderVersion);
  wire::PutI32(bytes_, static_cast<int32_t>(typeName.size()));
  wire::PutBytes(bytes_, std::span(reinterpret_cast<const uint8_t*>(typeName.data()), typeName.size()));
  wire::PutU8(bytes_, kTagEndObject);
}

// §The EventBlock Object (and the other blocks): int BlockSize, not counting itself or
// the padding, then "0 padding to reach 4 byte file alignment", then the content.
NetTraceV5Writer::OpenBlock NetTraceV5Writer::BeginBlock(std::string_view typeName, int32_t version,
                                                         int32_t minReaderVersion) {
  OpenBlock b;
  b.start = bytes_.size();
  PutObjectType(typeName, version, minReaderVersion);
  b.sizeAt = bytes_.size();
  wire::PutI32(bytes_, 0);
  bytes_.resize(bytes_.size() + (4 - bytesWritten() % 4) % 4, 0);
  b.contentStart = bytes_.size();
  return b;
}

Status NetTraceV5Writer::EndBlock(const OpenBlock& block, const char* what) {
  const size_t content = bytes_.size() - block.contentStart;
  if (content > kMaxBlockContent) {
    bytes_.resize(block.start);
    return TooBig(std::string(what) + " block content", content, kMaxBlockContent);
  }
  wire::PatchU32(bytes_, block.sizeAt, static_cast<uint32_t>(content));
  wire::PutU8(bytes_, kTagEndObject);
  return Status::Ok();
}

Status NetTraceV5Writer::FinishBlock(const OpenBlock& block, Status encoded, const char* what) {
  if (!encoded.ok()) {
    bytes_.resize(block.start);
    return encoded;
  }
  return EndBlock(block, what);
}

// §The First Object: SyncTimeUTC (8 shorts), SyncTimeQPC, QPCFrequency, PointerSize,
// ProcessId, NumberOfProcessors, ExpectedCPUSamplingRate; no BlockSize, no padding.
Status NetTraceV5Writer::WriteTraceObject(const TraceInfo& info) {
  if (state_ != State::kNeedTrace) return Invalid("the Trace object is written once, first");
  if (info.pointerSize != 4 && info.pointerSize != 8)
    return Invalid("pointer size " + std::to_string(info.pointerSize) + " is neither 4 nor 8");
  if (!info.keyValues.empty()) return Invalid("trace key/values have no v4/v5 encoding (v6 only)");
  const uint32_t version = info.traceObjectVersion == 0 ? kTraceObjectVersion : info.traceObjectVersion;
  // Version 3 was NetPerf's; a version beyond an int cannot be written.
  if (version < 4 || version > 0x7FFFFFFF)
    return Invalid("Trace object version " + std::to_string(version) + " is not a NetTrace version (4 or later)");
  PutObjectType("Trace", static_cast<int32_t>(version), kTraceObjectVersion);
  const SystemTime& t = info.syncTimeUtc;
  for (int16_t v : {t.year, t.month, t.dayOfWeek, t.day, t.hour, t.minute, t.second, t.millisecond})
    wire::PutI16(bytes_, v);
  wire::PutI64(bytes_, info.syncTimeTicks);
  wire::PutI64(bytes_, info.tickFrequency);
  for (uint32_t v : {info.pointerSize, info.processId, info.numberOfProcessors, info.expectedCpuSamplingRate})
    wire::PutI32(bytes_, static_cast<int32_t>(v));
  wire::PutU8(bytes_, kTagEndObject);
  pointerSize_ = info.pointerSize;
  state_ = State::kObjects;
  return Status::Ok();
}

// §The MetadataBlock Object: "the same encoding as EventBlock ... the MetadataId field of
// the event blobs is always zero".
Status NetTraceV5Writer::WriteMetadataBlock(std::span<const EventMetadata> rows, bool compressed,
                                            uint16_t extraHeaderBytes) {
  NETTRACE_RETURN_IF_ERROR(RequireObjectsState("a metadata block"));
  NETTRACE_RETURN_IF_ERROR(CheckExtraHeaderBytes(extraHeaderBytes));
  std::vector<std::vector<uint8_t>> payloads(rows.size());
  std::vector<EventRecord> blobs(rows.size());
  for (size_t i = 0; i < rows.size(); ++i) {
    NETTRACE_RETURN_IF_ERROR(write_internal::EncodeV5MetadataPayload(rows[i], version_ == Version::kV5, payloads[i]));
    blobs[i].payload = payloads[i];
    // Marked sorted so that an uncompressed blob's MetadataId field is exactly 0 (the
    // high bit set would mean "not sorted", format-pitfalls.md §5); readers ignore it.
    blobs[i].isSorted = true;
  }
  return WriteBlobBlocks("MetadataBlock", blobs, {.compressed = compressed, .extraHeaderBytes = extraHeaderBytes});
}

Status NetTraceV5Writer::WriteEventBlock(std::span<const EventRecord> events, bool compressed,
                                         uint16_t extraHeaderBytes) {
  NETTRACE_RETURN_IF_ERROR(RequireObjectsState("an event block"));
  if (events.empty()) return Invalid("an event block holds 1 or more events (NetTraceFormat_v5.md §EventBlock)");
  NETTRACE_RETURN_IF_ERROR(CheckExtraHeaderBytes(extraHeaderBytes));
  return WriteBlobBlocks("EventBlock", events, {.compressed = compressed, .extraHeaderBytes = extraHeaderBytes});
}

Status NetTraceV5Writer::WriteEvents(std::span<const EventRecord> events, bool compressed, size_t maxBlockContent) {
  NETTRACE_RETURN_IF_ERROR(RequireObjectsState("event blocks"));
  return WriteBlobBlocks("EventBlock", events,
                         {.compressed = compressed, .maxContent = maxBlockContent, .split = true});
}

// Header: short HeaderSize (counting itself), short Flags (bit 1: header compression),
// long MinTimestamp, long MaxTimestamp, reserved bytes up to HeaderSize. The fields are
// patched when the block is complete.
NetTraceV5Writer::OpenBlock NetTraceV5Writer::BeginBlobBlock(std::string_view typeName, const BlobBlockOptions& o) {
  OpenBlock b = BeginBlock(typeName);
  bytes_.resize(bytes_.size() + kEventBlockHeaderSize + o.extraHeaderBytes, 0);
  return b;
}

Status NetTraceV5Writer::EndBlobBlock(const OpenBlock& b, const BlobBlockOptions& o, uint64_t minTs,
                                      uint64_t maxTs) {
  wire::PatchU16(bytes_, b.contentStart, static_cast<uint16_t>(kEventBlockHeaderSize + o.extraHeaderBytes));
  wire::PatchU16(bytes_, b.contentStart + 2, o.compressed ? write_internal::kEventBlockFlagCompressed : 0);
  std::memcpy(bytes_.data() + b.contentStart + 4, &minTs, 8);
  std::memcpy(bytes_.data() + b.contentStart + 12, &maxTs, 8);
  return EndBlock(b, o.compressed ? "header-compressed blob" : "uncompressed blob");
}

Status NetTraceV5Writer::WriteBlobBlocks(std::string_view typeName, std::span<const EventRecord> rows,
                                         const BlobBlockOptions& o) {
  const size_t rollback = bytes_.size();
  const size_t maxContent = std::min(o.maxContent, kMaxBlockContent);
  const size_t headerSize = kEventBlockHeaderSize + o.extraHeaderBytes;
  write_internal::EventBlobEncoder encoder(o.compressed);
  std::vector<uint8_t> row;
  OpenBlock block;
  bool open = false;
  uint64_t minTs = 0, maxTs = 0;
  Status s;
  // One block even without rows (an empty MetadataBlock); WriteEvents writes none.
  if (rows.empty() && !o.split) {
    block = BeginBlobBlock(typeName, o);
    open = true;
  }
  for (size_t i = 0; i < rows.size() && s.ok();) {
    const EventRecord& e = rows[i];
    if (!open) {
      block = BeginBlobBlock(typeName, o);
      open = true;
      encoder.Reset();  // compression restarts from zeroed fields in every block
      minTs = maxTs = e.timestamp;
    }
    const size_t used = bytes_.size() - block.contentStart;
    row.clear();
    s = encoder.Encode(e, bytesWritten(), maxContent, row);
    if (s.ok() && used + row.size() > maxContent) {
      if (o.split && used > headerSize) {
        s = EndBlobBlock(block, o, minTs, maxTs);
        open = false;
        continue;  // the same row again, first in a new block
      }
      s = TooBig(o.split ? "an event blob with its block header" : std::to_string(rows.size()) + " rows in one block",
                 used + row.size(), maxContent);
    }
    if (!s.ok()) break;
    wire::PutBytes(bytes_, row);
    minTs = std::min(minTs, e.timestamp);
    maxTs = std::max(maxTs, e.timestamp);
    ++i;
  }
  if (s.ok() && open) s = EndBlobBlock(block, o, minTs, maxTs);
  if (!s.ok()) bytes_.resize(rollback);
  return s;
}

// §StackBlock Object: int FirstId, int Count, then per stack int StackSize + the bytes.
Status NetTraceV5Writer::WriteStackBlock(uint32_t firstId, std::span<const std::vector<uint8_t>> stacks) {
  NETTRACE_RETURN_IF_ERROR(RequireObjectsState("a stack block"));
  if (!stacks.empty() && uint64_t{firstId} + stacks.size() - 1 > 0xFFFFFFFFu)
    return Invalid("stack ids from " + std::to_string(firstId) + " overflow 32 bits");
  // "On 32 bit traces ... an array of 4 byte integer IPs. On 64 bit traces ... 8 byte";
  // a partial IP would not read back (the reader drops it and counts partialStackIps).
  for (const auto& stack : stacks)
    if (stack.size() % pointerSize_ != 0)
      return Invalid("a stack of " + std::to_string(stack.size()) + " bytes is not a whole number of " +
                     std::to_string(pointerSize_) + "-byte IPs");
  if (stacks.size() > kMaxBlockContent / 4) return TooBig("a stack block", stacks.size() * 4, kMaxBlockContent);
  const OpenBlock block = BeginBlock("StackBlock");
  wire::PutU32(bytes_, firstId);
  wire::PutU32(bytes_, static_cast<uint32_t>(stacks.size()));
  for (const auto& stack : stacks) {
    if (bytes_.size() - block.contentStart + 4 + stack.size() > kMaxBlockContent) {
      bytes_.resize(block.start);
      return Status::Error(ErrorCode::kLimitExceeded, kNoOffset,
                           std::to_string(stacks.size()) + " stacks exceed the block limit of " +
                               std::to_string(kMaxBlockContent) + " bytes");
    }
    wire::PutU32(bytes_, static_cast<uint32_t>(stack.size()));
    wire::PutBytes(bytes_, stack);
  }
  return EndBlock(block, "stack");
}

// §SequencePointBlock Object: long TimeStamp, int ThreadCount, then per thread long
// ThreadId and int SequenceNumber.
Status NetTraceV5Writer::WriteSequencePointBlock(const SequencePoint& point) {
  NETTRACE_RETURN_IF_ERROR(RequireObjectsState("a sequence point block"));
  if (point.flags != 0)
    return Invalid("sequence point flags " + std::to_string(point.flags) + " have no v4/v5 encoding (v6 only)");
  if (point.threads.size() > (kMaxBlockContent - 12) / 12)
    return TooBig("a sequence point block", 12 + point.threads.size() * 12, kMaxBlockContent);
  const OpenBlock block = BeginBlock("SPBlock");
  wire::PutU64(bytes_, point.timestamp);
  wire::PutU32(bytes_, static_cast<uint32_t>(point.threads.size()));
  for (const ThreadSequence& t : point.threads) {
    wire::PutU64(bytes_, t.thread);
    wire::PutU32(bytes_, t.sequenceNumber);
  }
  return EndBlock(block, "sequence point");
}

Status NetTraceV5Writer::WriteRawObject(std::string_view typeName, std::span<const uint8_t> content, int32_t version,
                                        int32_t minReaderVersion) {
  if (content.size() > kMaxBlockContent) return TooBig("raw object content", content.size(), kMaxBlockContent);
  const OpenBlock block = BeginBlock(typeName, version, minReaderVersion);
  wire::PutBytes(bytes_, content);
  return EndBlock(block, "raw");
}

// §Ending the stream: "emitting a NullReference Tag".
Status NetTraceV5Writer::WriteEndOfStream() {
  NETTRACE_RETURN_IF_ERROR(RequireObjectsState("the end-of-stream tag"));
  wire::PutU8(bytes_, kTagNullReference);
  state_ = State::kEnded;
  return Status::Ok();
}

}  // namespace nettrace
