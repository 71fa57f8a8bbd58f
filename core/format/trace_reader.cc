// The tokenizer: an explicit state machine over the chunk queue. NetPerf (format version 3)
// is the same FastSerialization object stream without the Nettrace magic, with public
// objects (tag 4) and only Trace and EventBlock objects; its events decode in
// format/netperf_event_block.h into the records every NetTrace version gives the sink. Each state asks for the
// bytes it needs; if they have not arrived it returns "need more" and the next Push()
// resumes in the same state. A block is decoded only once it is complete, so block
// decoders never see a chunk boundary.
#include "format/trace_reader.h"

#include <cstring>
#include <string>

#include "format/decode_util.h"
#include "format/event_block.h"
#include "format/fast_serialization/sequence_point_block.h"
#include "format/fast_serialization/trace_object.h"
#include "format/netperf_event_block.h"
#include "format/netperf_stream.h"
#include "format/reference_tracker.h"
#include "format/stack_block.h"
#include "format/trace_type.h"
#include "format/v6/blocks.h"
#include "io/chunk_queue.h"

namespace nettrace {

namespace {

constexpr uint32_t kHighestMajorVersion = 6;
// FastSerialization tags (NetTraceFormat_v5.md §Objects).
constexpr uint8_t kTagNullReference = 1;
constexpr uint8_t kTagBeginObject = 4;  // NetPerf; NetTrace v4 replaced it (change 11)
constexpr uint8_t kTagBeginPrivateObject = 5;
constexpr uint8_t kTagEndObject = 6;
constexpr char kFastSerializationSignature[] = "!FastSerialization.1";
// Type names are short ASCII words; anything longer is not a NetTrace object.
constexpr uint32_t kMaxTypeNameLength = 64;
// The Trace object's version in NetPerf files that TraceEvent reads by default; versions
// 1 and 2 (.NET Core 2.0) named it "Microsoft.DotNet.Runtime.EventPipeFile" and have no
// blocks (format/netperf_stream.h).
constexpr int32_t kNetPerfTraceVersion = 3;
// NetPerf v1/v2 events are handed on in runs of about this many bytes, each run a block of
// rows (re-read later like a v3 EventBlock); the runs do not depend on the chunk sizes.
constexpr uint64_t kNetPerfStreamRun = 64 * 1024;
// v4/v5 BlockSize is an int32. Real blocks are ~100 KB; this bound only stops a corrupt
// size from making us wait for (and buffer) gigabytes that will never form a block.
constexpr int32_t kMaxFastSerializationBlock = 1 << 30;

enum class State : uint8_t {
  kDetect,
  kFsHeader,
  kFsObject,
  kV6Header,
  kV6Block,
  kNetPerfTail,    // v1/v2: waiting for the caller's read of the file's last bytes
  kNetPerfEvents,  // v1/v2: events up to the offset the forward-reference table names
  kDone,
};

enum class Step : uint8_t { kProgressed, kNeedMore };

}  // namespace

class TraceReader::Impl {
 public:
  Impl(RecordSink* sink, Stats* stats) : tracker_(sink, stats) {
    ctx_.sink = &tracker_;
    ctx_.stats = stats;
  }

  Status Run() {
    while (state_ != State::kDone) {
      Step step;
      Status s = RunState(&step);
      if (!s.ok()) return s;
      if (step == Step::kNeedMore) break;
    }
    return Status::Ok();
  }

  ChunkQueue queue_;
  State state_ = State::kDetect;
  bool sawTrace_ = false;
  bool netPerf_ = false;
  TraceInfo info_;

 private:
  Status RunState(Step* step) {
    switch (state_) {
      case State::kDetect: return Detect(step);
      case State::kFsHeader: return FsHeader(step);
      case State::kFsObject: return FsObject(step);
      case State::kV6Header: return V6Header(step);
      case State::kV6Block: return V6Block(step);
      case State::kNetPerfTail: *step = Step::kNeedMore; return Status::Ok();
      case State::kNetPerfEvents: return NetPerfEvents(step);
      case State::kDone: *step = Step::kNeedMore; return Status::Ok();
    }
    return Status::Ok();
  }

