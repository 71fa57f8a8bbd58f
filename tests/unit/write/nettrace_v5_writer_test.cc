// v4/v5 write → read round trips: traces built with NetTraceV5Writer covering every
// construct of NetTraceFormat_v5.md are read back by TraceReader, fed in chunks of 1, 7,
// 4096 bytes and whole, and must come back exactly as written (v5_test_support.h), for
// v4 and v5, header-compressed and uncompressed blobs.
#include <catch2/catch.hpp>

#include <limits>

#include "format/payload_decoder.h"
#include "unit/write/v5_test_support.h"
#include "write/field_types.h"
#include "write/payload_builder.h"

namespace nettrace::testing {
namespace {

using Version = NetTraceV5Writer::Version;
constexpr Version kVersions[] = {Version::kV4, Version::kV5};

Guid MakeGuid(uint8_t seed) {
  Guid g;
  for (int i = 0; i < 16; ++i) g.bytes[i] = static_cast<uint8_t>(seed * 16 + i);
  return g;
}

RecordedEvent Ev(uint32_t meta, uint32_t seq, uint64_t thread, uint64_t capture, uint64_t ts,
                 std::vector<uint8_t> payload = {}) {
  RecordedEvent e;
  e.metadataId = meta, e.sequenceNumber = seq, e.thread = thread, e.captureThread = capture, e.timestamp = ts;
  e.payload = std::move(payload);
  return e;
}

EventMetadata Meta(uint32_t id, std::string name, std::vector<FieldDescription> fields = {}) {
  EventMetadata m;
  m.id = id, m.providerName = "Test.Provider", m.eventId = id, m.eventName = std::move(name);
  m.fields = std::move(fields);
  return m;
}

// The payload must decode by its metadata exactly: every byte used, no error values.
DecodedPayload RequireExactDecode(const EventMetadata& m, const std::vector<uint8_t>& payload, int formatMajor) {
  DecodedPayload d = DecodePayload(m, payload, 8, formatMajor);
  CHECK(d.schema == PayloadSchema::kMetadata);
  CHECK_FALSE(d.hasErrors);
  CHECK_FALSE(d.stoppedAtError);
  CHECK_FALSE(d.shorterThanTemplate);
  CHECK(d.trailingBytes == 0);
  return d;
}

TEST_CASE("v5 writer: Trace object fields, both pointer sizes, v4 and v5", "[v5writer]") {
  for (Version version : kVersions) {
    for (uint32_t pointerSize : {4u, 8u}) {
      for (uint32_t objectVersion : {0u, 4u, 5u}) {
        ExpectingV5Writer w(version);
        TraceInfo info = BasicTraceInfo(pointerSize);
        info.syncTimeUtc = {2025, 12, 3, 31, 23, 59, 58, 999};
        info.syncTimeTicks = -123456789, info.tickFrequency = 10'000'000;
        info.processId = 0xFFFFFFFF, info.numberOfProcessors = 16, info.expectedCpuSamplingRate = 1000;
        info.traceObjectVersion = objectVersion;
        w.Trace(info);
        w.End();
        // Header 32, Trace object 21 (type) + 48 + 1, NullReference 1.
        CHECK(w.bytes().size() == 32 + 70 + 1);
        RequireRoundTrip(w);
        CHECK(ReadInChunks(w.bytes(), 0).formatMajor == 4);
      }
    }
  }
}

TEST_CASE("v5 writer: V1 fields of every decodable type in both blob encodings", "[v5writer]") {
  EventMetadata scalars = Meta(0x7FFFFFFF, "Scalars");
  scalars.providerName = "Pr\xC3\xB6vider-\xF0\x9F\x98\x80";  // non-ASCII and a surrogate pair in UTF-16
  scalars.eventId = 0xFFFFFFFF, scalars.keywords = 0xF00000000000000F, scalars.version = 3, scalars.level = 5;
  for (TypeCode code : {TypeCode::kBoolean32, TypeCode::kUTF16CodeUnit, TypeCode::kSByte, TypeCode::kByte,
                        TypeCode::kInt16, TypeCode::kUInt16, TypeCode::kInt32, TypeCode::kUInt32, TypeCode::kInt64,
                        TypeCode::kUInt64, TypeCode::kSingle, TypeCode::kDouble, TypeCode::kDateTime, TypeCode::kGuid,
                        TypeCode::kNullTerminatedUTF16String, TypeCode::kVarInt, TypeCode::kVarUInt,
                        TypeCode::kUTF8CodeUnit, TypeCode::kBoolean8})
    scalars.fields.push_back(Field("f" + std::to_string(static_cast<int>(code)), Scalar(code)));
  scalars.fields.push_back(Field("nested", ObjectOf({Field("a", Scalar(TypeCode::kInt16)),
                                                     Field("inner", ObjectOf({Field("b", Scalar(TypeCode::kByte))})),
                                                     Field("empty", ObjectOf({}))})));
  scalars.fields.push_back(Field("", Scalar(TypeCode::kBoolean8)));  // an empty field name
  EventMetadata runtimeStyle = Meta(2, "");  // CLR providers: no name, no fields (format-pitfalls.md §13)
  runtimeStyle.providerName = "Microsoft-Windows-DotNETRuntime";

  PayloadBuilder p;
  p.AppendBool32(true).AppendUtf16CodeUnit(u'x').AppendI8(-5).AppendU8(250).AppendI16(-300).AppendU16(60000);
  p.AppendI32(-70000).AppendU32(4'000'000'000u).AppendI64(-1).AppendU64(std::numeric_limits<uint64_t>::max());
  p.AppendF32(1.5f).AppendF64(2.25).AppendI64(133'000'000'000'000'000).AppendGuid(MakeGuid(1));  // FILETIME
  p.AppendNullTerminatedUtf16("h\xC3\xA9llo").AppendVarInt(std::numeric_limits<int64_t>::min());
  p.AppendVarUInt(std::numeric_limits<uint64_t>::max()).AppendUtf8CodeUnit('A').AppendBool8(false);
  p.AppendI16(7).AppendU8(8).AppendBool8(true);
  REQUIRE(p.ok());

  for (Version version : kVersions) {
    for (bool compressed : {true, false}) {
      INFO("v" << static_cast<int>(version) << (compressed ? " compressed" : " uncompressed"));
      ExpectingV5Writer w(version);
      w.Trace(BasicTraceInfo());
      // Odd extra header bytes put the first uncompressed blob off a 4-byte file offset.
      w.Metadata({scalars, runtimeStyle}, compressed, /*extraHeaderBytes=*/3);
      w.Events({Ev(0x7FFFFFFF, 1, 1, 1, 10, p.bytes()), Ev(2, 2, 1, 1, 11, Bytes({1, 2, 3}))}, compressed);
      w.End();
      RequireRoundTrip(w);
      const ReadResult r = ReadInChunks(w.bytes(), 0);
      CHECK(r.formatMajor == 4);
      const DecodedPayload d = RequireExactDecode(r.recording.metadata[0], r.recording.events[0].payload, 4);
      REQUIRE(d.fields.size() == scalars.fields.size());
      CHECK(d.Find("f7")->asInt() == -300);
      CHECK(d.Find("f12")->asUInt() == std::numeric_limits<uint64_t>::max());
      CHECK(d.Find("f16")->fileTime() == 133'000'000'000'000'000);
      CHECK(d.Find("f18")->text() == "h\xC3\xA9llo");
      CHECK(d.Find("f20")->asInt() == std::numeric_limits<int64_t>::min());
      CHECK(d.Find("nested")->Find("inner")->Find("b")->asUInt() == 8);
    }
  }
}

TEST_CASE("v5 writer: OpCode and V2Params tags (arrays of every shape)", "[v5writer]") {
  EventMetadata withOpcode = Meta(1, "WithOpcode", {Field("x", Scalar(TypeCode::kInt32))});
  withOpcode.opcode = 10;
  EventMetadata zeroOpcode = Meta(2, "ZeroOpcode");
  zeroOpcode.opcode = 0;  // present-but-zero differs from absent
  EventMetadata arrays = Meta(3, "Arrays");
  arrays.fieldsFromV2Params = true;
  arrays.opcode = 255;
  arrays.fields = {
      Field("ints", ArrayOf(Scalar(TypeCode::kInt32))),
      Field("text", ArrayOf(Scalar(TypeCode::kUTF16CodeUnit))),
      Field("records", ArrayOf(ObjectOf({Field("a", Scalar(TypeCode::kInt16)),
                                         Field("s", Scalar(TypeCode::kNullTerminatedUTF16String))}))),
      Field("blobs", ArrayOf(ArrayOf(Scalar(TypeCode::kByte)))),
      Field("obj", ObjectOf({Field("list", ArrayOf(Scalar(TypeCode::kUInt64))),
                             Field("flag", Scalar(TypeCode::kBoolean8))})),
      Field("plain", Scalar(TypeCode::kInt32)),
  };
  EventMetadata emptyV2 = Meta(4, "EmptyV2");
  emptyV2.fieldsFromV2Params = true;

  PayloadBuilder p;
  p.AppendArrayCount(3).AppendI32(1).AppendI32(-2).AppendI32(3).AppendUtf16Array(u"hi");
  p.AppendArrayCount(2).AppendI16(5).AppendNullTerminatedUtf16("five").AppendI16(6).AppendNullTerminatedUtf16("");
  p.AppendArrayCount(2).AppendArrayCount(1).AppendU8(0xAB).AppendArrayCount(0);
  p.AppendArrayCount(1).AppendU64(99).AppendBool8(true).AppendI32(42);
  REQUIRE(p.ok());

  for (bool compressed : {true, false}) {
    ExpectingV5Writer w(Version::kV5);
    w.Trace(BasicTraceInfo());
    w.Metadata({withOpcode, zeroOpcode}, compressed);
    w.Metadata({arrays, emptyV2}, !compressed);
    w.Events({Ev(3, 1, 1, 1, 5, p.bytes()), Ev(1, 2, 1, 1, 6, Bytes({0, 0, 0, 0})), Ev(4, 3, 1, 1, 7)}, compressed);
    w.End();
    RequireRoundTrip(w);
    const ReadResult r = ReadInChunks(w.bytes(), 0);
    CHECK(r.formatMajor == 5);  // tags seen: the trace reads as v5
    CHECK(r.stats.unknownMetadataTags == 0);
    const DecodedPayload d = RequireExactDecode(r.recording.metadata[2], r.recording.events[0].payload, 5);
    REQUIRE(d.fields.size() == 6);
    CHECK(d.Find("ints")->items().size() == 3);
    CHECK(d.Find("text")->text() == "hi");
    CHECK(d.Find("records")->items()[0].Find("s")->text() == "five");
    CHECK(d.Find("obj")->Find("list")->items()[0].asUInt() == 99);
    CHECK(d.Find("plain")->asInt() == 42);
  }
}

TEST_CASE("v5 writer: every event header field, both encodings, out of order across capture threads",
          "[v5writer]") {
  auto sorted = [](RecordedEvent e) {
    e.isSorted = true;
    return e;
  };
  auto with = [](RecordedEvent e, uint32_t processor, uint32_t stack, uint8_t activity, uint8_t related) {
    e.processorNumber = processor, e.stackId = stack;
    if (activity) e.activityId = MakeGuid(activity);
    if (related) e.relatedActivityId = MakeGuid(related);
    return e;
  };
  // Capture thread 1 runs 17000.., then thread 2 restarts its sequence with earlier
  // timestamps, then back to 1 (§Event TimeStamp sorting); thread 3's sequence wraps;
  // thread 40000 jumps in sequence (dropped events) and in time, then back to 0.
  // Payloads of 0..5 bytes move uncompressed blobs' padding through all four values.
  const std::vector<RecordedEvent> events = {
      sorted(with(Ev(1, 1, 1, 1, 17000, Bytes({1, 2, 3, 4})), 0, 1, 1, 0)),
      with(Ev(1, 2, 1, 1, 17001, Bytes({1})), 0, 1, 1, 2),  // activity repeats, related changes
      with(Ev(2, 3, 2, 1, 17002, Bytes({1, 2})), 3, 2, 0, 2),  // thread != capture thread, new processor
      sorted(Ev(2, 1, 2, 2, 15000)),
      with(Ev(1, 2, 1, 2, 15001, Bytes({5, 6, 7})), 0, 0, 9, 9),
      Ev(1, 4, 1, 1, 17003, Bytes({1, 2, 3, 4, 5})),
      with(Ev(1, 0xFFFFFFFF, 3, 3, 16000, Bytes({4})), 1, 0xFFFFFFFF, 0, 0),
      with(Ev(1, 0, 3, 3, 16001, Bytes({4})), 1, 0xFFFFFFFF, 0, 0),
      with(Ev(2, 1000, 40000, 40000, std::numeric_limits<uint64_t>::max()), 255, 0, 0, 0),
      sorted(Ev(2, 1001, ~uint64_t{0}, 40000, 0)),
      Ev(2, 1002, 1, 40000, 0),  // a zero timestamp delta
  };
  for (Version version : kVersions) {
    ExpectingV5Writer w(version);
    w.Trace(BasicTraceInfo());
    w.Metadata({Meta(1, "One"), Meta(2, "Two")});
    const uint16_t extras[] = {0, 1, 2, 3, 5};
    for (uint16_t extra : extras) w.Events(events, /*compressed=*/false, 0, extra);
    w.Events(events, true);
    w.Events(events, true, 0, 3);
    w.Events({events[3], events[0]}, true);  // every block restarts compression from zeros
    w.End();
    RequireRoundTrip(w);
    const ReadResult r = ReadInChunks(w.bytes(), 0);
    // No stacks were written: 5 events per list name stack 1, 2 or ~0, 7 lists and events[0].
    CHECK(r.stats.stackIdsUnresolved == 7 * 5 + 1);
    // "Zero padding - Aligns to 4 byte file offset": block content starts 4-aligned, so
    // a block's first uncompressed blob (80-byte header) starts where its header of
    // 20 + extra bytes ends; every later one starts 4-aligned.
    for (size_t k = 0; k < 5; ++k) {
      for (size_t j = 0; j < events.size(); ++j) {
        const uint64_t start = r.recording.events[k * events.size() + j].payloadOffset - 80;
        CHECK(start % 4 == (j == 0 ? (20u + extras[k]) % 4 : 0u));
      }
    }
  }
}

TEST_CASE("v5 writer: several metadata, stack and event blocks with sequence points", "[v5writer]") {
  for (uint32_t pointerSize : {4u, 8u}) {
    for (bool compressed : {true, false}) {
      ExpectingV5Writer w;
      w.Trace(BasicTraceInfo(pointerSize));
      const std::vector<uint8_t> ip(pointerSize, 0xEE), twoIps(2 * pointerSize, 0x11);
      w.Metadata({});  // an empty metadata block
      w.Metadata({Meta(1, "One")}, compressed);
      // An explicitly empty stack still has an id (format-pitfalls.md §10).
      w.Stacks(1, {twoIps, {}, ip});
      w.Stacks(100, {ip});
      auto onStack = [](RecordedEvent e, uint32_t stack) {
        e.stackId = stack;
        return e;
      };
      w.Events({onStack(Ev(1, 1, 10, 10, 100), 1), onStack(Ev(1, 2, 10, 10, 101), 2)}, compressed);
      w.Metadata({Meta(2, "Two")}, !compressed);
      w.Events({onStack(Ev(2, 1, 11, 11, 102), 100), onStack(Ev(1, 3, 10, 10, 103), 3)}, !compressed);
      // §SequencePointBlock: stack references end here; ids restart with new contents.
      w.Point({200, 0, {{10, 3}, {11, 5}}});  // thread 11 claims 4 more events than were seen
      w.Point({201, 0, {}});
      w.Stacks(1, {ip});
      w.Events({onStack(Ev(2, 6, 11, 11, 300), 1)}, compressed);
      w.Point({~uint64_t{0}, 0, {{~uint64_t{0}, 0xFFFFFFFF}}});
      w.End();
      RequireRoundTrip(w);
      const ReadResult r = ReadInChunks(w.bytes(), 0);
      CHECK(r.stats.stackIdsUnresolved == 0);
      CHECK(r.stats.partialStackIps == 0);
    }
  }
}

TEST_CASE("v5 writer: WriteEvents splits many events over blocks", "[v5writer]") {
  for (bool compressed : {false, true}) {
    ExpectingV5Writer w;
    w.Trace(BasicTraceInfo());
    w.Metadata({Meta(1, "One"), Meta(2, "Two")});
    std::vector<RecordedEvent> events;
    for (uint32_t i = 0; i < 3000; ++i) {
      const uint64_t capture = 1 + i % 2;
      RecordedEvent e = Ev(1 + (i / 7) % 2, i / 2 + 1, capture, capture, 1000 + i * 3 - capture * 50,
                           std::vector<uint8_t>(i % 13, static_cast<uint8_t>(i)));
      e.isSorted = i % 5 == 0;
      if (i % 11 == 0) e.activityId = MakeGuid(static_cast<uint8_t>(i));
      events.push_back(e);
    }
    w.Events(events, compressed, /*maxBlockContent=*/1000);
    w.End();
    size_t eventBlocks = 0;
    for (const BlockInfo& b : w.expected().blocks) {
      if (b.kind != BlockKind::kEvent) continue;
      ++eventBlocks;
      CHECK(b.payloadSize <= 1000);
    }
    CHECK(eventBlocks > 20);
    RequireRoundTrip(w, {7, 4096, 0});
  }
}

// Six capture threads write their buffers in turns, as the runtime does: each run of a
// thread is marked IsSorted at its first event, although later runs of other threads
// hold earlier timestamps, so the flag lies. The reader reports events in file order.
TEST_CASE("v5 writer: 20,000 events over 6 capture threads with lying IsSorted flags", "[v5writer]") {
  constexpr int kThreads = 6, kEvents = 20'000, kRun = 50;
  std::vector<RecordedEvent> events;
  std::vector<uint32_t> sequence(kThreads, 0);
  std::vector<uint64_t> clock(kThreads, 0);
  for (int run = 0; static_cast<int>(events.size()) < kEvents; ++run) {
    const int t = run % kThreads;
    // Later threads start their runs further back in time: their events precede ones
    // already written by earlier threads.
    if (clock[t] == 0) clock[t] = 1'000'000 - static_cast<uint64_t>(t) * 20'000;
    for (int k = 0; k < kRun && static_cast<int>(events.size()) < kEvents; ++k) {
      clock[t] += 7 + (k * 13 + t) % 5;
      const uint64_t threadId = 0x1000 + static_cast<uint64_t>(t);
      RecordedEvent e = Ev(1 + (k % 3), ++sequence[t], threadId, threadId, clock[t],
                           std::vector<uint8_t>(k % 9, static_cast<uint8_t>(run)));
      e.processorNumber = static_cast<uint32_t>(t % 4);
      e.isSorted = k == 0;
      events.push_back(e);
    }
  }
  // The flags must really lie: a marked event followed (later in the file) by an earlier one.
  size_t lies = 0;
  uint64_t laterMin = std::numeric_limits<uint64_t>::max();
  for (size_t i = events.size(); i-- > 0;) {
    if (events[i].isSorted && laterMin < events[i].timestamp) ++lies;
    laterMin = std::min(laterMin, events[i].timestamp);
  }
  CHECK(lies > 100);

  for (bool compressed : {true, false}) {
    for (Version version : kVersions) {
      ExpectingV5Writer w(version);
      w.Trace(BasicTraceInfo());
      w.Metadata({Meta(1, "A"), Meta(2, "B"), Meta(3, "C")});
      const size_t half = events.size() / 2;
      w.Events({events.begin(), events.begin() + half}, compressed, NetTraceV5Writer::kDefaultBlockContent);
      SequencePoint sp{events[half - 1].timestamp, 0, {}};
      for (int t = 0; t < kThreads; ++t) sp.threads.push_back({0x1000 + static_cast<uint64_t>(t), sequence[t] / 2});
      w.Point(sp);
      w.Events({events.begin() + half, events.end()}, compressed, 4096);
      w.End();
      RequireRoundTrip(w, {4096, 0});
      const ReadResult r = ReadInChunks(w.bytes(), 7);
      REQUIRE(r.status.ok());
      REQUIRE(r.recording.events.size() == events.size());
    }
  }
}

}  // namespace
}  // namespace nettrace::testing
