// Byte-level checks of the v6 writer against bytes computed by hand from
// NetTraceFormat.md (section named on each case). These need no reader.
#include <catch2/catch.hpp>

#include <cstdint>
#include <initializer_list>
#include <vector>

#include "write/field_types.h"
#include "write/nettrace_writer.h"

namespace nettrace {
namespace {

std::vector<uint8_t> Bytes(std::initializer_list<int> values) {
  std::vector<uint8_t> out;
  for (int v : values) out.push_back(static_cast<uint8_t>(v));
  return out;
}

TraceInfo BasicTraceInfo(uint32_t pointerSize = 8) {
  TraceInfo info;
  info.syncTimeUtc = {2025, 2, 1, 3, 4, 5, 6, 0};
  info.tickFrequency = 1000;
  info.pointerSize = pointerSize;
  return info;
}

// A writer past its header and trace block, with those bytes taken out, so bytes()
// holds only what the test writes next.
NetTraceV6Writer WriterAtFirstBlock(uint32_t pointerSize = 8) {
  NetTraceV6Writer w;
  REQUIRE(w.WriteTraceBlock(BasicTraceInfo(pointerSize)).ok());
  w.TakeBytes();
  return w;
}

Guid Sequential(uint8_t first) {
  Guid g;
  for (int i = 0; i < 16; ++i) g.bytes[i] = static_cast<uint8_t>(first + i);
  return g;
}

TEST_CASE("writer: stream header, trace block and end of stream", "[write]") {
  NetTraceV6Writer w(6, 25);
  // §First Bytes: "Nettrace", Reserved 0, Major 6, Minor 25.
  CHECK(w.bytes() == Bytes({0x4E, 0x65, 0x74, 0x74, 0x72, 0x61, 0x63, 0x65, 0, 0, 0, 0, 6, 0, 0, 0, 25, 0, 0, 0}));
  w.TakeBytes();
  TraceInfo info = BasicTraceInfo();
  info.syncTimeTicks = 0x0102;
  info.keyValues = {{"k", "v"}};
  REQUIRE(w.WriteTraceBlock(info).ok());
  // §TraceBlock: 40 fixed bytes + "k" "v" (2 + 2) = 44 = 0x2C; §Blocks: size | kind 1 << 24.
  CHECK(w.bytes() == Bytes({0x2C, 0, 0, 1,                                           // block header
                            0xE9, 7, 2, 0, 1, 0, 3, 0, 4, 0, 5, 0, 6, 0, 0, 0,       // SyncTimeUTC
                            2, 1, 0, 0, 0, 0, 0, 0, 0xE8, 3, 0, 0, 0, 0, 0, 0,       // ticks, frequency
                            8, 0, 0, 0, 1, 0, 0, 0, 1, 'k', 1, 'v'}));               // pointer size, kv
  w.TakeBytes();
  REQUIRE(w.WriteEndOfStream().ok());
  CHECK(w.bytes() == Bytes({0, 0, 0, 0}));  // §EndOfStreamBlock: kind 0, no content
  CHECK(w.bytesWritten() == 20 + 48 + 4);
  // Nothing but raw blocks after the end.
  CHECK(w.WriteThreadBlock({}).code() == ErrorCode::kInvalidArgument);
}

TEST_CASE("writer: trace block appends and checks the well-known keys", "[write]") {
  NetTraceV6Writer w;
  w.TakeBytes();
  TraceInfo info = BasicTraceInfo();
  info.processId = 42;
  info.keyValues = {{"HardwareThreadCount", "4"}};
  info.numberOfProcessors = 4;
  REQUIRE(w.WriteTraceBlock(info).ok());
  const std::vector<uint8_t>& b = w.bytes();
  // Count 2 at offset 4 + 36, then the given pair, then the appended ProcessId.
  CHECK(b[40] == 2);
  const std::vector<uint8_t> tail = Bytes({9, 'P', 'r', 'o', 'c', 'e', 's', 's', 'I', 'd', 2, '4', '2'});
  CHECK(std::vector<uint8_t>(b.end() - tail.size(), b.end()) == tail);

  NetTraceV6Writer w2;
  info.numberOfProcessors = 8;  // disagrees with the key
  CHECK(w2.WriteTraceBlock(info).code() == ErrorCode::kInvalidArgument);
  info.numberOfProcessors = 4;
  info.pointerSize = 2;
  CHECK(w2.WriteTraceBlock(info).code() == ErrorCode::kInvalidArgument);
}

TEST_CASE("writer: blocks need the trace block first", "[write]") {
  NetTraceV6Writer w;
  const size_t before = w.bytes().size();
  CHECK(w.WriteMetadataBlock({}).code() == ErrorCode::kInvalidArgument);
  CHECK(w.WriteEndOfStream().code() == ErrorCode::kInvalidArgument);
  CHECK(w.bytes().size() == before);
  CHECK(w.WriteRawBlock(99, Bytes({1, 2})).ok());  // the escape hatch works anywhere
  CHECK(w.bytes().size() == before + 6);
}

TEST_CASE("writer: compressed rows, with a sequence restart and a wrapped timestamp delta", "[write]") {
  NetTraceV6Writer w = WriterAtFirstBlock();
  const std::vector<uint8_t> p1 = Bytes({0xAA, 0xBB}), p2 = Bytes({0xCC, 0xDD});
  std::vector<EventRecord> events(2);
  events[0].metadataId = 1, events[0].sequenceNumber = 1, events[0].thread = 1, events[0].captureThread = 1;
  events[0].timestamp = 1000, events[0].payload = p1;
  // Another capture thread: its sequence restarts at 1 and its timestamp is earlier.
  events[1].metadataId = 1, events[1].sequenceNumber = 1, events[1].thread = 2, events[1].captureThread = 2;
  events[1].timestamp = 900, events[1].isSorted = true, events[1].payload = p2;
  REQUIRE(w.WriteEventBlock(events, /*compressed=*/true).ok());
  CHECK(w.bytes() == Bytes({
                         0x34, 0, 0, 2,                          // 52 bytes, kind Event
                         20, 0, 1, 0,                            // HeaderSize 20, Flags 1 = compressed
                         0x84, 3, 0, 0, 0, 0, 0, 0,              // min timestamp 900
                         0xE8, 3, 0, 0, 0, 0, 0, 0,              // max timestamp 1000
                         // flags 1|2|4|128; id 1; seq delta 1-0-1 = 0; capture 1; processor 0;
                         // thread 1; ts delta 1000; payload size 2; payload
                         0x87, 1, 0, 1, 0, 1, 0xE8, 7, 2, 0xAA, 0xBB,
                         // flags 2|4|64; seq delta (1-1-1) mod 2^32; capture 2; processor 0;
                         // thread 2; ts delta (900-1000) mod 2^64 in 10 bytes; payload
                         0x46, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F, 2, 0, 2,
                         0x9C, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01, 0xCC, 0xDD}));
}

TEST_CASE("writer: compressed rows omit unchanged groups and re-send the rest", "[write]") {
  NetTraceV6Writer w = WriterAtFirstBlock();
  std::vector<EventRecord> events(3);
  for (int i = 0; i < 3; ++i) {
    events[i].metadataId = 7, events[i].sequenceNumber = 5 + i, events[i].thread = 3, events[i].captureThread = 3;
    events[i].processorNumber = 1, events[i].stackId = 2, events[i].labelListId = 4, events[i].timestamp = 10 + i;
  }
  events[2].processorNumber = 2;  // migrated: group 2 again, with a zero sequence delta
  REQUIRE(w.WriteEventBlock(events, true).ok());
  const std::vector<uint8_t> rows(w.bytes().begin() + 24, w.bytes().end());
  CHECK(rows == Bytes({0x1F, 7, 4, 3, 1, 3, 2, 10, 4,  // everything but sorted/size (size 0 = previous)
                       0x00, 1,                        // only the timestamp delta
                       0x02, 0, 3, 2, 1}));
}

TEST_CASE("writer: uncompressed rows and the IsSorted polarity", "[write]") {
  NetTraceV6Writer w = WriterAtFirstBlock();
  const std::vector<uint8_t> payload = Bytes({9});
  EventRecord e;
  e.metadataId = 3, e.sequenceNumber = 4, e.thread = 5, e.captureThread = 6, e.processorNumber = 7;
  e.stackId = 8, e.timestamp = 9, e.labelListId = 10, e.payload = payload;
  std::vector<EventRecord> events = {e, e};
  events[1].isSorted = true;
  REQUIRE(w.WriteEventBlock(events, false).ok());
  const std::vector<uint8_t> row = Bytes({49, 0, 0, 0,              // EventSize 48 + 1
                                          3, 0, 0, 0x80,            // id 3, high bit: NOT sorted
                                          4, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 6, 0, 0, 0, 0, 0, 0, 0,
                                          7, 0, 0, 0, 8, 0, 0, 0, 9, 0, 0, 0, 0, 0, 0, 0,
                                          10, 0, 0, 0, 1, 0, 0, 0, 9});
  std::vector<uint8_t> expected = Bytes({20 + 2 * 53, 0, 0, 2,          // block header
                                         20, 0, 0, 0,                    // HeaderSize, Flags 0
                                         9, 0, 0, 0, 0, 0, 0, 0,         // min timestamp
                                         9, 0, 0, 0, 0, 0, 0, 0});       // max timestamp
  expected.insert(expected.end(), row.begin(), row.end());
  expected.insert(expected.end(), row.begin(), row.end());
  expected[24 + 53 + 7] = 0;  // the second row is sorted: bit clear (format-pitfalls.md §5)
  CHECK(w.bytes() == expected);
}

TEST_CASE("writer: metadata row with a nested Object and a FixedLengthArray", "[write]") {
  NetTraceV6Writer w = WriterAtFirstBlock();
  EventMetadata m;
  m.id = 5, m.providerName = "P", m.eventId = 7, m.eventName = "E";
  m.fields = {{"s", ObjectOf({{"a", Scalar(TypeCode::kInt32)}})},
              {"f", FixedArrayOf(Scalar(TypeCode::kByte), 3)}};
  m.opcode = 10;
  m.hasLevel = true, m.level = 4;
  REQUIRE(w.WriteMetadataBlock(std::span(&m, 1), /*extraHeaderBytes=*/2).ok());
  CHECK(w.bytes() == Bytes({
                         0x28, 0, 0, 3,                   // 40 bytes, kind Metadata
                         2, 0, 0, 0,                      // HeaderSize 2 (not counting itself) + 2 bytes
                         0x22, 0,                         // row Size 34
                         5, 1, 'P', 7, 1, 'E',            // id, provider, event id, name
                         2, 0,                            // 2 fields
                         10, 0, 1, 's', 1,                // "s": Object
                         1, 0, 3, 0, 1, 'a', 9,           //   1 field "a": Int32
                         6, 0, 1, 'f', 22, 6, 3, 0,       // "f": FixedLengthArray<Byte> x3
                         4, 0, 1, 10, 8, 4}));            // optional: OpCode 10, Level 4
}

TEST_CASE("writer: every optional metadata kind in kind order", "[write]") {
  NetTraceV6Writer w = WriterAtFirstBlock();
  EventMetadata m;
  m.id = 1;
  m.providerGuid = Sequential(0x10);
  m.hasVersion = true, m.version = 2;
  m.attributes = {{"k", "v"}};
  m.description = "d";
  m.messageTemplate = "t";
  m.hasKeywords = true, m.keywords = 0x0102030405060708;
  m.opcode = 1;
  REQUIRE(w.WriteMetadataBlock(std::span(&m, 1)).ok());
  std::vector<uint8_t> optional = Bytes({1, 1, 3, 8, 7, 6, 5, 4, 3, 2, 1, 4, 1, 't', 5, 1, 'd', 6, 1, 'k', 1, 'v', 7});
  for (int i = 0; i < 16; ++i) optional.push_back(static_cast<uint8_t>(0x10 + i));
  optional.push_back(9), optional.push_back(2);
  const std::vector<uint8_t>& b = w.bytes();
  REQUIRE(b.size() > optional.size() + 2);
  CHECK(std::vector<uint8_t>(b.end() - optional.size(), b.end()) == optional);
  CHECK(b[b.size() - optional.size() - 2] == optional.size());
}

TEST_CASE("writer: metadata validation", "[write]") {
  NetTraceV6Writer w = WriterAtFirstBlock();
  auto write = [&](const EventMetadata& m) { return w.WriteMetadataBlock(std::span(&m, 1)).code(); };
  EventMetadata m;
  m.id = 1;
  // §TypeCode RelLoc: "The element type must be fixed size".
  m.fields = {{"r", RelLocOf(ArrayOf(Scalar(TypeCode::kUTF16CodeUnit)))}};
  CHECK(write(m) == ErrorCode::kInvalidArgument);
  m.fields = {{"r", RelLocOf(Scalar(TypeCode::kVarInt))}};  // variable too (format-pitfalls.md §11)
  CHECK(write(m) == ErrorCode::kInvalidArgument);
  m.fields = {{"r", DataLocOf(ObjectOf({{"s", Scalar(TypeCode::kNullTerminatedUTF16String)}}))}};
  CHECK(write(m) == ErrorCode::kInvalidArgument);
  // An Object of fixed-size fields, one a FixedLengthArray, is fixed size: accepted.
  m.fields = {{"d", DataLocOf(ObjectOf({{"x", Scalar(TypeCode::kGuid)},
                                        {"y", FixedArrayOf(Scalar(TypeCode::kUInt16), 2)}}))}};
  CHECK(write(m) == ErrorCode::kOk);
  const size_t goodBytes = w.bytes().size();

  m.fields = {{"bad", Scalar(TypeCode::kDBNull)}};  // no v6 encoding (Decimal has one: IsDefinedTypeCode)
  CHECK(write(m) == ErrorCode::kInvalidArgument);
  m.fields = {{"bad", Scalar(TypeCode::kEmpty)}};
  CHECK(write(m) == ErrorCode::kInvalidArgument);
  m.fields = {{"bad", Scalar(TypeCode::kArray)}};  // no element type
  CHECK(write(m) == ErrorCode::kInvalidArgument);
  m.fields = {{"bad", WithElement(TypeCode::kInt32, Scalar(TypeCode::kInt32))}};  // an element on a scalar
  CHECK(write(m) == ErrorCode::kInvalidArgument);
  FieldType deep = Scalar(TypeCode::kInt32);
  for (int i = 0; i < 33; ++i) deep = ArrayOf(deep);
  m.fields = {{"deep", deep}};  // Int32 inside 33 arrays: deeper than readers accept
  CHECK(write(m) == ErrorCode::kInvalidArgument);
  m.fields.clear();
  m.keywords = 1;  // without hasKeywords it would read back as 0
  CHECK(write(m) == ErrorCode::kInvalidArgument);
  m.keywords = 0, m.hasLevel = true, m.level = 256;
  CHECK(write(m) == ErrorCode::kInvalidArgument);
  m.level = 0, m.id = 0x80000000u;
  CHECK(write(m) == ErrorCode::kInvalidArgument);
  m.id = 1, m.eventName = std::string(70000, 'x');
  CHECK(write(m) == ErrorCode::kLimitExceeded);  // uint16 row Size
  // A failed block leaves nothing behind; the good one above is still there.
  CHECK(w.bytes().size() == goodBytes);
}

TEST_CASE("writer: label list block with the last-label high bit", "[write]") {
  NetTraceV6Writer w = WriterAtFirstBlock();
  std::vector<LabelList> lists(2);
  Label activity, span, intKv;
  activity.kind = LabelKind::kActivityId, activity.guid = Sequential(1);
  span.kind = LabelKind::kSpanId, span.number = 0x1122334455667788;
  intKv.kind = LabelKind::kIntKeyValue, intKv.key = "k", intKv.intValue = -2;
  lists[0].labels = {activity, span};
  lists[1].labels = {intKv};
  REQUIRE(w.WriteLabelListBlock(1, lists).ok());
  std::vector<uint8_t> expected = Bytes({38, 0, 0, 8, 1, 0, 0, 0, 2, 0, 0, 0, 1});
  for (int i = 1; i <= 16; ++i) expected.push_back(static_cast<uint8_t>(i));
  for (int v : std::initializer_list<int>{0x84, 0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11,  // SpanId, last
                                          0x86, 1, 'k', 3})  // varint -2 zig-zags to 3
    expected.push_back(static_cast<uint8_t>(v));
  CHECK(w.bytes() == expected);
  w.TakeBytes();
  CHECK(w.WriteLabelListBlock(0, lists).code() == ErrorCode::kInvalidArgument);  // firstIndex >= 1
  lists[1].labels.clear();
  CHECK(w.WriteLabelListBlock(1, lists).code() == ErrorCode::kInvalidArgument);  // empty list
  Label level;
  level.kind = LabelKind::kLevel, level.number = 300;
  lists[1].labels = {level};
  CHECK(w.WriteLabelListBlock(1, lists).code() == ErrorCode::kInvalidArgument);  // uint8
  CHECK(w.bytes().empty());
}

TEST_CASE("writer: thread, remove-thread, sequence point and stack blocks", "[write]") {
  NetTraceV6Writer w = WriterAtFirstBlock(4);
  ThreadInfo t;
  t.index = 3, t.name = "t", t.osProcessId = 100, t.osThreadId = 200, t.attributes = {{"a", "b"}};
  REQUIRE(w.WriteThreadBlock(std::span(&t, 1)).ok());
  CHECK(w.bytes() == Bytes({16, 0, 0, 6, 14, 0, 3, 1, 1, 't', 2, 100, 3, 0xC8, 1, 4, 1, 'a', 1, 'b'}));
  w.TakeBytes();

  const std::vector<ThreadSequence> removed = {{3, 300}};
  REQUIRE(w.WriteRemoveThreadBlock(removed).ok());
  CHECK(w.bytes() == Bytes({3, 0, 0, 7, 3, 0xAC, 2}));
  w.TakeBytes();

  SequencePoint sp;
  sp.timestamp = 5, sp.flags = 3, sp.threads = {{1, 2}, {300, 7}};
  REQUIRE(w.WriteSequencePointBlock(sp).ok());
  CHECK(w.bytes() == Bytes({21, 0, 0, 4, 5, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 2, 0, 0, 0, 1, 2, 0xAC, 2, 7}));
  w.TakeBytes();

  const std::vector<std::vector<uint8_t>> stacks = {Bytes({1, 2, 3, 4}), {}};
  REQUIRE(w.WriteStackBlock(1, stacks).ok());
  CHECK(w.bytes() == Bytes({20, 0, 0, 5, 1, 0, 0, 0, 2, 0, 0, 0, 4, 0, 0, 0, 1, 2, 3, 4, 0, 0, 0, 0}));
  w.TakeBytes();
  const std::vector<std::vector<uint8_t>> odd = {Bytes({1, 2, 3, 4, 5, 6})};  // 1.5 pointers
  CHECK(w.WriteStackBlock(1, odd).code() == ErrorCode::kInvalidArgument);
  CHECK(w.bytes().empty());
}

TEST_CASE("writer: the 24-bit block size limit", "[write]") {
  NetTraceV6Writer w = WriterAtFirstBlock();
  std::vector<uint8_t> content(NetTraceV6Writer::kMaxBlockContent, 0);
  REQUIRE(w.WriteRawBlock(99, content).ok());
  CHECK(w.bytes()[0] == 0xFF);
  CHECK(w.bytes()[3] == 99);
  w.TakeBytes();
  content.push_back(0);
  CHECK(w.WriteRawBlock(99, content).code() == ErrorCode::kLimitExceeded);

  // One uncompressed event that fills a block exactly, then one byte too many.
  content.resize(NetTraceV6Writer::kMaxBlockContent - NetTraceV6Writer::kEventBlockHeaderSize - 52);
  EventRecord e;
  e.metadataId = 1;
  e.payload = content;
  REQUIRE(w.WriteEventBlock(std::span(&e, 1), false).ok());
  CHECK(w.bytes().size() == 4 + NetTraceV6Writer::kMaxBlockContent);
  w.TakeBytes();
  content.push_back(0);
  e.payload = content;
  CHECK(w.WriteEventBlock(std::span(&e, 1), false).code() == ErrorCode::kLimitExceeded);
  CHECK(w.WriteEvents(std::span(&e, 1), false).code() == ErrorCode::kLimitExceeded);
  CHECK(w.bytes().empty());
}

TEST_CASE("writer: WriteEvents splits into blocks and restarts compression", "[write]") {
  NetTraceV6Writer w = WriterAtFirstBlock();
  const std::vector<uint8_t> payload(10, 0x5A);
  std::vector<EventRecord> events(100);
  for (size_t i = 0; i < events.size(); ++i) {
    events[i].metadataId = 1, events[i].sequenceNumber = static_cast<uint32_t>(i + 1);
    events[i].thread = events[i].captureThread = 1, events[i].timestamp = 1 + i, events[i].payload = payload;
  }
  // The first row is 1+1+1+1+1+1+1+1+10 = 18 bytes, later ones 1+1+10 = 12.
  REQUIRE(w.WriteEvents(events, true, 200).ok());
  const std::vector<uint8_t>& b = w.bytes();
  size_t at = 0, blocks = 0;
  while (at < b.size()) {
    const uint32_t size = b[at] | (b[at + 1] << 8) | (b[at + 2] << 16);
    CHECK(b[at + 3] == 2);
    CHECK(size <= 200);
    // Every block starts from zeroed fields: the first row sends every changed group.
    CHECK(b[at + 4 + 20] == 0x87);
    at += 4 + size, ++blocks;
  }
  CHECK(at == b.size());
  CHECK(blocks == 8);  // 20 + 18 + 13 * 12 = 194 per block: 14 events; 7 * 14 + 2 = 100
  w.TakeBytes();
  CHECK(w.WriteEventBlock(events, true).ok());  // all in one when they fit
  CHECK(w.WriteEventBlock({}, true).code() == ErrorCode::kInvalidArgument);
}

}  // namespace
}  // namespace nettrace
