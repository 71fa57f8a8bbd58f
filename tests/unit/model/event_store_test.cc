// The columnar store on real traces: its order equals a stable sort of all events by
// timestamp, every column round-trips, and it stays within 16 bytes per event.
#include <catch2/catch.hpp>

#include <algorithm>

#include "format/tee_sink.h"
#include "format/trace_reader.h"
#include "model/store_builder.h"
#include "unit/model/resolved_store.h"
#include "test_support.h"
#include "write/nettrace_writer.h"

using namespace nettrace;

namespace {

// Every event in file order: (timestamp, file ordinal).
struct FileOrder : RecordSink {
  std::vector<std::pair<uint64_t, uint32_t>> events;
  Status OnEvent(const EventRecord& e) override {
    events.emplace_back(e.timestamp, static_cast<uint32_t>(events.size()));
    return Status::Ok();
  }
};

}  // namespace

TEST_CASE("store order equals a stable sort by timestamp on every corpus trace", "[store][corpus]") {
  for (const auto& name : test::CorpusTraces()) {
    INFO(name);
    auto bytes = test::ReadFile(test::DataPath(name));
    Stats stats;
    test::ResolvedStore resolved(&stats);
    StoreBuilder& builder = resolved.builder;
    FileOrder file;
    TeeSink tee(&resolved.resolver, &file);
    TraceReader reader(&tee, &stats);
    REQUIRE(reader.Push(bytes.data(), bytes.size()).ok());
    REQUIRE(reader.Finish().ok());
    builder.Flush();
    auto expected = file.events;
    std::stable_sort(expected.begin(), expected.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    const EventStore& store = builder.store();
    REQUIRE(store.size() == expected.size());
    EventStore::RowCursor cursor(store);
    for (size_t row = 0; row < store.size(); ++row) {
      INFO("row " << row);
      REQUIRE(store.timestamp(row) == expected[row].first);
      REQUIRE(store.ordinal(row) == expected[row].second);
      // A scan's cursor reads the same, and so does a row looked up again after later rows.
      REQUIRE(cursor.timestamp(row) == expected[row].first);
      REQUIRE(cursor.ordinal(row) == expected[row].second);
      if (row >= 5000) {
        REQUIRE(cursor.timestamp(row - 5000) == expected[row - 5000].first);
        REQUIRE(cursor.ordinal(row - 5000) == expected[row - 5000].second);
        REQUIRE(cursor.timestamp(row) == expected[row].first);
        REQUIRE(cursor.ordinal(row) == expected[row].second);
      }
    }
  }
}

TEST_CASE("bytes per event resident on a real trace", "[store][memory]") {
  auto bytes = test::ReadFile(test::DataPath("HeartRateMonitor.10068.nettrace"));
  TraceSession session;
  REQUIRE(session.PushChunk(bytes.data(), bytes.size()).ok());
  REQUIRE(session.Finish().ok());
  const double perEvent = session.StoreBytesPerEvent();
  WARN("HeartRateMonitor.10068.nettrace: " << perEvent << " bytes per event in the store's columns");
  CHECK(perEvent <= 16.0);
}

TEST_CASE("bytes per event on a written v6 trace of a million events", "[store][memory][v6]") {
  NetTraceV6Writer w;
  TraceInfo info;
  info.tickFrequency = 1000000000;
  info.pointerSize = 8;
  REQUIRE(w.WriteTraceBlock(info).ok());
  EventMetadata m;
  m.id = 1;
  m.providerName = "Bench";
  m.eventName = "Tick";
  REQUIRE(w.WriteMetadataBlock(std::span<const EventMetadata>(&m, 1)).ok());
  std::vector<ThreadInfo> threads(8);
  for (uint64_t t = 0; t < threads.size(); ++t) threads[t].index = t + 1, threads[t].osThreadId = 100 + t;
  REQUIRE(w.WriteThreadBlock(threads).ok());
  const uint8_t payload[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  std::vector<EventRecord> events(1000000);
  std::vector<uint32_t> seq(9, 0);
  for (size_t i = 0; i < events.size(); ++i) {
    EventRecord& e = events[i];
    e.metadataId = 1;
    e.thread = e.captureThread = 1 + i % 8;
    e.sequenceNumber = ++seq[e.captureThread];
    e.timestamp = 1000 + i * 37 - (i % 8) * 5;  // threads interleave slightly out of order
    e.payload = payload;
  }
  REQUIRE(w.WriteEvents(events, true).ok());
  REQUIRE(w.WriteEndOfStream().ok());
  TraceSession session;
  REQUIRE(session.PushChunk(w.bytes().data(), w.bytes().size()).ok());
  REQUIRE(session.Finish().ok());
  REQUIRE(session.eventCount() == 1000000);
  const double perEvent = session.StoreBytesPerEvent();
  WARN("written v6 trace, 1,000,000 events: " << perEvent << " bytes per event");
  CHECK(perEvent <= 16.0);
}
