// v6 label lists override metadata (NetTraceFormat.md §LabelListBlock); scenarios 41/42
// of v6-test-scenarios.md: a runtime GC end event renamed by an opcode override, and an
// EventSource event given a standard and an unknown opcode.
#include <catch2/catch.hpp>

#include "analysis/query/event_query.h"
#include "test_support.h"
#include "write/nettrace_writer.h"

using namespace nettrace;

TEST_CASE("label lists override opcode, keywords, level and version", "[labels][v6]") {
  NetTraceV6Writer w;
  TraceInfo info;
  info.tickFrequency = 1000;
  info.pointerSize = 8;
  REQUIRE(w.WriteTraceBlock(info).ok());
  std::vector<EventMetadata> meta(2);
  meta[0].id = 1;
  meta[0].providerName = "Microsoft-Windows-DotNETRuntime";
  meta[0].eventId = 2;  // GCEnd: "GC/Stop" from the CLR table
  meta[0].version = 1;
  meta[0].hasVersion = true;
  meta[1].id = 2;
  meta[1].providerName = "MyEventSource";
  meta[1].eventName = "TestEvent1";
  REQUIRE(w.WriteMetadataBlock(meta).ok());
  ThreadInfo thread;
  thread.index = 1;
  thread.osThreadId = 42;
  REQUIRE(w.WriteThreadBlock(std::span<const ThreadInfo>(&thread, 1)).ok());
  std::vector<LabelList> lists(4);
  lists[0].labels = {{LabelKind::kOpCode, {}, 8}, {LabelKind::kKeywords, {}, 0x1234}, {LabelKind::kLevel, {}, 19},
                     {LabelKind::kVersion, {}, 4}};
  lists[1].labels = {{LabelKind::kOpCode, {}, 0}};
  lists[2].labels = {{LabelKind::kOpCode, {}, 18}};
  Guid activity;
  activity.bytes[0] = 0xAB;
  lists[3].labels = {{LabelKind::kActivityId, activity}};
  REQUIRE(w.WriteLabelListBlock(10, lists).ok());
  const uint8_t payload[1] = {0};
  std::vector<EventRecord> events;
  auto add = [&](uint32_t meta, uint32_t labels) {
    EventRecord e;
    e.metadataId = meta;
    e.thread = e.captureThread = 1;
    e.sequenceNumber = static_cast<uint32_t>(events.size() + 1);
    e.timestamp = 100 + events.size();
    e.labelListId = labels;
    e.payload = payload;
    events.push_back(e);
  };
  add(1, 10);  // GC/Suspend
  add(1, 11);  // GC
  add(1, 0);   // GC/Stop
  add(2, 10);  // TestEvent1/Suspend
  add(2, 12);  // TestEvent1/18
  add(2, 13);  // TestEvent1, activity id label
  REQUIRE(w.WriteEvents(events, true).ok());
  REQUIRE(w.WriteEndOfStream().ok());

  TraceSession session;
  REQUIRE(session.PushChunk(w.bytes().data(), w.bytes().size()).ok());
  REQUIRE(session.Finish().ok());
  const std::string counts = session.TraceEventCounts();
  CHECK(counts ==
        "Microsoft-Windows-DotNETRuntime/GC, 1\n"
        "Microsoft-Windows-DotNETRuntime/GC/Stop, 1\n"
        "Microsoft-Windows-DotNETRuntime/GC/Suspend, 1\n"
        "MyEventSource/TestEvent1, 1\n"
        "MyEventSource/TestEvent1/18, 1\n"
        "MyEventSource/TestEvent1/Suspend, 1\n");
  // The event table agrees, and shows the labels.
  EventQuery q;
  std::vector<uint32_t> rows = session.QueryEvents(q, nullptr);
  REQUIRE(rows.size() == 6);
  CHECK(session.EventJson(rows[0]).find("\"name\":\"GC/Suspend\"") != std::string::npos);
  CHECK(session.EventJson(rows[0]).find("\"labels\":{\"opcode\":8,\"keywords\":4660,\"level\":19,\"version\":4}") !=
        std::string::npos);
  CHECK(session.EventJson(rows[5]).find("\"activityId\":\"000000ab-0000-0000-0000-000000000000\"") != std::string::npos);
  q.name = "GC/Suspend";
  uint64_t total = 0;
  session.QueryEvents(q, &total);
  CHECK(total == 1);
}