  // Returns a view of n bytes at the read position, or sets kNeedMore.
  bool Need(size_t n, std::span<const uint8_t>* out, Step* step) {
    if (queue_.Peek(n, out)) return true;
    *step = Step::kNeedMore;
    return false;
  }

  Status Detect(Step* step) {
    std::span<const uint8_t> b;
    size_t n = std::min<uint64_t>(queue_.available(), kTraceTypeProbeSize);
    queue_.Peek(n, &b);
    switch (DetectTraceType(b)) {
      case TraceType::kNeedMoreData: *step = Step::kNeedMore; return Status::Ok();
      case TraceType::kNetTraceFastSerialization: state_ = State::kFsHeader; break;
      case TraceType::kNetTraceBlocks: state_ = State::kV6Header; break;
      case TraceType::kNetPerf:
        netPerf_ = true;
        state_ = State::kFsHeader;
        break;
      case TraceType::kUnknown:
        return Status::Error(ErrorCode::kBadMagic, 0,
                             "not a NetTrace file: it does not start with the 'Nettrace' magic bytes");
    }
    *step = Step::kProgressed;
    return Status::Ok();
  }

  // ---- NetTrace v4/v5: FastSerialization objects -------------------------------------

  Status FsHeader(Step* step) {
    // NetPerf starts with the signature's length; NetTrace puts its magic before it.
    const size_t at = netPerf_ ? 4 : 12;
    std::span<const uint8_t> b;
    if (!Need(at + 20, &b, step)) return Status::Ok();
    if (std::memcmp(b.data() + at, kFastSerializationSignature, 20) != 0)
      return Status::Error(ErrorCode::kBadMagic, at,
                           netPerf_ ? "expected '!FastSerialization.1' at the start of the NetPerf stream"
                                    : "expected '!FastSerialization.1' after the Nettrace magic");
    queue_.Consume(at + 20);
    // NetTrace's magic says v4 or later; a NetPerf version is only known from its Trace object.
    info_.formatMajor = netPerf_ ? 0 : 4;
    state_ = State::kFsObject;
    *step = Step::kProgressed;
    return Status::Ok();
  }

