// Metadata shapes NetTrace v4/v5 (and damaged v6) files can hold but v6 and TraceEvent
// cannot: the reference tracker normalises them once for every consumer, counted in the
// summary, so a trace the reader accepts converts and reads back with the same events and
// the same decoded payloads (format/reference_tracker.h). The fuzzer's reproducers of each
// are in unit/corpus/fuzz_regressions_test.cc; these traces are made by our own writers.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "trace_session.h"
#include "write/nettrace_v5_writer.h"
#include "write/nettrace_writer.h"
#include "write/payload_builder.h"
#include "unit/convert/convert_support.h"

using namespace nettrace;

namespace {

constexpr uint32_t kEventsPerType = 3000;  // several event blocks of each

FieldDescription Field(const char* name, TypeCode code) {
  FieldDescription f;
  f.name = name;
  f.type.code = code;
  return f;
}

// id 1: Version 300 and Level 260 (int32 in v4/v5 metadata); id 2: an int32, then a field
// of type code 114 (no layout), then another int32 that can no longer be located.
std::vector<EventMetadata> WideMetadata() {
  EventMetadata wide;
  wide.id = 1, wide.providerName = "Test.Wide", wide.eventId = 1, wide.eventName = "Wide";
  wide.version = 300, wide.level = 260, wide.fields = {Field("n", TypeCode::kInt32)};
  EventMetadata undefined;
  undefined.id = 2, undefined.providerName = "Test.Wide", undefined.eventId = 2, undefined.eventName = "Undefined";
  undefined.fields = {Field("before", TypeCode::kInt32), Field("odd", static_cast<TypeCode>(114)),
                      Field("after", TypeCode::kInt32)};
  return {wide, undefined};
}

std::vector<uint8_t> WideTraceV5(NetTraceV5Writer::Version version) {
  NetTraceV5Writer w(version);
  TraceInfo info;
  info.syncTimeUtc = {2025, 2, 1, 3, 4, 5, 6, 0};
  info.tickFrequency = 1000000, info.pointerSize = 8;
  const std::vector<uint8_t> payload = PayloadBuilder().AppendI32(7).AppendI32(8).AppendI32(9).bytes();
  std::vector<EventRecord> events(2 * kEventsPerType);
  for (uint32_t i = 0; i < events.size(); ++i) {
    EventRecord& e = events[i];
    e.metadataId = 1 + i % 2, e.sequenceNumber = i + 1, e.thread = e.captureThread = 501;
    e.timestamp = 1000 + i, e.payload = payload;
  }
  bool ok = w.WriteTraceObject(info).ok() && w.WriteMetadataBlock(WideMetadata()).ok() &&
            w.WriteEvents(events, /*compressed=*/version == NetTraceV5Writer::Version::kV5, 16 << 10).ok() &&
            w.WriteEndOfStream().ok();
  return ok ? w.TakeBytes() : std::vector<uint8_t>{};
}

struct Read {
  Status status;
  uint64_t events = 0;
  std::string summary, counts, firstWide, firstUndefined;
};

Read ReadAll(const std::vector<uint8_t>& bytes) {
  TraceSession s;
  Read r;
  r.status = s.PushChunk(bytes.data(), bytes.size());
  if (r.status.ok()) r.status = s.Finish();
  r.events = s.eventCount();
  r.summary = s.SummaryJson();
  r.counts = s.TraceEventCounts();
  if (r.events < 2) return r;
  const std::vector<uint32_t> rows = {0, 1};
  for (const ByteRange& b : s.BlocksNeeded(rows)) s.ProvideBlock(b.offset, bytes.data() + b.offset, b.size);
  r.firstWide = test::WithoutPayloadOffset(s.EventJson(0)), r.firstUndefined = test::WithoutPayloadOffset(s.EventJson(1));
  return r;
}

uint64_t Stat(const std::string& summary, const std::string& name) {
  const std::string key = "{\"name\":\"" + name + "\",\"value\":";
  const size_t at = summary.find(key);
  return at == std::string::npos ? 0 : std::stoull(summary.substr(at + key.size()));
}

}  // namespace

TEST_CASE("metadata: a Version or Level above a byte keeps its low byte, a field with no layout ends the list",
          "[format][metadata]") {
  for (auto version : {NetTraceV5Writer::Version::kV4, NetTraceV5Writer::Version::kV5}) {
    INFO("v" << static_cast<int>(version));
    const std::vector<uint8_t> bytes = WideTraceV5(version);
    REQUIRE_FALSE(bytes.empty());
    const Read original = ReadAll(bytes);
    REQUIRE(original.status.ok());
    CHECK(original.events == 2 * kEventsPerType);
    CHECK(Stat(original.summary, "metadataByteFieldsTruncated") == 1);
    CHECK(Stat(original.summary, "metadataFieldsCut") == 1);
    // The fields before the undefined one decode; nothing is made up for the rest.
    CHECK(original.firstUndefined.find("\"before\"") != std::string::npos);
    CHECK(original.firstUndefined.find("\"odd\"") == std::string::npos);
    CHECK(original.firstUndefined.find("\"after\"") == std::string::npos);

    std::vector<uint8_t> v6;
    const Status converted = test::ConvertToV6(bytes, &v6);
    INFO(converted.ToString());
    REQUIRE(converted.ok());
    const Read back = ReadAll(v6);
    REQUIRE(back.status.ok());
    CHECK(back.events == original.events);
    CHECK(back.counts == original.counts);
    CHECK(back.firstWide == original.firstWide);
    CHECK(back.firstUndefined == original.firstUndefined);
    // The v6 file holds the normalised definitions: nothing left to normalise.
    CHECK(Stat(back.summary, "metadataByteFieldsTruncated") == 0);
    CHECK(Stat(back.summary, "metadataFieldsCut") == 0);
  }
}

TEST_CASE("trace keys: a well-known key spelled differently from its field still converts", "[format][metadata]") {
  NetTraceV6Writer w;
  TraceInfo info;
  info.syncTimeUtc = {2025, 2, 1, 3, 4, 5, 6, 0};
  info.tickFrequency = 1000000, info.pointerSize = 8;
  info.processId = 42, info.keyValues = {{"ProcessId", "0042"}};
  REQUIRE(w.WriteTraceBlock(info).ok());
  REQUIRE(w.WriteEndOfStream().ok());
  const std::vector<uint8_t> bytes = w.TakeBytes();
  CHECK(ReadAll(bytes).summary.find("\"processId\":42") != std::string::npos);
  std::vector<uint8_t> v6;
  REQUIRE(test::ConvertToV6(bytes, &v6).ok());
  CHECK(ReadAll(v6).summary.find("\"processId\":42") != std::string::npos);

  // A field that would not read back from its key is still refused.
  NetTraceV6Writer refuses;
  info.processId = 43;
  CHECK(refuses.WriteTraceBlock(info).code() == ErrorCode::kInvalidArgument);
}
