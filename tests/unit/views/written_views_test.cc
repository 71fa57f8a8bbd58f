// The event views on a written v6 trace whose every number is known: wait-handle waits
// (.NET 9+ events 301/302, which no committed trace has), contention without DurationNs
// (ContentionStop V0: durations from the timestamps) or lock owner (ContentionStart V1),
// unpaired starts and stops, thread names from the v6 thread block, and activities whose ids
// come from v6 label lists, nested across two threads and written out of time order.
#include <cstring>

#include "unit/analysis/analysis_test_support.h"
#include "unit/stacks/stacks_test_support.h"
#include "write/nettrace_writer.h"
#include "write/payload_builder.h"

namespace nettrace {
namespace {

using test::Json;

EventMetadata Meta(uint32_t id, const char* provider, uint32_t eventId, uint32_t version, const char* name = "",
                   std::optional<uint8_t> opcode = std::nullopt) {
  EventMetadata m;
  m.id = id, m.providerName = provider, m.eventId = eventId, m.eventName = name;
  m.version = version, m.hasVersion = version != 0, m.opcode = opcode;
  return m;
}

// An EventSource activity path of process 42 (only those are start-stop activities, as in
// TraceEvent): the number list in nibbles from byte 0 (`path` 0x10 = /1/, 0x12 = /1/2/), and the
// last 4 bytes the checksum of the first 12 xor'ed with the process id.
Guid MakeGuid(uint8_t path) {
  Guid g;
  g.bytes[0] = path;
  uint32_t sum = 0x599D99ADu;
  for (int i = 0; i < 3; ++i) {
    uint32_t v;
    std::memcpy(&v, g.bytes.data() + 4 * i, 4);
    sum += v;
  }
  sum ^= 42;
  std::memcpy(g.bytes.data() + 12, &sum, 4);
  return g;
}

std::vector<uint8_t> WriteWaitsAndActivities() {
  NetTraceV6Writer w;
  TraceInfo info;
  info.syncTimeUtc = {2025, 3, 1, 6, 7, 8, 9, 0};
  info.tickFrequency = 1000000;  // 1 tick = 1 µs
  info.pointerSize = 8;
  info.processId = 42;
  REQUIRE(w.WriteTraceBlock(info).ok());
  const char* clr = "Microsoft-Windows-DotNETRuntime";
  std::vector<EventMetadata> meta = {Meta(1, clr, 301, 0), Meta(2, clr, 302, 0), Meta(3, clr, 81, 1), Meta(4, clr, 91, 0),
                                     Meta(5, "My-Source", 1, 0, "RequestStart", 1), Meta(6, "My-Source", 2, 0, "RequestStop", 2),
                                     Meta(7, "My-Source", 3, 0, "StepStart", 1), Meta(8, "My-Source", 4, 0, "StepStop", 2)};
  REQUIRE(w.WriteMetadataBlock(meta).ok());
  ThreadInfo t1, t2;
  t1.index = 1, t1.osThreadId = 100, t1.osProcessId = 42, t1.name = "Main thread";
  t2.index = 2, t2.osThreadId = 200, t2.osProcessId = 42, t2.name = "worker";
  std::vector<ThreadInfo> threads = {t1, t2};
  REQUIRE(w.WriteThreadBlock(threads).ok());
  // Label lists: 1 = request R (no parent), 2 = step S under R, 3 = R alone (its Stop), 4 = S alone.
  auto ids = [](const Guid& a, std::optional<Guid> related) {
    LabelList l;
    Label x;
    x.kind = LabelKind::kActivityId, x.guid = a;
    l.labels.push_back(x);
    if (related) x.kind = LabelKind::kRelatedActivityId, x.guid = *related, l.labels.push_back(x);
    return l;
  };
  const Guid r = MakeGuid(0x10), st = MakeGuid(0x12);
  std::vector<LabelList> lists = {ids(r, std::nullopt), ids(st, r), ids(r, std::nullopt), ids(st, std::nullopt)};
  REQUIRE(w.WriteLabelListBlock(1, lists).ok());

  std::vector<std::vector<uint8_t>> payloads;
  std::vector<EventRecord> events;
  uint32_t seq[3] = {0, 0, 0};
  auto add = [&](uint32_t metadata, uint64_t us, uint32_t thread, std::vector<uint8_t> payload, uint32_t labels = 0) {
    payloads.push_back(std::move(payload));
    EventRecord e;
    e.metadataId = metadata, e.timestamp = 1000000 + us, e.thread = thread, e.captureThread = thread;
    e.sequenceNumber = ++seq[thread], e.labelListId = labels;
    events.push_back(e);
  };
  auto waitStart = [](uint8_t source, uint64_t object) { return PayloadBuilder().AppendU8(source).AppendU64(object).AppendU16(7).bytes(); };
  auto clrOnly = [] { return PayloadBuilder().AppendU16(7).bytes(); };
  auto contention = [] { return PayloadBuilder().AppendU8(0).AppendU16(7).bytes(); };  // ContentionFlags, ClrInstanceID
  // Thread 2's events first in the file: its Stop of the step (at 2600) precedes thread 1's
  // request Start (at 1000) in file order, not in time.
  add(8, 2600, 2, {}, 4);                    // StepStop S on the worker
  add(2, 700, 2, clrOnly());                 // WaitHandleWait/Stop with no Start: unpaired
  add(1, 1000, 1, waitStart(1, 0xABC));      // WaitHandleWait/Start (MonitorWait) on main
  add(5, 1000, 1, {}, 1);                    // RequestStart R
  add(7, 1500, 1, {}, 2);                    // StepStart S under R
  add(2, 1750, 1, clrOnly());                // WaitHandleWait/Stop: 750 µs
  add(3, 2000, 1, contention());             // Contention/Start (V1: no LockID, no owner)
  add(4, 2300, 1, contention());             // Contention/Stop (V0: no DurationNs): 300 µs
  add(3, 2900, 1, contention());             // Contention/Start never stopped
  add(6, 3000, 1, {}, 3);                    // RequestStop R
  for (size_t i = 0; i < events.size(); ++i) events[i].payload = payloads[i];
  REQUIRE(w.WriteEventBlock(events, /*compressed=*/true).ok());
  REQUIRE(w.WriteEndOfStream().ok());
  return w.TakeBytes();
}

Json Parse(const std::string& text) {
  Json j;
  REQUIRE(test::ParseJson(text, &j));
  return j;
}

TEST_CASE("event views on a written v6 trace: wait handles, contention from timestamps, label-list activities", "[views]") {
  const std::vector<uint8_t> bytes = WriteWaitsAndActivities();
  for (size_t chunk : {size_t{7}, bytes.size()}) {
    auto s = test::LoadSession(bytes, chunk);
    const Json c = Parse(s->ContentionView());
    const Json& wh = c["waitHandle"];
    CHECK(wh["starts"].number == 1);
    CHECK(wh["waits"].number == 1);
    CHECK(wh["unpairedStops"].number == 1);
    CHECK(wh["totalNs"].number == 750000);
    REQUIRE(wh["byThread"].array.size() == 1);
    CHECK(wh["byThread"][0]["thread"].number == 100);
    CHECK(wh["byThread"][0]["threadName"].string == "Main thread");
    const Json& lock = c["lock"];
    CHECK(lock["starts"].number == 2);
    CHECK(lock["waits"].number == 1);
    CHECK(lock["unpairedStarts"].number == 1);
    CHECK(lock["totalNs"].number == 300000);
    CHECK(lock["byOwner"].array.empty());  // V1 starts carry no owner
    CHECK(lock["byLock"].array.empty());
    REQUIRE(c["list"].array.size() == 2);
    CHECK(c["list"][0]["kind"].string == "waitHandle");
    CHECK(c["list"][0]["objectId"].string == "0xabc");
    CHECK(c["list"][0]["detail"].number == 1);  // WaitSource MonitorWait
    CHECK(!c["list"][0]["measured"].boolean);
    CHECK(c["list"][1]["durationNs"].number == 300000);
    CHECK(s->ContentionView(true) ==
          "kind,timeMs,thread,durationNs,measured,lockId,objectId,owner\n"
          "waitHandle,1001.000000,100,750000,false,,0xabc,\n"
          "lock,1002.000000,100,300000,false,,,\n");  // ms from the sync time (tick 0)

    const Json a = Parse(s->ActivitiesView());
    CHECK(a["count"].number == 2);
    CHECK(a["finished"].number == 2);
    CHECK(a["unmatchedStops"].number == 0);
    const Json& req = a["activities"][0];
    const Json& step = a["activities"][1];
    CHECK(req["name"].string == "Request");
    CHECK(req["durationMs"].number == 2);
    CHECK(req["parent"].kind == Json::kNull);
    CHECK(step["name"].string == "Step");
    CHECK(step["parent"].number == 0);
    CHECK(step["depth"].number == 1);
    CHECK(step["durationMs"].number == 1.1);
    CHECK(step["startThread"].number == 100);
    CHECK(step["stopThread"].number == 200);  // ended on the worker
    CHECK(step["relatedId"].string == req["id"].string);

    // The wait-time weight: only the paired Contention/Start weighs, by its 300 µs.
    StackQuery q;
    q.event = "Contention/Start", q.weight = WeightKind::kWaitTime;
    const Json flame = Parse(s->FlameGraphJson(q));
    CHECK(flame["total"].number == 300000);
    CHECK(flame["unit"].string == "nanoseconds");
  }
}

}  // namespace
}  // namespace nettrace
