// v6 write → read round trips: traces built with NetTraceV6Writer covering every
// construct of NetTraceFormat.md are read back by TraceReader, fed in chunks of 1, 7,
// 4096 bytes and whole, and must come back exactly as written (v6_test_support.h).
//
// IsSorted of UNCOMPRESSED rows is not compared: the spec and TraceEvent disagree on the
// polarity of its bit (format-pitfalls.md §5); the writer follows TraceEvent and the
// reader treats the flag as a hint. Compressed rows (flag 64) are compared.
#include <catch2/catch.hpp>

#include <limits>

#include "unit/v6/v6_test_support.h"
#include "write/field_types.h"
#include "write/payload_builder.h"

namespace nettrace::testing {
namespace {

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

ThreadInfo Thread(uint64_t index, std::optional<uint64_t> osThreadId = std::nullopt) {
  ThreadInfo t;
  t.index = index, t.osThreadId = osThreadId;
  return t;
}

// Header, trace block, metadata ids 1 and 2 and threads 1 and 2: enough for events.
ExpectingWriter StartTrace(uint32_t pointerSize = 8) {
  ExpectingWriter w;
  w.Trace(BasicTraceInfo(pointerSize));
  w.Metadata({Meta(1, "One", {Field("x", Scalar(TypeCode::kInt32))}), Meta(2, "Two")});
  w.Threads({Thread(1, 101), Thread(2, 102)});
  return w;
}

TEST_CASE("v6 round trip: minimal trace, and minor version 6.25", "[v6]") {
  for (uint32_t minor : {0u, 25u}) {
    ExpectingWriter w(6, minor);
    w.Trace(BasicTraceInfo());
    w.End();
    CHECK(w.bytes().size() == 20 + 44 + 4);
    RequireRoundTrip(w);
  }
}

TEST_CASE("v6 round trip: trace block fields and key/values", "[v6]") {
  ExpectingWriter w;
  TraceInfo info = BasicTraceInfo();
  info.syncTimeUtc = {2025, 2, 1, 3, 4, 5, 6, 999};
  info.syncTimeTicks = -123456789;
  info.tickFrequency = 10'000'000;
  info.keyValues = {{"HardwareThreadCount", "16"}, {"Ponies", "many"}, {"ExpectedCPUSamplingRate", "1000"}, {"", ""}};
  info.processId = 4242;  // no ProcessId key: the writer appends one
  TraceInfo expected = info;
  expected.keyValues.push_back({"ProcessId", "4242"});
  expected.numberOfProcessors = 16, expected.expectedCpuSamplingRate = 1000;
  w.Trace(info, expected);
  w.End();
  RequireRoundTrip(w);
}

TEST_CASE("v6 round trip: every field type code, optional metadata kind and padding", "[v6]") {
  ExpectingWriter w;
  w.Trace(BasicTraceInfo());
  w.Raw(99, Bytes({1, 2, 3, 4, 5}));  // §Blocks: unknown kinds are skipped by size

  EventMetadata scalars = Meta(1, "Scalars");
  for (TypeCode code : {TypeCode::kBoolean32, TypeCode::kUTF16CodeUnit, TypeCode::kSByte, TypeCode::kByte,
                        TypeCode::kInt16, TypeCode::kUInt16, TypeCode::kInt32, TypeCode::kUInt32, TypeCode::kInt64,
                        TypeCode::kUInt64, TypeCode::kSingle, TypeCode::kDouble, TypeCode::kDateTime, TypeCode::kGuid,
                        TypeCode::kNullTerminatedUTF16String, TypeCode::kVarInt, TypeCode::kVarUInt,
                        TypeCode::kUTF8CodeUnit, TypeCode::kBoolean8})
    scalars.fields.push_back(Field("f" + std::to_string(static_cast<int>(code)), Scalar(code)));

  EventMetadata containers = Meta(2, "Containers");
  const FieldType int16Byte = ObjectOf({Field("a", Scalar(TypeCode::kInt16)), Field("b", Scalar(TypeCode::kByte))});
  containers.fields = {
      Field("ints", ArrayOf(Scalar(TypeCode::kInt32))),
      Field("chars", FixedArrayOf(Scalar(TypeCode::kUTF16CodeUnit), 3)),
      Field("rel", RelLocOf(Scalar(TypeCode::kInt32))),
      Field("data", DataLocOf(int16Byte)),
      Field("nested", ObjectOf({Field("v", Scalar(TypeCode::kVarInt)),
                                Field("s", ArrayOf(Scalar(TypeCode::kUTF8CodeUnit))),
                                Field("inner", ObjectOf({Field("flag", Scalar(TypeCode::kBoolean8))}))})),
      Field("strings", ArrayOf(ArrayOf(Scalar(TypeCode::kUTF16CodeUnit)))),
      Field("guids", FixedArrayOf(ObjectOf({Field("g", Scalar(TypeCode::kGuid))}), 2)),
      Field("bytes", RelLocOf(FixedArrayOf(Scalar(TypeCode::kByte), 2))),
      Field("empty", ObjectOf({})),
      Field("", Scalar(TypeCode::kBoolean8)),  // an empty field name
  };

  EventMetadata optional = Meta(3, "AllOptional");
  optional.opcode = 20;
  optional.hasKeywords = true, optional.keywords = 0x00ff00ff00ff00ff;
  optional.hasLevel = true, optional.level = 4;
  optional.hasVersion = true, optional.version = 22;
  optional.messageTemplate = "Hello {0}";
  optional.description = "An event with every optional metadata kind";
  optional.attributes = {{"k1", "v1"}, {"k2", "v2"}};
  optional.providerGuid = MakeGuid(7);

  EventMetadata empty;  // id 4: empty names, no fields, no optional metadata
  empty.id = 4;
  EventMetadata zeros = Meta(5, "ExplicitZeros");  // present-but-zero differs from absent
  zeros.hasKeywords = zeros.hasLevel = zeros.hasVersion = true;
  zeros.opcode = 0;
  zeros.messageTemplate = "";
  EventMetadata big = Meta(0x7FFFFFFF, "LargestId");
  big.eventId = 0xFFFFFFFF;

  w.Metadata({scalars, containers, optional, empty, zeros}, /*extraHeaderBytes=*/17);
  w.Metadata({big});
  w.Threads({Thread(1)});

  PayloadBuilder p1;
  p1.AppendBool32(true).AppendUtf16CodeUnit(u'x').AppendI8(-5).AppendU8(250).AppendI16(-300).AppendU16(60000);
  p1.AppendI32(-70000).AppendU32(4'000'000'000u).AppendI64(-1).AppendU64(std::numeric_limits<uint64_t>::max());
  p1.AppendF32(1.5f).AppendF64(2.25).AppendDateTime({2025, 2, 1, 3, 4, 5, 6, 7}).AppendGuid(MakeGuid(1));
  p1.AppendNullTerminatedUtf16("h\xC3\xA9llo").AppendVarInt(std::numeric_limits<int64_t>::min());
  p1.AppendVarUInt(std::numeric_limits<uint64_t>::max()).AppendUtf8CodeUnit('A').AppendBool8(false);

  PayloadBuilder p2;
  p2.AppendArrayCount(3).AppendI32(1).AppendI32(2).AppendI32(3).AppendUtf16CodeUnit(u'a');
  p2.AppendUtf16CodeUnit(u'b').AppendUtf16CodeUnit(u'c');
  const size_t relAt = p2.size();
  p2.AppendU32(0);
  const size_t dataAt = p2.size();
  p2.AppendU32(0).AppendVarInt(-17982).AppendUtf8Array("hi").AppendBool8(true);
  p2.AppendArrayCount(2).AppendUtf16Array(u"ab").AppendUtf16Array(u"c").AppendGuid(MakeGuid(2)).AppendGuid(MakeGuid(3));
  const size_t bytesAt = p2.size();
  p2.AppendU32(0).AppendBool8(false);
  // The located data follows the last field (format-pitfalls.md §12).
  const size_t relData = p2.size();
  p2.AppendI32(10).AppendI32(20);
  const size_t dataData = p2.size();
  p2.AppendI16(-1).AppendU8(9);
  const size_t bytesData = p2.size();
  p2.AppendU8(0xAB).AppendU8(0xCD);
  p2.PatchU32(relAt, (8u << 16) | static_cast<uint32_t>(relData - (relAt + 4)));      // RelLoc: from after itself
  p2.PatchU32(dataAt, (3u << 16) | static_cast<uint32_t>(dataData));                  // DataLoc: from payload start
  p2.PatchU32(bytesAt, (2u << 16) | static_cast<uint32_t>(bytesData - (bytesAt + 4)));
  REQUIRE(p1.ok());
  REQUIRE(p2.ok());

  w.Events({Ev(1, 1, 1, 1, 10, p1.bytes()), Ev(2, 2, 1, 1, 11, p2.bytes()), Ev(3, 3, 1, 1, 12), Ev(4, 4, 1, 1, 13),
            Ev(5, 5, 1, 1, 14), Ev(0x7FFFFFFF, 6, 1, 1, 15, Bytes({1}))},
           /*compressed=*/true);
  w.End();
  RequireRoundTrip(w);
  const ReadResult r = ReadInChunks(w.bytes(), 0);
  CHECK(r.stats.unknownBlockKinds == 1);  // the kind-99 block was seen and skipped
  CHECK(r.stats.unknownOptionalMetadata == 0);
}

// Builds one hand-made thread row: uint16 RowSize, then `content` (§ThreadBlock).
void AppendThreadRow(std::vector<uint8_t>& block, const PayloadBuilder& content) {
  block.push_back(static_cast<uint8_t>(content.size()));
  block.push_back(static_cast<uint8_t>(content.size() >> 8));
  block.insert(block.end(), content.bytes().begin(), content.bytes().end());
}

TEST_CASE("v6 round trip: thread rows, info kinds in any order, remove-thread and thread flush", "[v6]") {
  ExpectingWriter w;
  w.Trace(BasicTraceInfo());
  w.Metadata({Meta(1, "E")});
  ThreadInfo full;
  full.index = 1, full.name = "main", full.osProcessId = 100, full.osThreadId = 1000;
  full.attributes = {{"role", "ui"}, {"", ""}};
  ThreadInfo named;
  named.index = 3, named.name = "";
  ThreadInfo pidOnly;
  pidOnly.index = 998, pidOnly.osProcessId = 7;
  w.Threads({full, Thread(2, 1001), named, pidOnly, Thread(uint64_t{1} << 40), Thread(~uint64_t{0}, ~uint64_t{0})});

  // §ThreadBlock allows the info kinds in any order: KeyValue, OSThreadId, Name, KeyValue,
  // OSProcessId; and Name after OSProcessId. The struct keeps key/values in file order.
  std::vector<uint8_t> raw;
  PayloadBuilder r7, r8;
  r7.AppendVarUInt(7).AppendU8(4).AppendString("k1").AppendString("v1").AppendU8(3).AppendVarUInt(77);
  r7.AppendU8(1).AppendString("seven").AppendU8(4).AppendString("k2").AppendString("v2").AppendU8(2).AppendVarUInt(100);
  r8.AppendVarUInt(8).AppendU8(2).AppendVarUInt(300).AppendU8(1).AppendString("eight");
  AppendThreadRow(raw, r7);
  AppendThreadRow(raw, r8);
  ThreadInfo t7, t8;
  t7.index = 7, t7.name = "seven", t7.osProcessId = 100, t7.osThreadId = 77;
  t7.attributes = {{"k1", "v1"}, {"k2", "v2"}};
  t8.index = 8, t8.name = "eight", t8.osProcessId = 300;
  w.RawThreads(raw, {t7, t8});

  // ThreadIndex differs from CaptureThreadIndex on some events (§Uncompressed events).
  w.Events({Ev(1, 1, 1, 1, 10), Ev(1, 2, 998, 1, 11), Ev(1, 1, 7, 8, 12), Ev(1, 1, uint64_t{1} << 40, 2, 9)}, false);
  w.RemoveThreads({{998, 2}, {3, 0}});
  w.Point({100, 0, {{1, 2}, {8, 1}}});  // no flush: threads stay
  w.Events({Ev(1, 3, 1, 1, 110), Ev(1, 2, 7, 8, 111)}, true);
  w.Point({200, kSequencePointFlushThreads, {{1, 3}}});
  ThreadInfo redefined;
  redefined.index = 1, redefined.osThreadId = 15, redefined.name = "main-again";
  w.Threads({redefined, Thread(998, 16)});
  w.Events({Ev(1, 1, 998, 1, 210), Ev(1, 2, 1, 1, 211)}, true);
  w.RemoveThreads({{1, 2}, {998, 0}});
  w.End();
  RequireRoundTrip(w);
}

TEST_CASE("v6 round trip: stacks (one empty), label lists of every kind, ids restart after a sequence point", "[v6]") {
  ExpectingWriter w = StartTrace();
  PayloadBuilder ips;
  ips.AppendU64(0x00007FF812345678).AppendU64(0xFFFFFFFFFFFFFFF0);
  // An explicitly empty stack still has an id (format-pitfalls.md §10).
  w.Stacks(1, {ips.bytes(), {}, Bytes({1, 0, 0, 0, 0, 0, 0, 0})});
  w.Stacks(100, {Bytes({2, 0, 0, 0, 0, 0, 0, 0})});

  auto label = [](LabelKind kind) {
    Label l;
    l.kind = kind;
    return l;
  };
  Label activity = label(LabelKind::kActivityId), related = label(LabelKind::kRelatedActivityId);
  activity.guid = MakeGuid(1), related.guid = MakeGuid(2);
  Label traceId = label(LabelKind::kTraceId), spanId = label(LabelKind::kSpanId);
  traceId.guid = MakeGuid(3), spanId.number = 0x1122334455667788;
  Label str = label(LabelKind::kStringKeyValue), num = label(LabelKind::kIntKeyValue);
  str.key = "user", str.value = "alice", num.key = "count", num.intValue = -5;
  Label opcode = label(LabelKind::kOpCode), keywords = label(LabelKind::kKeywords);
  Label level = label(LabelKind::kLevel), version = label(LabelKind::kVersion);
  opcode.number = 8, keywords.number = 0xF0F0F0F0F0F0F0F0, level.number = 19, version.number = 255;
  Label minInt = label(LabelKind::kIntKeyValue), emptyStr = label(LabelKind::kStringKeyValue);
  minInt.key = "min", minInt.intValue = std::numeric_limits<int64_t>::min();
  // A single-label list (its only label carries the last-label bit), lists of 2 and 4.
  w.LabelLists(1, {LabelList{{activity, related}}, LabelList{{traceId, spanId}}, LabelList{{str, num}},
                   LabelList{{opcode, keywords, level, version}}, LabelList{{minInt}}});
  w.LabelLists(99, {LabelList{{emptyStr, activity}}, LabelList{{label(LabelKind::kOpCode), label(LabelKind::kLevel)}}});

  auto with = [](RecordedEvent e, uint32_t stack, uint32_t labels) {
    e.stackId = stack, e.labelListId = labels;
    return e;
  };
  w.Events({with(Ev(2, 1, 1, 1, 10), 1, 1), with(Ev(2, 2, 1, 1, 11), 2, 99), with(Ev(2, 3, 1, 1, 12), 0, 0),
            with(Ev(2, 4, 1, 1, 13), 100, 5)},
           false);
  w.Events({with(Ev(2, 5, 1, 1, 14), 3, 100), with(Ev(2, 6, 1, 1, 15), 3, 100), with(Ev(2, 7, 1, 1, 16), 1, 4),
            with(Ev(2, 8, 1, 1, 17), 0, 2), with(Ev(2, 9, 1, 1, 18), 0, 0)},
           true);
  // §SequencePointBlock: stack and label list references end here; the same ids are
  // defined again with new contents.
  w.Point({50, 0, {}});
  w.Stacks(1, {Bytes({3, 0, 0, 0, 0, 0, 0, 0})});
  w.LabelLists(1, {LabelList{{num}}});
  w.Events({with(Ev(2, 10, 1, 1, 60), 1, 1)}, true);
  w.End();
  RequireRoundTrip(w);
}

TEST_CASE("v6 round trip: events in both encodings, out of order across capture threads", "[v6]") {
  ExpectingWriter w = StartTrace();
  w.Threads({Thread(3), Thread(40000)});
  const std::vector<uint8_t> four = Bytes({1, 2, 3, 4}), five = Bytes({5, 6, 7, 8, 9});
  auto sorted = [](RecordedEvent e) {
    e.isSorted = true;
    return e;
  };
  auto on = [](RecordedEvent e, uint32_t processor) {
    e.processorNumber = processor;
    return e;
  };
  // Capture thread 1 runs 17000..17002, then thread 2 restarts its sequence at 1 with
  // earlier timestamps (15000), then back to thread 1 (§Event TimeStamp sorting);
  // thread 3's sequence wraps from 2^32-1 to 0; thread 40000 jumps forward in sequence
  // (dropped events) and in time, then back to 0.
  const std::vector<RecordedEvent> events = {
      sorted(Ev(1, 1, 1, 1, 17000, four)),
      Ev(1, 2, 1, 1, 17001, four),
      on(Ev(2, 3, 2, 1, 17002, five), 3),  // thread != capture thread, new processor
      sorted(Ev(2, 1, 2, 2, 15000)),
      Ev(1, 2, 1, 2, 15001, four),
      Ev(1, 4, 1, 1, 17003, four),
      on(Ev(1, 0xFFFFFFFF, 3, 3, 16000, four), 1),
      on(Ev(1, 0, 3, 3, 16001, four), 1),
      on(Ev(2, 1000, 40000, 40000, std::numeric_limits<uint64_t>::max()), 255),
      sorted(Ev(2, 1001, 40000, 40000, 0)),
      Ev(2, 1002, 1, 40000, 0),  // a zero timestamp delta
  };
  w.Events(events, false);
  w.Events(events, true);
  w.Events({events[3], events[0]}, true);  // every block restarts compression from zeros
  w.End();
  RequireRoundTrip(w);
}

TEST_CASE("v6 round trip: sequence points and metadata flush", "[v6]") {
  ExpectingWriter w = StartTrace();
  w.Events({Ev(1, 1, 1, 1, 10, Bytes({1, 0, 0, 0})), Ev(2, 1, 2, 2, 11)}, true);
  w.Point({20, 0, {{1, 1}, {2, 5}}});  // thread 2 claims 4 more events than were seen
  w.Point({30, kSequencePointFlushMetadata, {}});
  // Ids 1 and 2 may now be redefined, with new names and layouts.
  w.Metadata({Meta(1, "OneAgain", {Field("y", Scalar(TypeCode::kDouble))}), Meta(2, "TwoAgain")});
  w.Events({Ev(1, 2, 1, 1, 40, Bytes({0, 0, 0, 0, 0, 0, 0, 0})), Ev(2, 6, 2, 2, 41)}, false);
  w.Point({50, kSequencePointFlushThreads | kSequencePointFlushMetadata, {{1, 2}, {2, 6}}});
  w.Metadata({Meta(2, "TwoThird")});
  w.Threads({Thread(2, 999)});
  w.Events({Ev(2, 1, 2, 2, 60)}, true);
  w.Point({~uint64_t{0}, 0x80000000u, {{~uint64_t{0}, 0xFFFFFFFF}}});  // unknown flag bits pass through
  w.End();
  RequireRoundTrip(w);
}

TEST_CASE("v6 round trip: WriteEvents splits many events over blocks", "[v6]") {
  for (bool compressed : {false, true}) {
    ExpectingWriter w = StartTrace();
    std::vector<RecordedEvent> events;
    for (uint32_t i = 0; i < 3000; ++i) {
      const uint64_t capture = 1 + i % 2;
      RecordedEvent e = Ev(1 + (i / 7) % 2, i / 2 + 1, capture, capture, 1000 + i * 3 - capture * 50,
                           std::vector<uint8_t>(i % 13, static_cast<uint8_t>(i)));
      e.isSorted = i % 5 == 0;
      events.push_back(e);
    }
    w.Events(events, compressed, /*maxBlockContent=*/1000);
    w.End();
    const size_t eventBlocks = std::count_if(w.expected().blocks.begin(), w.expected().blocks.end(),
                                             [](const BlockInfo& b) { return b.kind == BlockKind::kEvent; });
    CHECK(eventBlocks > 20);
    RequireRoundTrip(w, {7, 4096, 0});
  }
}

TEST_CASE("v6 round trip: 4-byte pointers", "[v6]") {
  ExpectingWriter w = StartTrace(4);
  w.Stacks(1, {Bytes({0x78, 0x56, 0x34, 0x12, 0xF0, 0xDE, 0xBC, 0x9A}), {}});
  RecordedEvent e = Ev(2, 1, 1, 1, 5);
  e.stackId = 1;
  w.Events({e}, true);
  w.End();
  RequireRoundTrip(w);
}

TEST_CASE("v6 round trip: an event block of the maximum size", "[v6]") {
  ExpectingWriter w = StartTrace();
  // Uncompressed: content = 20 (block header) + 4 + 48 (row header) + payload = 2^24 - 1.
  std::vector<uint8_t> payload(NetTraceV6Writer::kMaxBlockContent - 20 - 52);
  for (size_t i = 0; i < payload.size(); ++i) payload[i] = static_cast<uint8_t>(i * 7);
  w.Events({Ev(1, 1, 1, 1, 1, payload)}, false);
  REQUIRE(w.expected().blocks.back().payloadSize == NetTraceV6Writer::kMaxBlockContent);
  w.Events({Ev(1, 2, 1, 1, 2, payload)}, true);
  w.End();
  RequireRoundTrip(w, {4096, 0});
}

}  // namespace
}  // namespace nettrace::testing
