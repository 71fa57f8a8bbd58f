// core/write — a NetTrace v4/v5 writer (NetTraceFormat_v5.md): the "Nettrace" magic, the
// "!FastSerialization.1" stream header, then FastSerialization objects (Trace,
// MetadataBlock, EventBlock, StackBlock, SPBlock) and the NullReference end tag, from
// the same record structs the reader produces (format/records.h). The sibling of the v6
// writer (nettrace_writer.h); tests use it for v4/v5 traces the corpus lacks (lying
// IsSorted flags at scale, both event blob encodings, odd header sizes).
//
// v4 and v5 differ only in the metadata tags v5 adds (§Version 4 -> 5); a reader can
// tell them apart only by those tags (format-pitfalls.md §7). Both write Trace object
// version 4 and block objects of version 2, as .NET 5+ runtimes do.
//
// Invariants (as in the v6 writer):
//  * Each Write* call appends whole objects or nothing: on an error the output is left
//    exactly as before the call.
//  * The writer checks that what it is given is ENCODABLE and reads back unchanged; v6-
//    only content (label lists, key/values, message templates, ...) is an error, not a
//    silent loss. It does not track references between objects (metadata and stack ids):
//    bad-input tests rely on being able to break them.
//  * Bytes accumulate in bytes(); TakeBytes() hands them out between calls;
//    bytesWritten() counts everything ever produced. Alignment padding is computed from
//    bytesWritten(), i.e. relative to the stream start, as the spec requires.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "format/records.h"

namespace nettrace {

class NetTraceV5Writer {
 public:
  enum class Version : uint8_t { kV4 = 4, kV5 = 5 };

  // Block content is an int32 BlockSize; our reader accepts at most 1 GiB
  // (trace_reader.cc kMaxFastSerializationBlock), so the writer produces no more.
  static constexpr size_t kMaxBlockContent = size_t{1} << 30;
  // Real traces' blocks are about 100 KB: the default split size of WriteEvents.
  static constexpr size_t kDefaultBlockContent = 100 * 1024;
  // §The EventBlock Object header: HeaderSize(2) + Flags(2) + Min and Max Timestamp(8 + 8).
  static constexpr size_t kEventBlockHeaderSize = 20;

  /// Writes the stream header: "Nettrace", int 20, "!FastSerialization.1"
  /// (§First Bytes, §Stream Header). kV4 refuses metadata that needs v5 tags.
  explicit NetTraceV5Writer(Version version = Version::kV5);

  /// The Trace object; must come first, written once (§The First Object). Its type
  /// version is info.traceObjectVersion (0 means 4; below 4 is refused), minimum reader
  /// version 4. formatMajor/formatMinor are ignored (the constructor decides).
  /// @returns kInvalidArgument for a pointer size other than 4 or 8, or key/values
  ///          (v6 only).
  Status WriteTraceObject(const TraceInfo& info);

  /// A MetadataBlock: one event blob per row (MetadataId 0, zero header fields) whose
  /// payload is the metadata record (§Metadata event encoding). v5: an opcode becomes an
  /// OpCode tag; fieldsFromV2Params = true writes an empty V1 list and the fields as a
  /// V2Params tag (needed for arrays), false writes them as V1 fields (scalars and
  /// Objects only). hasKeywords/hasLevel/hasVersion are ignored (always carried).
  /// extraHeaderBytes: reserved bytes after the 20-byte block header (any count, so
  /// uncompressed blobs' padding is tested off a 4-byte block offset).
  Status WriteMetadataBlock(std::span<const EventMetadata> rows, bool compressed = true,
                            uint16_t extraHeaderBytes = 0);
  /// One EventBlock holding all of `events` (at least one). Events carry activity ids
  /// but no label list id (must be 0). @returns kLimitExceeded if they do not fit.
  Status WriteEventBlock(std::span<const EventRecord> events, bool compressed, uint16_t extraHeaderBytes = 0);
  /// As many EventBlocks as needed, each with at most maxBlockContent content bytes
  /// (capped at kMaxBlockContent): the way to write many events.
  Status WriteEvents(std::span<const EventRecord> events, bool compressed,
                     size_t maxBlockContent = kDefaultBlockContent);
  /// A StackBlock: stack k gets id firstId + k; each stack a whole number of pointers.
  Status WriteStackBlock(uint32_t firstId, std::span<const std::vector<uint8_t>> stacks);
  /// An SPBlock. v4/v5 sequence points have no flags: point.flags must be 0.
  Status WriteSequencePointBlock(const SequencePoint& point);
  /// Any type name with any content, framed as a block object (BlockSize, padding,
  /// content, EndObject), in any state: for unknown objects and broken streams in tests.
  Status WriteRawObject(std::string_view typeName, std::span<const uint8_t> content, int32_t version = 2,
                        int32_t minReaderVersion = 2);
  /// The NullReference tag that ends the object list (§Ending the stream).
  Status WriteEndOfStream();

  Version version() const { return version_; }
  std::vector<uint8_t>& bytes() { return bytes_; }
  const std::vector<uint8_t>& bytes() const { return bytes_; }
  /// Moves the pending bytes out (they always end on an object boundary).
  std::vector<uint8_t> TakeBytes();
  /// Total bytes produced, including those already taken: the next object's offset.
  uint64_t bytesWritten() const { return taken_ + bytes_.size(); }

 private:
  enum class State : uint8_t { kNeedTrace, kObjects, kEnded };
  // A block object being written: where it starts, its BlockSize field and its content.
  struct OpenBlock {
    size_t start = 0, sizeAt = 0, contentStart = 0;
  };
  struct BlobBlockOptions {
    bool compressed = true;
    uint16_t extraHeaderBytes = 0;
    size_t maxContent = kMaxBlockContent;
    bool split = false;  // false: every row must fit in one block
  };

  Status RequireObjectsState(const char* what) const;
  // Appends BeginPrivateObject and the type (§Objects: "Type object").
  void PutObjectType(std::string_view typeName, int32_t version, int32_t minReaderVersion);
  // The type, then int BlockSize (patched later) and zero padding to a 4-byte offset.
  OpenBlock BeginBlock(std::string_view typeName, int32_t version = 2, int32_t minReaderVersion = 2);
  // Patches BlockSize and appends EndObject, or removes the block if it is too big.
  Status EndBlock(const OpenBlock& block, const char* what);
  // EndBlock if the content was encoded, else removes the block and returns `encoded`.
  Status FinishBlock(const OpenBlock& block, Status encoded, const char* what);
  // EventBlocks or a MetadataBlock: the block header, then the rows as event blobs.
  Status WriteBlobBlocks(std::string_view typeName, std::span<const EventRecord> rows, const BlobBlockOptions& o);
  OpenBlock BeginBlobBlock(std::string_view typeName, const BlobBlockOptions& o);
  Status EndBlobBlock(const OpenBlock& block, const BlobBlockOptions& o, uint64_t minTs, uint64_t maxTs);

  std::vector<uint8_t> bytes_;
  uint64_t taken_ = 0;
  uint32_t pointerSize_ = 0;
  Version version_;
  State state_ = State::kNeedTrace;
};

}  // namespace nettrace