  Status FsObject(Step* step) {
    const uint64_t at = queue_.position();
    std::span<const uint8_t> b;
    if (!Need(1, &b, step)) return Status::Ok();
    if (b[0] == kTagNullReference) {  // end of the object list: the stream is complete
      if (!sawTrace_) return CorruptAt(at, "the stream ends before its Trace object");
      queue_.Consume(1);
      state_ = State::kDone;
      *step = Step::kProgressed;
      return tracker_.OnEndOfStream();
    }
    const uint8_t begin = netPerf_ ? kTagBeginObject : kTagBeginPrivateObject;
    if (b[0] != begin)
      return CorruptAt(at, "expected an object (tag " + std::to_string(begin) + ") or the end-of-stream tag (1), found byte " +
                               std::to_string(b[0]));
    // Type header: BeginPrivateObject, NullReference (type of a type), version,
    // minimum reader version, name length, name, EndObject.
    constexpr size_t kTypeFixed = 3 + 4 + 4 + 4;  // three tags, version, min version, name length
    if (!Need(kTypeFixed, &b, step)) return Status::Ok();
    if (b[1] != begin || b[2] != kTagNullReference)
      return CorruptAt(at + 1, "malformed object type header");
    int32_t version, minReader, nameLength;
    std::memcpy(&version, b.data() + 3, 4);
    std::memcpy(&minReader, b.data() + 7, 4);
    std::memcpy(&nameLength, b.data() + 11, 4);
    if (nameLength <= 0 || static_cast<uint32_t>(nameLength) > kMaxTypeNameLength)
      return CorruptAt(at + 11, "object type name length " + std::to_string(nameLength) + " is impossible");
    const size_t headerSize = kTypeFixed + nameLength + 1;
    if (!Need(headerSize, &b, step)) return Status::Ok();
    if (b[headerSize - 1] != kTagEndObject) return CorruptAt(at + headerSize - 1, "object type header does not end with tag 6");
    const std::string name(reinterpret_cast<const char*>(b.data() + kTypeFixed), nameLength);

    if (name == "Trace") return FsTraceObject(at, headerSize, version, minReader, step);
    if (netPerf_ && name == kNetPerfStreamTypeName) return NetPerfStreamObject(at, headerSize, version, step);
    if (!sawTrace_) return CorruptAt(at, "expected the Trace object first, found '" + name + "'");
    BlockKind kind;
    if (name == "EventBlock") kind = BlockKind::kEvent;
    else if (netPerf_) return CorruptAt(at, "unknown NetPerf object type '" + name + "' (NetPerf has only EventBlocks)");
    else if (name == "MetadataBlock") kind = BlockKind::kMetadata;
    else if (name == "StackBlock") kind = BlockKind::kStack;
    else if (name == "SPBlock") kind = BlockKind::kSequencePoint;
    else return CorruptAt(at, "unknown object type '" + name + "' (its size cannot be known, so reading stops)");

    // Block payload: int BlockSize, zero padding to a 4-byte FILE offset, content, then
    // EndObject (NetTraceFormat_v5.md §The EventBlock Object).
    if (!Need(headerSize + 4, &b, step)) return Status::Ok();
    int32_t blockSize;
    std::memcpy(&blockSize, b.data() + headerSize, 4);
    if (blockSize < 0 || blockSize > kMaxFastSerializationBlock)
      return CorruptAt(at + headerSize, name + " size " + std::to_string(blockSize) + " is impossible");
    const uint64_t afterSize = at + headerSize + 4;
    const size_t padding = static_cast<size_t>((4 - afterSize % 4) % 4);
    const size_t total = headerSize + 4 + padding + static_cast<size_t>(blockSize) + 1;
    if (!Need(total, &b, step)) return Status::Ok();
    if (b[total - 1] != kTagEndObject)
      return CorruptAt(at + total - 1, name + " does not end with the end-object tag where its size says");
    const uint64_t contentOffset = afterSize + padding;
    ByteCursor content(b.subspan(headerSize + 4 + padding, blockSize), contentOffset);
    NETTRACE_RETURN_IF_ERROR(tracker_.OnBlock({kind, 0, at, static_cast<uint64_t>(blockSize), contentOffset}));
    Status s = DecodeFsBlock(kind, content);
    if (!s.ok()) return s;
    queue_.Consume(total);
    *step = Step::kProgressed;
    return Status::Ok();
  }

  Status FsTraceObject(uint64_t at, size_t headerSize, int32_t version, int32_t minReader, Step* step) {
    if (sawTrace_) return CorruptAt(at, "a second Trace object");
    if (netPerf_ && version != kNetPerfTraceVersion)
      return Status::Error(ErrorCode::kUnsupportedVersion, at,
                           "NetPerf Trace object version " + std::to_string(version) + " is not supported (only 3; " +
                               "a later version needs the Nettrace magic before it)");
    // Readers of version 4 may read anything whose minimum reader version is <= 4.
    if (minReader > 4)
      return Status::Error(ErrorCode::kUnsupportedVersion, at,
                           "Trace object version " + std::to_string(version) + " needs a reader of version " +
                               std::to_string(minReader) + "; this reader supports 4");
    const size_t total = headerSize + kTraceObjectV4FieldBytes + 1;
    std::span<const uint8_t> b;
    if (!Need(total, &b, step)) return Status::Ok();
    if (b[total - 1] != kTagEndObject) return CorruptAt(at + total - 1, "the Trace object does not end with tag 6");
    ByteCursor c(b.subspan(headerSize, kTraceObjectV4FieldBytes), at + headerSize);
    info_.traceObjectVersion = static_cast<uint32_t>(version);
    if (netPerf_) info_.formatMajor = kNetPerfTraceVersion;
    NETTRACE_RETURN_IF_ERROR(DecodeTraceObjectFields(c, &info_));
    NETTRACE_RETURN_IF_ERROR(CheckPointerSize(at + headerSize));
    sawTrace_ = true;
    NETTRACE_RETURN_IF_ERROR(tracker_.OnBlock({BlockKind::kTrace, 0, at, kTraceObjectV4FieldBytes, at + headerSize}));
    NETTRACE_RETURN_IF_ERROR(tracker_.OnTraceInfo(info_));
    queue_.Consume(total);
    *step = Step::kProgressed;
    return Status::Ok();
  }

