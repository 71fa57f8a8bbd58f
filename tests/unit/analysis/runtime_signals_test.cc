// The summary's "runtime" key and the per-type "withStacks" (analysis/runtime_signals.h):
// on a written v6 trace whose GC suspensions, exceptions and allocations are known exactly,
// and on the corpus against the events' own decoded payloads (EventJson), a path that does
// not go through the summary.
#include <map>

#include "analysis/runtime_signals.h"
#include "reread/text_search.h"
#include "unit/analysis/analysis_test_support.h"
#include "unit/stacks/stacks_test_support.h"
#include "unit/write/runtime_trace_support.h"
#include "write/payload_builder.h"

namespace nettrace {
namespace {

using test::Json;

std::vector<uint8_t> GcStart(uint32_t count, uint32_t depth, uint32_t reason, uint32_t type) {
  // GCStart_V2: Count, Depth, Reason, Type, ClrInstanceID, ClientSequenceNumber.
  return PayloadBuilder().AppendU32(count).AppendU32(depth).AppendU32(reason).AppendU32(type).AppendU16(7).AppendU64(0).bytes();
}
std::vector<uint8_t> SuspendEE(uint32_t reason) {
  // GCSuspendEE_V1: Reason, Count, ClrInstanceID.
  return PayloadBuilder().AppendU32(reason).AppendU32(1).AppendU16(7).bytes();
}
std::vector<uint8_t> RestartEE() { return PayloadBuilder().AppendU16(7).bytes(); }  // GCNoUserData
std::vector<uint8_t> Exception(const char* type, const char* message) {
  // ExceptionThrown_V1: ExceptionType, ExceptionMessage, ExceptionEIP, ExceptionHRESULT,
  // ExceptionFlags, ClrInstanceID.
  PayloadBuilder b;
  b.AppendNullTerminatedUtf16(std::string_view(type)).AppendNullTerminatedUtf16(std::string_view(message));
  b.AppendU64(0x7ff0).AppendU32(0x80131509).AppendU16(0x10).AppendU16(7);
  return b.bytes();
}
std::vector<uint8_t> AllocationTick(const char* type, uint64_t bytes) {
  // GCAllocationTick_V2 (see known_call_tree_test.cc).
  PayloadBuilder b;
  b.AppendU32(static_cast<uint32_t>(bytes)).AppendU32(0).AppendU16(7).AppendU64(bytes).AppendU64(0x1234);
  b.AppendNullTerminatedUtf16(std::string_view(type)).AppendU32(0);
  return b.bytes();
}
std::vector<uint8_t> Contention() { return PayloadBuilder().AppendU8(0).AppendU16(7).bytes(); }

}  // namespace

// Times in µs (tickFrequency 1 MHz). Thread 1 runs the GCs; thread 2 ("Sampler") suspends the
// runtime for its own reasons in the middle of a GC pause, as the sample profiler does.
std::vector<uint8_t> WriteRuntimeTrace() {
  using test::RuntimeEventMetadata;
  const std::vector<EventMetadata> meta = {RuntimeEventMetadata(1, 1, 2),  RuntimeEventMetadata(2, 9, 1),
                                           RuntimeEventMetadata(3, 3, 1),  RuntimeEventMetadata(4, 80, 1),
                                           RuntimeEventMetadata(5, 10, 2), RuntimeEventMetadata(6, 81, 1)};
  ThreadInfo t1 = test::RuntimeThread(1, 100), t2 = test::RuntimeThread(2, 200);
  t1.name = "Main thread", t2.name = "Sampler";
  test::RuntimeTraceOptions options;
  options.stacks = {{1, 0, 0, 0, 0, 0, 0, 0}, {}};  // 1: one frame, 2: empty
  const std::vector<test::RuntimeTraceEvent> events = {
      // GC 1, gen 0: paused 1000 → 1500 (thread 2's suspension inside it does not end it).
      {2, 1, 1000, SuspendEE(1)},
      {1, 1, 1100, GcStart(1, 0, 0, 0)},
      {2, 2, 1150, SuspendEE(0)},
      {3, 2, 1200, RestartEE()},
      {3, 1, 1500, RestartEE()},
      // GC 2, gen 0: paused 3000 → 3250.
      {2, 1, 3000, SuspendEE(1)},
      {1, 1, 3010, GcStart(2, 0, 0, 0)},
      {3, 1, 3250, RestartEE()},
      // GC 3, gen 2, background and induced: SuspendForGCPrep 5000 → 5100.
      {2, 1, 5000, SuspendEE(6)},
      {1, 1, 5005, GcStart(3, 2, 1, 1)},
      {3, 1, 5100, RestartEE()},
      // GC 4, gen 1, with no suspension seen: counted, no pause.
      {1, 1, 7000, GcStart(4, 1, 0, 0)},
      // Exceptions, allocations, contentions.
      {4, 1, 8000, Exception("System.InvalidOperationException", "boom 1"), 1},
      {4, 1, 8001, Exception("System.InvalidOperationException", "boom 2"), 1},
      {4, 2, 8002, Exception("System.IO.IOException", "disk quota xyzzy exceeded"), 1},
      {4, 1, 8003, Exception("System.InvalidOperationException", "boom 3"), 2},
      {5, 1, 9000, AllocationTick("System.String", 100), 1},
      {5, 2, 9001, AllocationTick("System.String", 200), 2},
      {5, 1, 9002, AllocationTick("System.Byte[]", 5000)},
      {6, 1, 9500, Contention()},
      {6, 2, 9501, Contention()},
  };
  return test::WriteRuntimeEventsTrace(meta, {t1, t2}, events, options);
}

TEST_CASE("runtime signals: GC pauses, exceptions, allocations of a written v6 trace", "[analysis]") {
  const std::vector<uint8_t> bytes = WriteRuntimeTrace();
  for (size_t chunk : {size_t{7}, bytes.size()}) {
    auto session = test::LoadSession(bytes, chunk);
    Json summary;
    REQUIRE(test::ParseJson(session->SummaryJson(), &summary));
    const Json& rt = summary["runtime"];
    const Json& gc = rt["gc"];
    CHECK(gc["count"].number == 4);
    CHECK(gc["induced"].number == 1);
    CHECK(gc["background"].number == 1);
    const Json& gens = gc["generations"];
    REQUIRE(gens.array.size() == 3);
    CHECK(gens[0]["count"].number == 2);
    CHECK(gens[1]["count"].number == 1);
    CHECK(gens[2]["count"].number == 1);
    // Pauses are TraceEvent's, the GC statistics' (complete GCs: with GC/Stop and HeapStats),
    // which these GCs are not: none is counted, whatever the suspensions around them.
    for (int g = 0; g < 3; ++g) {
      CHECK(gens[g]["pauses"].number == 0);
      CHECK(gens[g]["totalPauseMs"].number == 0);
    }

    const Json& ex = rt["exceptions"];
    CHECK(ex["count"].number == 4);
    REQUIRE(ex["types"].array.size() == 2);
    CHECK(ex["types"][0]["type"].string == "System.InvalidOperationException");
    CHECK(ex["types"][0]["count"].number == 3);
    CHECK(ex["types"][1]["type"].string == "System.IO.IOException");
    CHECK(ex["otherCount"].number == 0);

    const Json& al = rt["allocations"];
    CHECK(al["ticks"].number == 3);
    CHECK(al["bytes"].number == 5300);
    REQUIRE(al["types"].array.size() == 2);
    CHECK(al["types"][0]["type"].string == "System.Byte[]");
    CHECK(al["types"][0]["bytes"].number == 5000);
    CHECK(al["types"][1]["type"].string == "System.String");
    CHECK(al["types"][1]["count"].number == 2);
    CHECK(al["types"][1]["bytes"].number == 300);
    CHECK(rt["contentions"].number == 2);
    CHECK(rt["jit"]["methods"].number == 0);

    // withStacks: stack 1 has a frame, stack 2 is empty.
    std::map<std::string, double> withStacks;
    for (const Json& t : summary["types"].array) withStacks[t["name"].string] = t["withStacks"].number;
    CHECK(withStacks["Exception/Start"] == 3);
    CHECK(withStacks["GC/AllocationTick"] == 1);
    CHECK(withStacks["GC/Start"] == 0);
  }
}

TEST_CASE("runtime signals: the corpus's GCs, allocations and stacks match the events' own payloads", "[analysis][corpus]") {
  const std::string name = "eventpipe-dotnetcore3.0-win-x64-objver4.nettrace";
  const std::vector<uint8_t> file = test::ReadFile(test::DataPath(name));
  auto session = test::LoadSession(file);
  Json summary;
  REQUIRE(test::ParseJson(session->SummaryJson(), &summary));
  const Json& rt = summary["runtime"];

  // GC/Start events by decoded Depth.
  EventQuery gcq;
  gcq.name = "GC/Start";
  std::map<int, double> byDepth;
  const std::vector<Json> gcs = test::EventsOf(*session, file, gcq);
  for (const Json& e : gcs) ++byDepth[static_cast<int>(test::Field(e, "Depth")->number)];
  REQUIRE(gcs.size() == 478);
  CHECK(rt["gc"]["count"].number == gcs.size());
  for (int g = 0; g < 3; ++g) CHECK(rt["gc"]["generations"][g]["count"].number == byDepth[g]);
  // Pauses per generation are the GC statistics' totals (TraceEvent's GCStats per generation).
  Json gcStats;
  REQUIRE(test::ParseJson(session->GcJson(), &gcStats));
  REQUIRE(gcStats["processes"].array.size() == 1);
  double paused = 0;
  for (int g = 0; g < 3; ++g) {
    const Json& theirs = gcStats["processes"][0]["generations"][g];
    CHECK(rt["gc"]["generations"][g]["pauses"].number == theirs["count"].number);
    CHECK(rt["gc"]["generations"][g]["totalPauseMs"].number == Approx(theirs["totalPauseMs"].number).margin(1e-5));
    paused += rt["gc"]["generations"][g]["pauses"].number;
  }
  CHECK(paused == gcs.size());  // every GC of this trace is complete

  // GC/AllocationTick: bytes and ticks per decoded TypeName.
  EventQuery aq;
  aq.name = "GC/AllocationTick";
  std::map<std::string, std::pair<double, double>> byType;  // type → (count, bytes)
  double totalBytes = 0;
  const std::vector<Json> ticks = test::EventsOf(*session, file, aq);
  for (const Json& e : ticks) {
    auto& t = byType[test::Field(e, "TypeName")->string];
    const Json* amount = test::Field(e, "AllocationAmount64");  // hex text in the template
    const double b = amount->kind == Json::kString ? static_cast<double>(std::strtoull(amount->string.c_str(), nullptr, 16))
                                                   : amount->number;
    t.first += 1, t.second += b, totalBytes += b;
  }
  CHECK(rt["allocations"]["ticks"].number == ticks.size());
  CHECK(rt["allocations"]["bytes"].number == totalBytes);
  const Json& types = rt["allocations"]["types"];
  REQUIRE(!types.array.empty());
  double listed = 0;
  for (const Json& t : types.array) {
    INFO(t["type"].string);
    CHECK(t["count"].number == byType[t["type"].string].first);
    CHECK(t["bytes"].number == byType[t["type"].string].second);
    listed += t["bytes"].number;
  }
  CHECK(listed + rt["allocations"]["otherBytes"].number == totalBytes);
  for (size_t i = 1; i < types.array.size(); ++i) CHECK(types[i - 1]["bytes"].number >= types[i]["bytes"].number);

  CHECK(rt["jit"]["source"].string == "Method/JittingStarted");
  CHECK(rt["jit"]["methods"].number == 54);
  CHECK(rt["contentions"].number == 8);
  CHECK(rt["exceptions"]["count"].number == 0);
}

TEST_CASE("summary: withStacks of every type equals a count over the stack table", "[analysis][corpus]") {
  for (const std::string& name : test::CorpusTraces()) {
    INFO(name);
    auto session = test::LoadCorpus(name);
    const TraceModel& m = session->model();
    std::map<std::pair<std::string, std::string>, double> counted;
    for (size_t row = 0; row < m.store().size(); ++row) {
      if (m.store().stack(row).value == 0 || m.stacks().Bytes(m.store().stack(row)).empty()) continue;
      const EventType& t = m.types()[m.store().type(row)];
      counted[{t.metadata.providerName, t.name}] += 1;
    }
    Json summary;
    REQUIRE(test::ParseJson(session->SummaryJson(), &summary));
    double total = 0;
    for (const Json& t : summary["types"].array) {
      INFO(t["provider"].string << " " << t["name"].string);
      CHECK(t["withStacks"].number == counted[{t["provider"].string, t["name"].string}]);
      total += t["withStacks"].number;
    }
    CHECK(total == summary["eventsWithStacks"].number);  // one count: stacks with frames
  }
}


namespace {

// GCAllocationTick_V2 with the type name given as UTF-16 code units (lone surrogates allowed).
std::vector<uint8_t> AllocationTickUnits(const std::vector<uint16_t>& name, uint64_t bytes) {
  PayloadBuilder b;
  b.AppendU32(static_cast<uint32_t>(bytes)).AppendU32(0).AppendU16(7).AppendU64(bytes).AppendU64(0x1234);
  for (uint16_t u : name) b.AppendU16(u);
  return b.AppendU16(0).AppendU32(0).bytes();
}

}  // namespace

// Allocation ticks count under their type name's UTF-8 form, whatever its UTF-16 spelling (two
// lone surrogates both become U+FFFD), and only the first kMaxTrackedNames names are tracked:
// later names, however often they come, are "other".
TEST_CASE("runtime signals: allocations by UTF-8 type name, the first names tracked", "[analysis]") {
  std::vector<test::RuntimeTraceEvent> events;
  auto tick = [&](const std::vector<uint16_t>& name, uint64_t bytes) {
    events.push_back({5, 1, events.size(), AllocationTickUnits(name, bytes)});
  };
  auto units = [](const std::string& ascii) { return std::vector<uint16_t>(ascii.begin(), ascii.end()); };
  for (int i = 0; i < 3; ++i) tick({'H', 'o', 't', 0xD800}, 10);
  for (int i = 0; i < 2; ++i) tick({'H', 'o', 't', 0xDC00}, 10);
  const size_t names = RuntimeSignals::kMaxTrackedNames;  // "Hot\uFFFD" is tracked first: T<names-1> is not
  for (size_t i = 0; i < names; ++i) tick(units("T" + std::to_string(i)), 1);
  tick(units("T" + std::to_string(names - 1)), 1);  // other again
  tick(units("T0"), 1);                              // tracked again
  const std::vector<uint8_t> bytes =
      test::WriteRuntimeEventsTrace({test::RuntimeEventMetadata(5, 10, 2)}, {test::RuntimeThread(1, 100)}, events);
  auto session = test::LoadSession(bytes, bytes.size());
  Json summary;
  REQUIRE(test::ParseJson(session->SummaryJson(), &summary));
  const Json& al = summary["runtime"]["allocations"];
  CHECK(al["ticks"].number == 5 + names + 2);
  CHECK(al["bytes"].number == 50 + names + 2);
  REQUIRE(!al["types"].array.empty());
  CHECK(al["types"][0]["type"].string == "Hot\xEF\xBF\xBD");
  CHECK(al["types"][0]["count"].number == 5);
  CHECK(al["types"][0]["bytes"].number == 50);
  // T0 came twice and is tracked; T<names-1> came twice after the map was full: "other",
  // with the tracked names the list leaves out (the top 100 by bytes are listed).
  REQUIRE(al["types"].array.size() == RuntimeSignals::kTopNames);
  CHECK(al["types"][1]["type"].string == "T0");
  CHECK(al["types"][1]["count"].number == 2);
  for (const Json& type : al["types"].array) CHECK(type["type"].string != "T" + std::to_string(names - 1));
  // Tracked T names but T0 (names - 2), less the 98 listed beside "Hot" and T0: 1 tick each.
  const double unlisted = static_cast<double>((names - 2) - (RuntimeSignals::kTopNames - 2));
  CHECK(al["otherCount"].number == unlisted + 2);
  CHECK(al["otherBytes"].number == unlisted + 2);
}

}  // namespace nettrace
