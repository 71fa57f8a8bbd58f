// NetPerf (format version 3, .NET Core 2.x and the runtime's diagnostics-port "format 0"):
// read through the same stages as NetTrace. The corpus-wide tests (counts against the
// baselines, chunk independence, truncation, conversion to v6) include the NetPerf traces
// through test::CorpusTraces(); this file holds what only NetPerf has: its summary facts,
// inline metadata and stacks, and the errors of damaged NetPerf streams.
#include <catch2/catch.hpp>

#include <cstring>

#include "analysis/query/event_query.h"
#include "test_support.h"

using namespace nettrace;

namespace {

const char* kTiny = "eventpipe-dotnetcore2.1-linux-x64-tracelogging.netperf";

// Offsets in kTiny (read from its bytes): the Trace object's type header, the first
// EventBlock's first row (a metadata record), the second row (the TestEventMethod event:
// its MetadataId, payload and inline stack size).
constexpr size_t kTraceObject = 0x18;
constexpr size_t kFirstRow = 0x7c;
constexpr size_t kSecondRowMetadataId = 0x11c;
constexpr size_t kSecondRowPayload = 0x150;
constexpr size_t kSecondRowStackSize = 0x16e;

void Put32(std::vector<uint8_t>* b, size_t at, uint32_t v) { std::memcpy(b->data() + at, &v, 4); }

std::vector<uint8_t> Tiny() {
  auto bytes = test::ReadFile(test::DataPath(kTiny));
  REQUIRE(bytes.size() == 2946);
  return bytes;
}

// kTiny with the int32 at `at` replaced, read in chunks of `chunk`.
test::RunResult TinyWith(size_t at, uint32_t value, size_t chunk) {
  auto bytes = Tiny();
  Put32(&bytes, at, value);
  return test::RunTrace(bytes, chunk);
}

}  // namespace

TEST_CASE("NetPerf summary: format, trace facts, inline stacks", "[netperf]") {
  test::RunResult r = test::RunTrace(Tiny(), 4096);
  INFO(r.status.ToString());
  REQUIRE(r.status.ok());
  CHECK(r.summary.find("\"format\":{\"container\":\"NetPerf FastSerialization\",\"major\":3,\"minor\":0,"
                       "\"traceObjectVersion\":3}") != std::string::npos);
  CHECK(r.summary.find("\"complete\":true") != std::string::npos);
  // TraceEvent: 12 events, pointer size 8, 4 processors, process 12365 (oracle meta.json).
  CHECK(r.events == 12);
  CHECK(r.summary.find("\"pointerSize\":8,\"processId\":12365,\"numberOfProcessors\":4") != std::string::npos);
  // Only EventBlocks; metadata records and stacks come out of them.
  CHECK(r.summary.find("\"blocks\":{\"Event\":1,\"Trace\":1}") != std::string::npos);
  // 8 metadata records (one describes an event type that never occurs); 12 distinct stacks.
  CHECK(r.summary.find("\"tables\":{\"metadata\":8,\"stacks\":12,\"labelLists\":0,\"sequencePoints\":0}") !=
        std::string::npos);
  // NetPerf numbers no events, so nothing can be found missing.
  CHECK(r.summary.find("\"dropped\":{\"events\":0,\"gaps\":0,") != std::string::npos);
}

TEST_CASE("NetPerf versions 1 and 2 are refused by name and offset", "[netperf][bad-input]") {
  test::RunResult r = TinyWith(kTraceObject + 3, 2, 7);  // the Trace object's version
  CHECK(r.status.code() == ErrorCode::kUnsupportedVersion);
  CHECK(r.status.offset() == kTraceObject);
  CHECK(r.status.message().find("NetPerf Trace object version 2") != std::string::npos);
  // The version was not established: the summary does not make one up from the stream header.
  CHECK(r.summary.find("\"container\":\"NetPerf FastSerialization\",\"major\":0,") != std::string::npos);

  // .NET Core 2.0 named the trace object differently: NetPerf versions 1 and 2 are read
  // (format/netperf_stream.h); this one stops after its type header, inside its fields.
  const auto tiny = Tiny();
  std::vector<uint8_t> v1(tiny.begin(), tiny.begin() + kTraceObject);
  const std::string name = "Microsoft.DotNet.Runtime.EventPipeFile";
  for (uint8_t b : {4, 4, 1}) v1.push_back(b);
  for (uint32_t v : {1u, 0u, static_cast<uint32_t>(name.size())})
    for (int i = 0; i < 4; ++i) v1.push_back(static_cast<uint8_t>(v >> (8 * i)));
  v1.insert(v1.end(), name.begin(), name.end());
  v1.push_back(6);
  r = test::RunTrace(v1, 1);
  CHECK(r.status.code() == ErrorCode::kTruncated);
  CHECK(r.status.offset() == kTraceObject);
  // Its EventPipeFile object in version 5 is no NetPerf version.
  v1[kTraceObject + 3] = 5;
  r = test::RunTrace(v1, 1);
  CHECK(r.status.code() == ErrorCode::kUnsupportedVersion);
  CHECK(r.status.offset() == kTraceObject);
  CHECK(r.status.message().find("EventPipeFile object version 5 is not 1 or 2") != std::string::npos);
}