  Status DecodeFsBlock(BlockKind kind, ByteCursor content) {
    if (netPerf_) {
      ctx_.generation = RowGeneration::kNetPerf;
      return netPerfEvents_.DecodeBlock(content, ctx_);  // EventBlocks are its only blocks
    }
    ctx_.generation = RowGeneration::kV4V5;
    switch (kind) {
      case BlockKind::kEvent: return DecodeEventBlock(content, ctx_);
      case BlockKind::kMetadata: return DecodeMetadataBlockV4V5(content, ctx_);
      case BlockKind::kStack: return DecodeStackBlock(content, ctx_);
      case BlockKind::kSequencePoint: return DecodeSequencePointBlockV4V5(content, ctx_);
      default: return Status::Ok();
    }
  }

  // ---- NetPerf v1/v2: events straight after the EventPipeFile object's fields ----------

  Status NetPerfStreamObject(uint64_t at, size_t headerSize, int32_t version, Step* step) {
    if (sawTrace_) return CorruptAt(at, "a second EventPipeFile object");
    if (version != 1 && version != 2)
      return Status::Error(ErrorCode::kUnsupportedVersion, at,
                           "NetPerf EventPipeFile object version " + std::to_string(version) + " is not 1 or 2");
    const size_t total = headerSize + kNetPerfStreamFieldBytes;
    std::span<const uint8_t> b;
    if (!Need(total, &b, step)) return Status::Ok();
    ByteCursor c(b.subspan(headerSize, kNetPerfStreamFieldBytes), at + headerSize);
    NETTRACE_RETURN_IF_ERROR(DecodeNetPerfStreamFields(c, version, &info_, &endReference_));
    sawTrace_ = true;
    NETTRACE_RETURN_IF_ERROR(tracker_.OnBlock({BlockKind::kTrace, 0, at, kNetPerfStreamFieldBytes, at + headerSize}));
    NETTRACE_RETURN_IF_ERROR(tracker_.OnTraceInfo(info_));
    netPerfEvents_.SetStreamVersion(version);
    queue_.Consume(total);
    eventsStart_ = at + total;
    state_ = State::kNetPerfTail;  // the end of the events is only written at the end of the file
    *step = Step::kNeedMore;
    return Status::Ok();
  }

  Status NetPerfEvents(Step* step) {
    const uint64_t at = queue_.position();
    std::span<const uint8_t> b;
    if (at == endOfEvents_) {  // the EventPipeFile object's end tag; the table and trailer follow
      if (!Need(1, &b, step)) return Status::Ok();
      if (b[0] != kTagEndObject)
        return CorruptAt(at, "expected the end tag (6) where the forward-reference table says the events end, found byte " +
                                 std::to_string(b[0]));
      queue_.Consume(1);
      state_ = State::kDone;
      *step = Step::kProgressed;
      return tracker_.OnEndOfStream();
    }
    // A run of whole rows: at least kNetPerfStreamRun bytes or up to the end of the events.
    const uint64_t left = endOfEvents_ - at;
    if (!Need(static_cast<size_t>(std::min(left, kNetPerfStreamRun)), &b, step)) return Status::Ok();
    size_t run = 0;
    for (;;) {
      if (run + 4 > left) return CorruptAt(at + run, "an event header runs past the end of the events");
      if (!Need(run + 4, &b, step)) return Status::Ok();
      uint32_t eventSize;
      std::memcpy(&eventSize, b.data() + run, 4);
      const uint64_t next = run + uint64_t{eventSize} + 4;
      if (next > left)
        return CorruptAt(at + run, "event of " + std::to_string(eventSize) + " bytes runs past the end of the events at " +
                                       std::to_string(endOfEvents_));
      if (!Need(static_cast<size_t>(next), &b, step)) return Status::Ok();
      run = static_cast<size_t>(next);
      if (run >= kNetPerfStreamRun || run == left) break;
    }
    ByteCursor content(b.subspan(0, run), at);
    NETTRACE_RETURN_IF_ERROR(tracker_.OnBlock({BlockKind::kEvent, 0, at, run, at}));
    ctx_.generation = RowGeneration::kNetPerf;
    NETTRACE_RETURN_IF_ERROR(netPerfEvents_.DecodeBlock(content, ctx_));
    queue_.Consume(run);
    *step = Step::kProgressed;
    return Status::Ok();
  }

