// Dropped events in written v6 traces: sequence-number gaps, sequence-point lower bounds
// and RemoveThread final numbers report exactly the losses that were written.
#include <catch2/catch.hpp>

#include "analysis/summary/drop_tracker.h"
#include "test_support.h"
#include "write/nettrace_writer.h"

using namespace nettrace;

namespace {

struct Writer {
  NetTraceV6Writer w;
  uint8_t payload[4] = {1, 2, 3, 4};
  Writer() {
    std::vector<ThreadInfo> t(3);
    for (uint64_t i = 0; i < 3; ++i) t[i].index = i + 1, t[i].osThreadId = 500 + i;
    REQUIRE(test::WriteOneTypeV6Start(w, t).ok());
  }
  // Events on `thread` with these sequence numbers, timestamps from `ts` by 10.
  void Events(uint64_t thread, std::vector<uint32_t> seqs, uint64_t ts) {
    std::vector<EventRecord> events;
    for (uint32_t s : seqs) {
      EventRecord e;
      e.metadataId = 1;
      e.thread = e.captureThread = thread;
      e.sequenceNumber = s;
      e.timestamp = ts;
      ts += 10;
      e.payload = payload;
      events.push_back(e);
    }
    REQUIRE(w.WriteEvents(events, true).ok());
  }
  std::string Summary() {
    REQUIRE(w.WriteEndOfStream().ok());
    TraceSession session;
    REQUIRE(session.PushChunk(w.bytes().data(), w.bytes().size()).ok());
    REQUIRE(session.Finish().ok());
    return session.SummaryJson();
  }
};

}  // namespace

TEST_CASE("sequence gaps, sequence-point bounds and RemoveThread report exact losses", "[dropped][v6]") {
  Writer t;
  t.Events(1, {1, 2, 3, 7, 8, 20}, 100);  // gaps: 4..6 (3) and 9..19 (11)
  t.Events(2, {5, 6}, 200);               // first seen at 5: 1..4 lost (4)
  SequencePoint sp;
  sp.timestamp = 1000;
  sp.threads = {{1, 25}, {2, 6}, {3, 5}};  // thread 1: 21..25 (5); thread 3 never seen: 5
  REQUIRE(t.w.WriteSequencePointBlock(sp).ok());
  t.Events(1, {26, 27}, 1100);
  std::vector<ThreadSequence> removed = {{2, 9}};  // thread 2 attempted 7..9 unseen (3)
  REQUIRE(t.w.WriteRemoveThreadBlock(removed).ok());
  std::string s = t.Summary();
  INFO(s);
  CHECK(s.find("\"dropped\":{\"events\":31,\"gaps\":6,") != std::string::npos);
  CHECK(s.find("{\"threadIndex\":1,\"count\":3,\"fromMs\":") != std::string::npos);
  CHECK(s.find("\"name\":\"droppedEvents\",\"value\":31,") != std::string::npos);
}

TEST_CASE("no false losses: consecutive numbers, a bound below what was seen, wrap at 2^32", "[dropped]") {
  DropTracker d;
  d.OnEvent(1, 0xFFFFFFFEu, 10);  // huge first number: not counted as loss
  d.OnEvent(1, 0xFFFFFFFFu, 11);
  d.OnEvent(1, 0, 12);  // wraps
  d.OnEvent(1, 1, 13);
  d.OnLowerBound(1, 0, 20);  // a bound below the last seen says nothing
  CHECK(d.total() == 0);
  d.OnEvent(1, 4, 30);  // 2 and 3 lost
  CHECK(d.total() == 2);
  REQUIRE(d.ranges().size() == 1);
  CHECK(d.ranges()[0].fromTimestamp == 13);
  CHECK(d.ranges()[0].toTimestamp == 30);
}

TEST_CASE("events captured per thread: interleaved threads, an index that leaves and comes back", "[dropped]") {
  DropTracker d;
  // Two capture threads alternating at every event (as written v6 blocks do), each numbered
  // from 1 without a gap.
  for (uint32_t s = 1; s <= 5; ++s) d.OnEvent(7, s, s * 10), d.OnEvent(9, s, s * 10 + 5);
  CHECK(d.total() == 0);
  d.OnLowerBound(11, 3, 100);  // a thread only a sequence point names: its row, no events
  d.Forget(7);                 // index 7 leaves the table; defined again, it numbers from 1
  d.OnEvent(7, 1, 200);
  d.OnEvent(7, 3, 210);  // 2 lost
  d.ForgetAll();
  d.OnEvent(9, 1, 300);
  REQUIRE(d.captured().size() == 3);
  CHECK(d.captured()[0].thread == 7);
  CHECK(d.captured()[0].count == 7);
  CHECK(d.captured()[1].thread == 9);
  CHECK(d.captured()[1].count == 6);
  CHECK(d.captured()[2].thread == 11);
  CHECK(d.captured()[2].count == 0);
  CHECK(d.total() == 3 + 1);  // thread 11: 1..3 before the bound; thread 7: 2
  CHECK(d.perThread().at(7) == 1);
}
