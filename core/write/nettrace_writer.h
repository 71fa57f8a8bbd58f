// core/write — a NetTrace v6 writer (NetTraceFormat.md), block by block, from the same
// record structs the reader produces (format/records.h), so write → read round trips
// compare field by field. Used by tests (spec scenarios), and later by convert and trim.
//
// Invariants:
//  * Each Write* call appends whole blocks or nothing: on an error the output is left
//    exactly as before the call, so a caller may report the error and carry on.
//  * The writer checks that what it is given is ENCODABLE and reads back unchanged (sizes
//    within their fields, type trees well formed, RelLoc/DataLoc elements of fixed size,
//    uint8 values within 0..255). It does not track references between blocks (thread
//    indexes, metadata ids, stack and label ids): those rules are the caller's, and
//    bad-input tests rely on being able to break them.
//  * Bytes accumulate in bytes(); TakeBytes() hands them out (to stream to a file)
//    between calls; bytesWritten() counts everything ever produced.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "base/status.h"
#include "format/records.h"

namespace nettrace {

class NetTraceV6Writer {
 public:
  // NetTraceFormat.md §Blocks: BlockSize is a uint24, so block content is < 16 MiB.
  static constexpr size_t kMaxBlockContent = 0xFFFFFF;
  // §EventBlock header: HeaderSize(2) + Flags(2) + MinTimestamp(8) + MaxTimestamp(8).
  static constexpr size_t kEventBlockHeaderSize = 20;

  /// Writes the stream header ("Nettrace", Reserved = 0, Major, Minor;
  /// NetTraceFormat.md §First Bytes). Other versions are for tests of readers.
  explicit NetTraceV6Writer(uint32_t majorVersion = 6, uint32_t minorVersion = 0);

  /// The TraceBlock; must be the first block (§TraceBlock), written once. Writes
  /// info.keyValues in order; a non-zero processId / numberOfProcessors /
  /// expectedCpuSamplingRate whose well-known key is absent is appended as that key
  /// ("ProcessId", "HardwareThreadCount", "ExpectedCPUSamplingRate"); a present key must
  /// agree. formatMajor/Minor and traceObjectVersion are ignored (the header has them).
  /// @returns kInvalidArgument for a pointer size other than 4 or 8.
  Status WriteTraceBlock(const TraceInfo& info);

  /// A MetadataBlock with `extraHeaderBytes` zero bytes of (reader-ignored) header.
  /// Optional metadata is emitted in kind order: OpCode, Keyword, MessageTemplate,
  /// Description, KeyValue..., ProviderGuid, Level, Version; keywords/level/version only
  /// when hasKeywords/hasLevel/hasVersion (a non-zero value without its flag is an
  /// error, not a silent loss). fieldsFromV2Params is v5 provenance and is ignored.
  Status WriteMetadataBlock(std::span<const EventMetadata> rows, uint16_t extraHeaderBytes = 0);

  /// A ThreadBlock; info kinds in the order Name, OSProcessId, OSThreadId, KeyValue...
  Status WriteThreadBlock(std::span<const ThreadInfo> threads);
  Status WriteRemoveThreadBlock(std::span<const ThreadSequence> threads);
  /// A StackBlock: stack k gets id firstId + k. Each stack's size must be a multiple of
  /// the trace block's pointer size.
  Status WriteStackBlock(uint32_t firstId, std::span<const std::vector<uint8_t>> stacks);
  /// A LabelListBlock: list k gets id firstIndex + k; firstIndex >= 1 and no list is
  /// empty (§LabelListBlock: index 0 is the implicit empty list).
  Status WriteLabelListBlock(uint32_t firstIndex, std::span<const LabelList> lists);
  /// One EventBlock holding all of `events` (at least one), uncompressed or with header
  /// compression. @returns kLimitExceeded if they do not fit in one block.
  Status WriteEventBlock(std::span<const EventRecord> events, bool compressed);
  /// As many EventBlocks as needed, each with at most maxBlockContent content bytes
  /// (capped at kMaxBlockContent): the way to write millions of events.
  Status WriteEvents(std::span<const EventRecord> events, bool compressed, size_t maxBlockContent = kMaxBlockContent);
  Status WriteSequencePointBlock(const SequencePoint& point);
  /// Any kind byte with any content, in any state: for unknown kinds and broken streams
  /// in tests. The only call allowed before the trace block or after end of stream.
  Status WriteRawBlock(uint8_t kind, std::span<const uint8_t> content);
  Status WriteEndOfStream();

  std::vector<uint8_t>& bytes() { return bytes_; }
  const std::vector<uint8_t>& bytes() const { return bytes_; }
  /// Moves the pending bytes out (they always end on a block boundary).
  std::vector<uint8_t> TakeBytes();
  /// Total bytes produced, including those already taken: the next block's file offset.
  uint64_t bytesWritten() const { return taken_ + bytes_.size(); }

 private:
  enum class State : uint8_t { kNeedTraceBlock, kBlocks, kEnded };

  Status RequireBlocksState(const char* what) const;
  // Appends a block header placeholder for `kind`; returns where the block starts.
  size_t BeginBlock(uint8_t kind);
  // Patches the size of the block begun at `start`, or removes it and fails if its
  // content does not fit the 24-bit BlockSize.
  Status EndBlock(size_t start, const char* what);
  // EndBlock if the content was encoded, else removes the block and returns `encoded`.
  Status FinishBlock(size_t start, Status encoded, const char* what);
  // split = false: everything must fit in one block.
  Status WriteEventBlocks(std::span<const EventRecord> events, bool compressed, size_t maxBlockContent, bool split);

  std::vector<uint8_t> bytes_;
  uint64_t taken_ = 0;
  uint32_t pointerSize_ = 0;
  State state_ = State::kNeedTraceBlock;
};

}  // namespace nettrace