 public:
  Status ProvideTail(std::span<const uint8_t> tail, uint64_t fileSize) {
    if (state_ != State::kNetPerfTail)
      return Status::Error(ErrorCode::kInvalidArgument, kNoOffset, "the reader did not ask for the end of the file");
    NETTRACE_RETURN_IF_ERROR(FindNetPerfEndOfEvents(tail, fileSize, endReference_, eventsStart_, &endOfEvents_));
    state_ = State::kNetPerfEvents;
    return Run();
  }

  uint32_t endReference_ = 0;
  uint64_t eventsStart_ = 0;
  uint64_t endOfEvents_ = 0;

 private:
  // ---- NetTrace v6: blocks ------------------------------------------------------------

  Status V6Header(Step* step) {
    std::span<const uint8_t> b;
    if (!Need(8 + 12, &b, step)) return Status::Ok();
    uint32_t major, minor;
    std::memcpy(&major, b.data() + 12, 4);
    std::memcpy(&minor, b.data() + 16, 4);
    if (major > kHighestMajorVersion)
      return Status::Error(ErrorCode::kUnsupportedVersion, 12,
                           "NetTrace major version " + std::to_string(major) + " is newer than this reader supports (4 to " +
                               std::to_string(kHighestMajorVersion) + ")");
    if (major < 6)
      return Status::Error(ErrorCode::kCorrupt, 12,
                           "NetTrace block-format header declares major version " + std::to_string(major) +
                               " (versions before 6 use FastSerialization)");
    info_.formatMajor = major;
    info_.formatMinor = minor;
    queue_.Consume(20);
    state_ = State::kV6Block;
    *step = Step::kProgressed;
    return Status::Ok();
  }

  Status V6Block(Step* step) {
    const uint64_t at = queue_.position();
    std::span<const uint8_t> b;
    if (!Need(4, &b, step)) return Status::Ok();
    uint32_t header;
    std::memcpy(&header, b.data(), 4);
    const uint32_t size = header & 0xFFFFFF;
    const uint8_t rawKind = static_cast<uint8_t>(header >> 24);
    if (!Need(4 + size, &b, step)) return Status::Ok();
    ByteCursor content(b.subspan(4, size), at + 4);
    BlockKind kind = rawKind <= static_cast<uint8_t>(BlockKind::kLabelList) ? static_cast<BlockKind>(rawKind)
                                                                            : BlockKind::kUnknown;
    if (kind != BlockKind::kTrace && !sawTrace_)
      return CorruptAt(at, std::string("expected the Trace block first, found a block of kind ") + std::to_string(rawKind));
    NETTRACE_RETURN_IF_ERROR(tracker_.OnBlock({kind, rawKind, at, size, at + 4}));
    ctx_.generation = RowGeneration::kV6;
    Status s;
    switch (kind) {
      case BlockKind::kEndOfStream:
        queue_.Consume(4 + size);
        state_ = State::kDone;
        *step = Step::kProgressed;
        return tracker_.OnEndOfStream();
      case BlockKind::kTrace:
        if (sawTrace_) return CorruptAt(at, "a second Trace block");
        s = DecodeTraceBlockV6(content, &info_);
        if (s.ok()) s = CheckPointerSize(at + 4);
        if (s.ok()) {
          sawTrace_ = true;
          s = tracker_.OnTraceInfo(info_);
        }
        break;
      case BlockKind::kEvent: s = DecodeEventBlock(content, ctx_); break;
      case BlockKind::kMetadata: s = DecodeMetadataBlockV6(content, ctx_); break;
      case BlockKind::kSequencePoint: s = DecodeSequencePointBlockV6(content, ctx_); break;
      case BlockKind::kStack: s = DecodeStackBlock(content, ctx_); break;
      case BlockKind::kThread: s = DecodeThreadBlockV6(content, ctx_); break;
      case BlockKind::kRemoveThread: s = DecodeRemoveThreadBlockV6(content, ctx_); break;
      case BlockKind::kLabelList: s = DecodeLabelListBlockV6(content, ctx_); break;
      case BlockKind::kUnknown: ++ctx_.stats->unknownBlockKinds; break;  // skipped by size
    }
    if (!s.ok()) return s;
    queue_.Consume(4 + size);
    *step = Step::kProgressed;
    return Status::Ok();
  }