TEST_CASE("damaged NetPerf rows give errors at their offsets", "[netperf][bad-input]") {
  SECTION("an event size beyond its block") {
    test::RunResult r = TinyWith(kFirstRow, 0xFFFFFF00u, 4096);
    CHECK(r.status.code() == ErrorCode::kCorrupt);
    CHECK(r.status.offset() == kFirstRow);
    CHECK(r.status.message().find("runs past the end of its block") != std::string::npos);
  }
  SECTION("an event size too small for its payload") {
    test::RunResult r = TinyWith(kFirstRow, 60, 1);
    CHECK(r.status.code() == ErrorCode::kCorrupt);
    CHECK(r.status.offset() == kFirstRow);
    CHECK(r.status.message().find("smaller than its header") != std::string::npos);
  }
  SECTION("an inline stack beyond its event") {
    test::RunResult r = TinyWith(kSecondRowStackSize, 0x7FFFFFFF, 4096);
    CHECK(r.status.code() == ErrorCode::kCorrupt);
    CHECK(r.status.offset() == kSecondRowStackSize);
    CHECK(r.status.message().find("inline stack") != std::string::npos);
    CHECK(r.events == 0);  // the damaged row is the first event
  }
  SECTION("an event naming metadata never defined") {
    test::RunResult r = TinyWith(kSecondRowMetadataId, 99, 7);
    CHECK(r.status.code() == ErrorCode::kBadReference);
    CHECK(r.status.offset() == kSecondRowPayload);
    CHECK(r.status.message().find("metadata id 99") != std::string::npos);
  }
  SECTION("a NetTrace-only object in a NetPerf stream") {
    auto b = Tiny();
    const size_t name = 0x6d;  // "EventBlock" of the first block's type header
    std::memcpy(b.data() + name, "StackBlock", 10);
    test::RunResult r = test::RunTrace(b, 4096);
    CHECK(r.status.code() == ErrorCode::kCorrupt);
    CHECK(r.status.offset() == 0x5e);
    CHECK(r.status.message().find("'StackBlock'") != std::string::npos);
  }
  SECTION("the private-object tag of NetTrace") {
    auto b = Tiny();
    b[0x5e] = 5;
    test::RunResult r = test::RunTrace(b, 4096);
    CHECK(r.status.code() == ErrorCode::kCorrupt);
    CHECK(r.status.offset() == 0x5e);
    CHECK(r.status.message().find("tag 4") != std::string::npos);
  }
}

TEST_CASE("NetPerf events decode their inline stacks and metadata like NetTrace's", "[netperf]") {
  // net10-ipc.netperf: TraceEvent finds 2185 events and 99 distinct stacks (the oracle's
  // meta.json; its differential test compares every frame).
  auto bytes = test::ReadFile(test::DataPath("dotnet10/net10-ipc.netperf"));
  REQUIRE(!bytes.empty());
  test::RunResult r = test::RunTrace(bytes, 4096);
  INFO(r.status.ToString());
  REQUIRE(r.status.ok());
  CHECK(r.events == 2185);
  CHECK(r.summary.find("\"major\":3,") != std::string::npos);
}

TEST_CASE("a NetPerf row out of time order is placed by time and counted", "[netperf][sort]") {
  // The rows are marked sorted (NetPerf writers wrote them in time order): give the second
  // event (TestEmptyEvent, row at 0x244) a time before the first one's.
  auto bytes = Tiny();
  const size_t secondEventTimestamp = 0x244 + 12;
  uint64_t first;
  std::memcpy(&first, bytes.data() + kFirstRow + 0x9c + 12, 8);  // the row at 0x118
  const uint64_t earlier = first - 1000;
  std::memcpy(bytes.data() + secondEventTimestamp, &earlier, 8);

  TraceSession session;
  for (size_t pos = 0; pos < bytes.size(); pos += 7)
    REQUIRE(session.PushChunk(bytes.data() + pos, std::min<size_t>(7, bytes.size() - pos)).ok());
  REQUIRE(session.Finish().ok());
  CHECK(session.SummaryJson().find("{\"name\":\"isSortedHintViolations\",\"value\":1,") != std::string::npos);
  EventQuery q;
  q.limit = 2;
  const std::vector<uint32_t> rows = session.QueryEvents(q, nullptr);
  REQUIRE(rows.size() == 2);
  // Details are re-read from the NetPerf block: names and payloads of the right rows.
  for (const ByteRange& r : session.BlocksNeeded(rows)) session.ProvideBlock(r.offset, bytes.data() + r.offset, r.size);
  const std::string a = session.EventJson(rows[0]), b = session.EventJson(rows[1]);
  INFO(a << "\n" << b);
  CHECK(a.find("\"timestamp\":" + std::to_string(earlier)) != std::string::npos);
  CHECK(a.find("\"name\":\"TestEmptyEvent\"") != std::string::npos);
  CHECK(a.find("\"processor\":null") != std::string::npos);  // NetPerf records none
  CHECK(b.find("\"name\":\"TestEventMethod\"") != std::string::npos);
  CHECK(b.find("\"value\":\"Hello World!\"") != std::string::npos);
}
