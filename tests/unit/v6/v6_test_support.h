// Support for the v6 round-trip and bad-input tests: an ExpectingWriter that writes a
// trace with NetTraceV6Writer and records, for every call, what the reader should report
// back. The chunked read and the comparison are shared with the v4/v5 writer's tests
// (unit/write/round_trip_support.h).
#pragma once

#include <catch2/catch.hpp>

#include <cstring>
#include <cstdint>
#include <vector>

#include "unit/v6/recording_sink.h"
#include "unit/write/round_trip_support.h"
#include "write/nettrace_writer.h"

namespace nettrace::testing {

// Writes through NetTraceV6Writer (every call must succeed) and accumulates `expected`.
class ExpectingWriter : public ExpectedTrace {
 public:
  explicit ExpectingWriter(uint32_t major = 6, uint32_t minor = 0) : w_(major, minor), major_(major), minor_(minor) {}

  // `expected` is what the reader should report (well-known keys parsed, versions set).
  void Trace(const TraceInfo& info, TraceInfo expected) {
    Do(w_.WriteTraceBlock(info));
    expected.formatMajor = major_, expected.formatMinor = minor_;
    Expect(Callback::kTraceInfo, expected_.traceInfos, expected);
  }
  void Trace(const TraceInfo& info) { Trace(info, info); }
  void Metadata(const std::vector<EventMetadata>& rows, uint16_t extraHeaderBytes = 0) {
    Do(w_.WriteMetadataBlock(rows, extraHeaderBytes));
    for (const auto& m : rows) Expect(Callback::kMetadata, expected_.metadata, m);
  }
  void Threads(const std::vector<ThreadInfo>& rows) {
    Do(w_.WriteThreadBlock(rows));
    for (const auto& t : rows) Expect(Callback::kThread, expected_.threads, t);
  }
  // A hand-made thread block (e.g. info kinds in an order the writer does not use).
  void RawThreads(const std::vector<uint8_t>& content, const std::vector<ThreadInfo>& rows) {
    Do(w_.WriteRawBlock(static_cast<uint8_t>(BlockKind::kThread), content));
    for (const auto& t : rows) Expect(Callback::kThread, expected_.threads, t);
  }
  void RemoveThreads(const std::vector<ThreadSequence>& rows) {
    Do(w_.WriteRemoveThreadBlock(rows));
    for (const auto& t : rows) Expect(Callback::kRemoveThread, expected_.removedThreads, t);
  }
  void Stacks(uint32_t firstId, const std::vector<std::vector<uint8_t>>& stacks) {
    Do(w_.WriteStackBlock(firstId, stacks));
    for (size_t i = 0; i < stacks.size(); ++i)
      Expect(Callback::kStack, expected_.stacks, std::make_pair(firstId + static_cast<uint32_t>(i), stacks[i]));
  }
  void LabelLists(uint32_t firstIndex, const std::vector<LabelList>& lists) {
    Do(w_.WriteLabelListBlock(firstIndex, lists));
    for (size_t i = 0; i < lists.size(); ++i)
      Expect(Callback::kLabelList, expected_.labelLists,
             std::make_pair(firstIndex + static_cast<uint32_t>(i), lists[i]));
  }
  // maxBlockContent == 0: one block (WriteEventBlock); else WriteEvents with that limit.
  void Events(const std::vector<RecordedEvent>& events, bool compressed, size_t maxBlockContent = 0) {
    std::vector<EventRecord> records;
    for (const auto& e : events) records.push_back(e.ToRecord());
    Do(maxBlockContent == 0 ? w_.WriteEventBlock(records, compressed)
                            : w_.WriteEvents(records, compressed, maxBlockContent));
    for (const auto& e : events) ExpectEvent(e, /*compareSorted=*/compressed);
  }
  void Point(const SequencePoint& sp) {
    Do(w_.WriteSequencePointBlock(sp));
    Expect(Callback::kSequencePoint, expected_.sequencePoints, sp);
  }
  void Raw(uint8_t kind, const std::vector<uint8_t>& content) { Do(w_.WriteRawBlock(kind, content)); }
  void End() {
    Do(w_.WriteEndOfStream());
    ExpectEndOfStream();
  }

  NetTraceV6Writer& writer() { return w_; }
  const std::vector<uint8_t>& bytes() const { return w_.bytes(); }

 private:
  // Every successful call adds whole blocks: walk their headers (§Blocks) for the
  // BlockInfo the reader should announce.
  void Do(const Status& s) {
    INFO(s.ToString());
    REQUIRE(s.ok());
    const std::vector<uint8_t>& b = w_.bytes();
    while (walked_ < b.size()) {
      REQUIRE(walked_ + 4 <= b.size());
      uint32_t header;
      std::memcpy(&header, b.data() + walked_, 4);
      BlockInfo info;
      info.rawKind = static_cast<uint8_t>(header >> 24);
      info.kind = info.rawKind <= 8 ? static_cast<BlockKind>(info.rawKind) : BlockKind::kUnknown;
      info.offset = walked_;
      info.payloadSize = header & 0xFFFFFF;
      info.contentOffset = walked_ + 4;
      expected_.blocks.push_back(info);
      walked_ += 4 + info.payloadSize;
    }
  }

  NetTraceV6Writer w_;
  uint32_t major_, minor_;
  size_t walked_ = 20;  // past the stream header
};

}  // namespace nettrace::testing