  Status CheckPointerSize(uint64_t at) {
    if (info_.pointerSize != 4 && info_.pointerSize != 8)
      return CorruptAt(at, "pointer size " + std::to_string(info_.pointerSize) + " is neither 4 nor 8");
    return Status::Ok();
  }

  ReferenceTracker tracker_;
  NetPerfEventDecoder netPerfEvents_;

 public:
  BlockContext ctx_;
};

TraceReader::TraceReader(RecordSink* sink, Stats* stats) {
  if (!stats) {
    ownStats_ = std::make_unique<Stats>();
    stats = ownStats_.get();
  }
  impl_ = std::make_unique<Impl>(sink, stats);
}

TraceReader::~TraceReader() = default;

Status TraceReader::Push(const uint8_t* data, size_t size) {
  if (!status_.ok()) return status_;
  if (impl_->state_ == State::kNetPerfTail && size > 0)  // pushing on would hold the file
    return status_ = Status::Error(ErrorCode::kInvalidArgument, impl_->queue_.received(),
                                   "NetPerf version " + std::to_string(impl_->info_.formatMajor) +
                                       " needs the end of the file before its events (the forward-reference table there "
                                       "says where they end): this source cannot read the file's end first");
  if (impl_->state_ == State::kDone) return status_;  // bytes after the end marker are ignored
  // The chunk is parsed where it lies; only what this push leaves unread is copied.
  impl_->queue_.Lend(data, size);
  status_ = impl_->Run();
  impl_->queue_.KeepUnread();
  return status_;
}

Status TraceReader::Finish() {
  if (!status_.ok()) return status_;
  if (impl_->state_ != State::kDone) {
    const uint64_t at = impl_->queue_.position();
    const uint64_t left = impl_->queue_.available();
    std::string what = impl_->state_ == State::kNetPerfTail
                           ? "NetPerf version " + std::to_string(impl_->info_.formatMajor) +
                                 " needs the end of the file before its events (the forward-reference table there says "
                                 "where they end), and this source gave none"
                       : impl_->state_ == State::kDetect ? "the file is too short to be a trace"
                       : left == 0 ? "the stream ends without its end-of-stream marker"
                                   : "the stream ends inside a block: " + std::to_string(left) +
                                         " bytes remain after the last complete block";
    status_ = Status::Error(ErrorCode::kTruncated, at, what);
  }
  return status_;
}

size_t TraceReader::tailWanted() const {
  return impl_->state_ == State::kNetPerfTail ? kNetPerfTailBytes : 0;
}

Status TraceReader::ProvideTail(const uint8_t* data, size_t size, uint64_t fileSize) {
  if (!status_.ok()) return status_;
  impl_->queue_.Lend(nullptr, 0);
  status_ = impl_->ProvideTail({data, size}, fileSize);
  impl_->queue_.KeepUnread();
  return status_;
}

uint64_t TraceReader::bytesConsumed() const { return impl_->queue_.position(); }
uint64_t TraceReader::bytesReceived() const { return impl_->queue_.received(); }
bool TraceReader::complete() const { return impl_->state_ == State::kDone; }
size_t TraceReader::residentBytes() const { return impl_->queue_.residentBytes(); }
const TraceInfo& TraceReader::traceInfo() const { return impl_->info_; }
uint32_t TraceReader::formatMajor() const {
  // v4 and v5 share the Trace object version; v5 shows only through its metadata tags
  // (format-pitfalls.md §7).
  if (impl_->info_.formatMajor == 4 && impl_->ctx_.sawV5Tags) return 5;
  return impl_->info_.formatMajor;
}

}  // namespace nettrace
