// Support for the v6 round-trip and bad-input tests: an ExpectingWriter that writes a
// trace with NetTraceV6Writer and records, for every call, what the reader should report
// back; a chunked read through TraceReader into a RecordingSink; and the comparison.
#pragma once

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "format/trace_reader.h"
#include "unit/v6/recording_sink.h"
#include "write/nettrace_writer.h"

namespace nettrace::testing {

inline std::vector<uint8_t> Bytes(std::initializer_list<int> values) {
  std::vector<uint8_t> out;
  for (int v : values) out.push_back(static_cast<uint8_t>(v));
  return out;
}

inline TraceInfo BasicTraceInfo(uint32_t pointerSize = 8) {
  TraceInfo info;
  info.syncTimeUtc = {2025, 2, 1, 3, 4, 5, 6, 0};
  info.syncTimeTicks = 0;
  info.tickFrequency = 1000;
  info.pointerSize = pointerSize;
  return info;
}

// Writes through NetTraceV6Writer (every call must succeed) and accumulates `expected`.
class ExpectingWriter {
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
    for (const auto& e : events) {
      Expect(Callback::kEvent, expected_.events, e);
      compareSorted_.push_back(compressed);
    }
  }
  void Point(const SequencePoint& sp) {
    Do(w_.WriteSequencePointBlock(sp));
    Expect(Callback::kSequencePoint, expected_.sequencePoints, sp);
  }
  void Raw(uint8_t kind, const std::vector<uint8_t>& content) { Do(w_.WriteRawBlock(kind, content)); }
  void End() {
    Do(w_.WriteEndOfStream());
    ++expected_.endOfStreams;
    expected_.order.push_back(Callback::kEndOfStream);
  }

  NetTraceV6Writer& writer() { return w_; }
  const std::vector<uint8_t>& bytes() const { return w_.bytes(); }
  const Recording& expected() const { return expected_; }
  // Per expected event: whether isSorted is compared (compressed rows only).
  const std::vector<bool>& compareSorted() const { return compareSorted_; }

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
      expected_.blocks.push_back(info);
      walked_ += 4 + info.payloadSize;
    }
  }
  template <typename T, typename V>
  void Expect(Callback c, std::vector<T>& to, const V& value) {
    to.push_back(value);
    expected_.order.push_back(c);
  }

  NetTraceV6Writer w_;
  uint32_t major_, minor_;
  size_t walked_ = 20;  // past the stream header
  Recording expected_;
  std::vector<bool> compareSorted_;
};

struct ReadResult {
  Recording recording;
  Status status;  // the first error of Push or Finish, else Ok
  Stats stats;    // the reader's anomaly counters
};

// Feeds `bytes` to a TraceReader `chunk` bytes at a time (0 = all at once), then Finish().
inline ReadResult ReadInChunks(const std::vector<uint8_t>& bytes, size_t chunk) {
  RecordingSink sink;
  ReadResult result;
  TraceReader reader(&sink, &result.stats);
  if (chunk == 0) chunk = std::max<size_t>(bytes.size(), 1);
  for (size_t at = 0; at < bytes.size() && result.status.ok(); at += chunk)
    result.status = reader.Push(bytes.data() + at, std::min(chunk, bytes.size() - at));
  if (result.status.ok()) result.status = reader.Finish();
  result.recording = std::move(sink.recording());
  return result;
}

inline std::string CallbackName(Callback c) {
  static const char* const kNames[] = {"trace",    "metadata", "stack", "thread",     "remove-thread",
                                       "label list", "event",  "sequence point", "end of stream"};
  return kNames[static_cast<int>(c)];
}

// Requires `got` to be exactly `want`; `file` checks that each event's payloadOffset
// really locates its payload.
inline void RequireSameRecording(const Recording& got, const Recording& want, const std::vector<bool>& compareSorted,
                                 const std::vector<uint8_t>& file) {
  REQUIRE(got.order.size() == want.order.size());
  for (size_t i = 0; i < want.order.size(); ++i) {
    INFO("callback " << i << ": got " << CallbackName(got.order[i]) << ", want " << CallbackName(want.order[i]));
    REQUIRE(got.order[i] == want.order[i]);
  }
  REQUIRE(got.blocks.size() == want.blocks.size());
  for (size_t i = 0; i < want.blocks.size(); ++i) {
    INFO("block " << i << " at offset " << want.blocks[i].offset);
    CHECK(got.blocks[i].kind == want.blocks[i].kind);
    CHECK(got.blocks[i].rawKind == want.blocks[i].rawKind);
    CHECK(got.blocks[i].offset == want.blocks[i].offset);
    CHECK(got.blocks[i].payloadSize == want.blocks[i].payloadSize);
  }
  CHECK(got.traceInfos == want.traceInfos);
  for (size_t i = 0; i < want.metadata.size(); ++i) {
    INFO("metadata " << i << " (id " << want.metadata[i].id << ")");
    CHECK(got.metadata[i] == want.metadata[i]);
  }
  CHECK(got.stacks == want.stacks);
  CHECK(got.threads == want.threads);
  CHECK(got.removedThreads == want.removedThreads);
  for (size_t i = 0; i < want.labelLists.size(); ++i) {
    INFO("label list " << want.labelLists[i].first);
    CHECK(got.labelLists[i] == want.labelLists[i]);
  }
  for (size_t i = 0; i < want.events.size(); ++i) {
    const RecordedEvent& g = got.events[i];
    INFO("event " << i << ": got " << g.ToString() << ", want " << want.events[i].ToString());
    CHECK(g.SameAs(want.events[i], compareSorted[i]));
    REQUIRE(g.payloadOffset + g.payload.size() <= file.size());
    CHECK(std::equal(g.payload.begin(), g.payload.end(), file.begin() + static_cast<ptrdiff_t>(g.payloadOffset)));
  }
  CHECK(got.sequencePoints == want.sequencePoints);
  CHECK(got.endOfStreams == want.endOfStreams);
}

// The round trip at chunk sizes 1, 7, 4096 and whole (style.md §2): each must succeed and
// report exactly what was written.
inline void RequireRoundTrip(const ExpectingWriter& w, std::initializer_list<size_t> chunks = {1, 7, 4096, 0}) {
  for (size_t chunk : chunks) {
    INFO("chunk size " << chunk << " (0 = whole file of " << w.bytes().size() << " bytes)");
    ReadResult r = ReadInChunks(w.bytes(), chunk);
    INFO(r.status.ToString());
    REQUIRE(r.status.ok());
    RequireSameRecording(r.recording, w.expected(), w.compareSorted(), w.bytes());
  }
}

}  // namespace nettrace::testing
