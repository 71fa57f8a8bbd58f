// The summary counts events as the store keeps them (model/event_counts.h, behind the
// sorter): its stack counts are the store's stacks, and a summary asked for while reading
// counts the events the sorter still holds as well as those it released.
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "model/store_builder.h"
#include "test_support.h"
#include "unit/stacks/mini_json.h"
#include "write/nettrace_writer.h"

using namespace nettrace;

namespace {

// A v6 trace of one thread: `events` events of type "P/E" (every other one with stack 1,
// which has frames; the last names stack 7, which no stack block defines), none marked
// sorted, and no sequence point: every event waits in the sorter until the end of the stream.
std::vector<uint8_t> Written(uint32_t events) {
  NetTraceV6Writer w;
  ThreadInfo t;
  t.index = 1;
  t.osThreadId = 500;
  REQUIRE(test::WriteOneTypeV6Start(w, std::span<const ThreadInfo>(&t, 1)).ok());
  const std::vector<std::vector<uint8_t>> stacks = {std::vector<uint8_t>(8, 0x11)};
  REQUIRE(w.WriteStackBlock(1, stacks).ok());
  static const uint8_t payload[4] = {1, 2, 3, 4};
  std::vector<EventRecord> rows;
  for (uint32_t i = 0; i < events; ++i) {
    EventRecord e;
    e.metadataId = 1;
    e.thread = e.captureThread = 1;
    e.sequenceNumber = i + 1;
    e.timestamp = 100 + i;
    e.stackId = i + 1 == events ? 7 : (i % 2 == 0 ? 1 : 0);
    e.payload = payload;
    rows.push_back(e);
  }
  REQUIRE(w.WriteEvents(rows, true).ok());
  REQUIRE(w.WriteEndOfStream().ok());
  return w.bytes();
}

test::Json Summary(const TraceSession& session) {
  test::Json summary;
  REQUIRE(test::ParseJson(session.SummaryJson(), &summary));
  return summary;
}

}  // namespace

TEST_CASE("an event whose stack id names no stack has no stack in the summary, as in the store", "[summary]") {
  const std::vector<uint8_t> bytes = Written(9);  // stacks: events 1, 3, 5, 7; event 9 dangling
  TraceSession session;
  REQUIRE(session.PushChunk(bytes.data(), bytes.size()).ok());
  REQUIRE(session.Finish().ok());
  const test::Json s = Summary(session);
  CHECK(s["eventCount"].number == 9);
  CHECK(s["eventsWithStacks"].number == 4);
  REQUIRE(s["types"].array.size() == 1);
  CHECK(s["types"][0]["withStacks"].number == 4);
  bool counted = false;  // the dangling id is still reported, as a statistic of the file
  for (const test::Json& stat : s["stats"].array)
    if (stat["name"].string == "stackIdsUnresolved") counted = stat["value"].number == 1;
  CHECK(counted);
}

TEST_CASE("a summary asked for while reading counts the events the sorter still holds", "[summary]") {
  const std::vector<uint8_t> bytes = Written(40);
  TraceSession session;
  // Everything but the end-of-stream marker: no event is released to the store yet.
  REQUIRE(session.PushChunk(bytes.data(), bytes.size() - 1).ok());
  REQUIRE(session.eventCount() == 40);
  REQUIRE(session.model().store().size() == 0);
  const test::Json reading = Summary(session);
  CHECK(reading["eventCount"].number == 40);
  CHECK(reading["eventsWithStacks"].number == 20);
  CHECK(reading["types"][0]["count"].number == 40);
  CHECK(reading["timeRange"]["firstTimestamp"].number == 100);
  CHECK(reading["timeRange"]["lastTimestamp"].number == 139);
  CHECK(reading["threads"][0]["eventCount"].number == 40);
  CHECK(session.TraceEventCounts() == "P/E, 40\n");
  // Once read to the end, the same counts from the store's rows.
  REQUIRE(session.PushChunk(bytes.data() + bytes.size() - 1, 1).ok());
  REQUIRE(session.Finish().ok());
  REQUIRE(session.model().store().size() == 40);
  const test::Json read = Summary(session);
  CHECK(read["eventCount"].number == 40);
  CHECK(read["eventsWithStacks"].number == 20);
  CHECK(read["types"][0]["count"].number == 40);
  CHECK(read["threads"][0]["eventCount"].number == 40);
}

TEST_CASE("events on a thread the full table could not hold are its key's, not the row thread's", "[summary]") {
  // The thread table holds 65,535 threads: index 65,536 is defined by the file but not by
  // the table, so its events' rows get the table's last thread (index 65,535) and the
  // summary moves them back to their own key.
  NetTraceV6Writer w;
  std::vector<ThreadInfo> threads(65536);
  for (uint32_t i = 0; i < threads.size(); ++i) threads[i].index = i + 1, threads[i].osThreadId = 1000 + i;
  REQUIRE(test::WriteOneTypeV6Start(w, threads).ok());
  static const uint8_t payload[1] = {0};
  std::vector<EventRecord> rows;
  for (uint64_t thread : {1, 65535, 65536, 65536}) {
    EventRecord e;
    e.metadataId = 1;
    e.thread = e.captureThread = thread;
    e.sequenceNumber = static_cast<uint32_t>(1 + std::count_if(rows.begin(), rows.end(),
                                                               [&](const EventRecord& r) { return r.thread == thread; }));
    e.timestamp = 100 + rows.size();
    e.payload = payload;
    rows.push_back(e);
  }
  REQUIRE(w.WriteEvents(rows, true).ok());
  REQUIRE(w.WriteEndOfStream().ok());
  TraceSession session;
  REQUIRE(session.PushChunk(w.bytes().data(), w.bytes().size()).ok());
  REQUIRE(session.Finish().ok());
  const test::Json s = Summary(session);
  std::map<uint64_t, uint64_t> events;  // by thread index, threads with events
  for (const test::Json& t : s["threads"].array)
    if (t["eventCount"].number > 0) events[static_cast<uint64_t>(t["index"].number)] = static_cast<uint64_t>(t["eventCount"].number);
  CHECK(events == std::map<uint64_t, uint64_t>{{1, 1}, {65535, 1}, {65536, 2}});
  CHECK(s["eventCount"].number == 4);
  bool counted = false;  // the table's limit is reported
  for (const test::Json& stat : s["stats"].array) counted = counted || stat["name"].string == "tooManyThreads";
  CHECK(counted);
}
