// Support for the v4/v5 writer's round-trip tests: an ExpectingV5Writer that writes a
// trace with NetTraceV5Writer and records, for every call, what the reader should report
// back. It walks the FastSerialization framing of every object the writer appends with
// its own small parser (NetTraceFormat_v5.md §Objects), so tags, type versions, block
// sizes and the 4-byte alignment of block content are checked independently of the
// reader, and it knows the BlockInfo the reader should announce.
#pragma once

#include <catch2/catch.hpp>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "unit/v6/recording_sink.h"
#include "unit/write/round_trip_support.h"
#include "write/nettrace_v5_writer.h"

namespace nettrace::testing {

// Writes through NetTraceV5Writer (every call must succeed) and accumulates `expected`.
// IsSorted is compared in both blob encodings: writer and reader share TraceEvent's
// polarity for uncompressed blobs (format-pitfalls.md §5).
class ExpectingV5Writer : public ExpectedTrace {
 public:
  using Version = NetTraceV5Writer::Version;
  explicit ExpectingV5Writer(Version version = Version::kV5) : w_(version) {}

  void Trace(const TraceInfo& info) {
    Do(w_.WriteTraceObject(info));
    TraceInfo expected = info;
    // The reader reports the container's major version (4: v5 shows only in metadata
    // tags) and the Trace object's type version.
    expected.formatMajor = 4, expected.formatMinor = 0;
    expected.traceObjectVersion = info.traceObjectVersion == 0 ? 4 : info.traceObjectVersion;
    Expect(Callback::kTraceInfo, expected_.traceInfos, expected);
  }
  void Metadata(const std::vector<EventMetadata>& rows, bool compressed = true, uint16_t extraHeaderBytes = 0) {
    Do(w_.WriteMetadataBlock(rows, compressed, extraHeaderBytes));
    for (EventMetadata m : rows) {
      m.hasKeywords = m.hasLevel = m.hasVersion = false;  // v6 flags: the v4/v5 reader leaves them false
      Expect(Callback::kMetadata, expected_.metadata, m);
    }
  }
  void Stacks(uint32_t firstId, const std::vector<std::vector<uint8_t>>& stacks) {
    Do(w_.WriteStackBlock(firstId, stacks));
    for (size_t i = 0; i < stacks.size(); ++i)
      Expect(Callback::kStack, expected_.stacks, std::make_pair(firstId + static_cast<uint32_t>(i), stacks[i]));
  }
  // maxBlockContent == 0: one block (WriteEventBlock); else WriteEvents with that limit.
  void Events(const std::vector<RecordedEvent>& events, bool compressed, size_t maxBlockContent = 0,
              uint16_t extraHeaderBytes = 0) {
    std::vector<EventRecord> records;
    for (const auto& e : events) records.push_back(e.ToRecord());
    Do(maxBlockContent == 0 ? w_.WriteEventBlock(records, compressed, extraHeaderBytes)
                            : w_.WriteEvents(records, compressed, maxBlockContent));
    for (const auto& e : events) ExpectEvent(e, /*compareSorted=*/true);
  }
  void Point(const SequencePoint& sp) {
    Do(w_.WriteSequencePointBlock(sp));
    Expect(Callback::kSequencePoint, expected_.sequencePoints, sp);
  }
  void End() {
    Do(w_.WriteEndOfStream());
    ExpectEndOfStream();
  }

  NetTraceV5Writer& writer() { return w_; }
  const std::vector<uint8_t>& bytes() const { return w_.bytes(); }

 private:
  static int32_t I32At(const std::vector<uint8_t>& b, size_t at) {
    REQUIRE(at + 4 <= b.size());
    int32_t v;
    std::memcpy(&v, b.data() + at, 4);
    return v;
  }

  // §Objects: BeginPrivateObject, then the type: BeginPrivateObject, NullReference, int
  // version, int minimum reader version, int name length, name, EndObject. Then the
  // Trace object's 48 bytes of fields, or a block (int BlockSize, zero padding to a
  // 4-byte offset, content); then EndObject.
  void WalkObject(const std::vector<uint8_t>& b) {
    const size_t at = walked_;
    REQUIRE(at + 15 <= b.size());
    REQUIRE(b[at] == 5);
    REQUIRE(b[at + 1] == 5);
    REQUIRE(b[at + 2] == 1);
    const int32_t version = I32At(b, at + 3), minReader = I32At(b, at + 7), nameLength = I32At(b, at + 11);
    REQUIRE(nameLength > 0);
    const size_t headerSize = 15 + static_cast<size_t>(nameLength) + 1;
    REQUIRE(at + headerSize <= b.size());
    const std::string name(reinterpret_cast<const char*>(b.data() + at + 15), nameLength);
    REQUIRE(b[at + headerSize - 1] == 6);
    BlockInfo info;
    info.offset = at;
    if (name == "Trace") {
      CHECK(version >= 4);
      CHECK(minReader == 4);
      info.kind = BlockKind::kTrace;
      info.payloadSize = 48;
      info.contentOffset = at + headerSize;
    } else {
      // §EventBlock, MetadataBlock, StackBlock, SPBlock: "Version: 2, MinumumReaderVersion: 2".
      CHECK(version == 2);
      CHECK(minReader == 2);
      info.kind = name == "EventBlock"      ? BlockKind::kEvent
                  : name == "MetadataBlock" ? BlockKind::kMetadata
                  : name == "StackBlock"    ? BlockKind::kStack
                  : name == "SPBlock"       ? BlockKind::kSequencePoint
                                            : BlockKind::kUnknown;
      REQUIRE(info.kind != BlockKind::kUnknown);
      const int32_t blockSize = I32At(b, at + headerSize);
      REQUIRE(blockSize >= 0);
      info.payloadSize = static_cast<uint64_t>(blockSize);
      size_t content = at + headerSize + 4;
      while (content % 4 != 0) REQUIRE(b[content++] == 0);  // padding: zeros to a 4-byte file offset
      info.contentOffset = content;
    }
    const size_t end = info.contentOffset + info.payloadSize;
    REQUIRE(end < b.size());
    REQUIRE(b[end] == 6);
    expected_.blocks.push_back(info);
    walked_ = end + 1;
  }

  // Every successful call adds whole objects (or the end tag): walk them.
  void Do(const Status& s) {
    INFO(s.ToString());
    REQUIRE(s.ok());
    const std::vector<uint8_t>& b = w_.bytes();
    while (walked_ < b.size()) {
      if (b[walked_] == 1) {  // NullReference: the end of the object list
        ++walked_;
        REQUIRE(walked_ == b.size());
        continue;
      }
      WalkObject(b);
    }
  }

  NetTraceV5Writer w_;
  size_t walked_ = 32;  // past "Nettrace" and the "!FastSerialization.1" stream header
};

}  // namespace nettrace::testing
