// Support shared by the write → read round-trip tests of both writers (v6:
// unit/v6/v6_test_support.h, v4/v5: unit/write/v5_test_support.h): an ExpectedTrace that
// a writer wrapper fills with what the reader should report, a chunked read through
// TraceReader into a RecordingSink, and the field-by-field comparison.
#pragma once

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "format/trace_reader.h"
#include "unit/v6/recording_sink.h"

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

// What the reader should report for a trace, built up by a writer wrapper as it writes.
class ExpectedTrace {
 public:
  const Recording& expected() const { return expected_; }
  // Per expected event: whether isSorted is compared.
  const std::vector<bool>& compareSorted() const { return compareSorted_; }

 protected:
  template <typename T, typename V>
  void Expect(Callback c, std::vector<T>& to, const V& value) {
    to.push_back(value);
    expected_.order.push_back(c);
  }
  void ExpectEvent(const RecordedEvent& e, bool compareSorted) {
    Expect(Callback::kEvent, expected_.events, e);
    compareSorted_.push_back(compareSorted);
  }
  void ExpectEndOfStream() {
    ++expected_.endOfStreams;
    expected_.order.push_back(Callback::kEndOfStream);
  }

  Recording expected_;
  std::vector<bool> compareSorted_;
};

struct ReadResult {
  Recording recording;
  Status status;             // the first error of Push or Finish, else Ok
  Stats stats;               // the reader's anomaly counters
  uint32_t formatMajor = 0;  // TraceReader::formatMajor() at the end (4, 5 or 6)
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
  result.formatMajor = reader.formatMajor();
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
    CHECK(got.blocks[i].contentOffset == want.blocks[i].contentOffset);
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
// report exactly what was written. W: a writer wrapper with bytes(), expected() and
// compareSorted() (ExpectingWriter, ExpectingV5Writer).
template <typename W>
void RequireRoundTrip(const W& w, std::initializer_list<size_t> chunks = {1, 7, 4096, 0}) {
  for (size_t chunk : chunks) {
    INFO("chunk size " << chunk << " (0 = whole file of " << w.bytes().size() << " bytes)");
    ReadResult r = ReadInChunks(w.bytes(), chunk);
    INFO(r.status.ToString());
    REQUIRE(r.status.ok());
    RequireSameRecording(r.recording, w.expected(), w.compareSorted(), w.bytes());
  }
}

}  // namespace nettrace::testing
