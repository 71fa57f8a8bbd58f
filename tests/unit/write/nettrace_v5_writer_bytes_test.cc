// Byte-level checks of the v4/v5 writer against bytes computed by hand from
// NetTraceFormat_v5.md (section named on each case), its refusals (each leaving the
// output unchanged), streaming with TakeBytes, and raw objects.
#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include "unit/write/v5_test_support.h"
#include "write/field_types.h"
#include "write/nettrace_v5_writer.h"
#include "write/v5_metadata_payload.h"

namespace nettrace::testing {
namespace {

using Version = NetTraceV5Writer::Version;

std::vector<uint8_t> Tail(const std::vector<uint8_t>& b, size_t from) { return {b.begin() + from, b.end()}; }

// A writer past its stream header and Trace object (102 bytes), those bytes taken out.
NetTraceV5Writer WriterAtFirstBlock(Version version = Version::kV5, uint32_t pointerSize = 8) {
  NetTraceV5Writer w(version);
  REQUIRE(w.WriteTraceObject(BasicTraceInfo(pointerSize)).ok());
  w.TakeBytes();
  REQUIRE(w.bytesWritten() == 102);
  return w;
}

// The call fails with `code` and leaves the output exactly as it was.
template <typename Call>
void RequireRefused(NetTraceV5Writer& w, ErrorCode code, Call call) {
  const std::vector<uint8_t> before = w.bytes();
  const uint64_t written = w.bytesWritten();
  const Status s = call(w);
  INFO(s.ToString());
  CHECK(s.code() == code);
  CHECK(w.bytes() == before);
  CHECK(w.bytesWritten() == written);
}

TEST_CASE("v5 writer bytes: stream header, Trace object, SPBlock padding and end tag", "[v5writer]") {
  NetTraceV5Writer w;
  // §First Bytes and §Stream Header: "Nettrace", int 20, "!FastSerialization.1".
  std::vector<uint8_t> header = Bytes({'N', 'e', 't', 't', 'r', 'a', 'c', 'e', 20, 0, 0, 0});
  for (char c : std::string("!FastSerialization.1")) header.push_back(static_cast<uint8_t>(c));
  CHECK(w.bytes() == header);
  TraceInfo info = BasicTraceInfo();
  info.syncTimeTicks = 0x0102, info.processId = 7, info.numberOfProcessors = 2;
  REQUIRE(w.WriteTraceObject(info).ok());
  // §The First Object: tags 5 5 1, version 4, min reader 4, "Trace", 6, fields, 6.
  CHECK(Tail(w.bytes(), 32) == Bytes({5, 5, 1, 4, 0, 0, 0, 4, 0, 0, 0, 5, 0, 0, 0, 'T', 'r', 'a', 'c', 'e', 6,
                                      0xE9, 7, 2, 0, 1, 0, 3, 0, 4, 0, 5, 0, 6, 0, 0, 0,  // SyncTimeUTC
                                      2, 1, 0, 0, 0, 0, 0, 0, 0xE8, 3, 0, 0, 0, 0, 0, 0,  // QPC, frequency
                                      8, 0, 0, 0, 7, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0,     // pointer, pid, cpus, rate
                                      6}));
  w.TakeBytes();
  REQUIRE(w.WriteSequencePointBlock({0x10, 0, {{0x20, 5}}}).ok());
  // At offset 102: a 23-byte type, BlockSize at 125, so 3 bytes of padding put the
  // content at file offset 132 (§SequencePointBlock Object).
  CHECK(w.bytes() == Bytes({5, 5, 1, 2, 0, 0, 0, 2, 0, 0, 0, 7, 0, 0, 0, 'S', 'P', 'B', 'l', 'o', 'c', 'k', 6,
                            24, 0, 0, 0, 0, 0, 0,                           // BlockSize, padding
                            0x10, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0,          // TimeStamp, ThreadCount
                            0x20, 0, 0, 0, 0, 0, 0, 0, 5, 0, 0, 0, 6}));   // ThreadId, SequenceNumber, EndObject
  w.TakeBytes();
  REQUIRE(w.WriteEndOfStream().ok());
  CHECK(w.bytes() == Bytes({1}));  // §Ending the stream: NullReference
  CHECK(w.bytesWritten() == 102 + 55 + 1);
}

TEST_CASE("v5 writer bytes: a header-compressed event block", "[v5writer]") {
  NetTraceV5Writer w = WriterAtFirstBlock();
  EventRecord a, b;
  a.metadataId = 1, a.sequenceNumber = 1, a.thread = a.captureThread = 7, a.timestamp = 50, a.isSorted = true;
  b = a;
  b.sequenceNumber = 2, b.timestamp = 10, b.isSorted = false;
  for (int i = 0; i < 16; ++i) b.activityId.bytes[i] = static_cast<uint8_t>(0xA0 + i);
  const std::vector<uint8_t> pa = Bytes({0xAA}), pb = Bytes({0xBB});
  a.payload = pa, b.payload = pb;
  const EventRecord events[] = {a, b};
  REQUIRE(w.WriteEventBlock(events, true).ok());
  std::vector<uint8_t> want = Bytes({5, 5, 1, 2, 0, 0, 0, 2, 0, 0, 0, 10, 0, 0, 0});
  for (char c : std::string("EventBlock")) want.push_back(static_cast<uint8_t>(c));
  // Type ends at 128: BlockSize there, content at 132 with no padding.
  for (int v : {6, 57, 0, 0, 0,
                20, 0, 1, 0, 10, 0, 0, 0, 0, 0, 0, 0, 50, 0, 0, 0, 0, 0, 0, 0,  // header: size, flags, min, max
                // Flags 1|2|4|64|128; MetadataId 1; sequence delta 0, capture 7, processor 0;
                // thread 7; TimeStamp +50; PayloadSize 1; payload.
                0xC7, 1, 0, 7, 0, 7, 50, 1, 0xAA,
                // Flags 16 (ActivityId); TimeStamp 10 - 50 wraps mod 2^64 (format-pitfalls.md §1).
                0x10, 0xD8, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01})
    want.push_back(static_cast<uint8_t>(v));
  for (int i = 0; i < 16; ++i) want.push_back(static_cast<uint8_t>(0xA0 + i));
  want.push_back(0xBB);
  want.push_back(6);
  CHECK(w.bytes() == want);
}

TEST_CASE("v5 writer bytes: a header-compressed metadata block", "[v5writer]") {
  NetTraceV5Writer w = WriterAtFirstBlock();
  EventMetadata a, b;
  a.id = 1, a.eventName = "A";
  b.id = 2, b.eventName = "B";  // a payload of the same size as a's
  std::vector<uint8_t> pa, pb;
  REQUIRE(write_internal::EncodeV5MetadataPayload(a, true, pa).ok());
  REQUIRE(write_internal::EncodeV5MetadataPayload(b, true, pb).ok());
  REQUIRE(pa.size() < 128);
  const EventMetadata rows[] = {a, b};
  REQUIRE(w.WriteMetadataBlock(rows, true).ok());
  // §The MetadataBlock Object: blobs with MetadataId 0 and zero header fields. The first
  // says only IsSorted (64) and its PayloadSize (128); the second repeats everything,
  // and without flag 2 a MetadataId of 0 does not advance the sequence number
  // (format-pitfalls.md §4): flags 64 alone. TimeStamp deltas are 0.
  std::vector<uint8_t> content = Bytes({20, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0});
  content.insert(content.end(), {0xC0, 0, static_cast<uint8_t>(pa.size())});
  content.insert(content.end(), pa.begin(), pa.end());
  content.insert(content.end(), {0x40, 0});
  content.insert(content.end(), pb.begin(), pb.end());
  const std::vector<uint8_t>& out = w.bytes();
  // A 29-byte type at 102: BlockSize at 131, one byte of padding, content at 136.
  REQUIRE(out.size() == 29 + 4 + 1 + content.size() + 1);
  CHECK(out[29] == content.size());
  CHECK(out[33] == 0);
  CHECK(std::vector<uint8_t>(out.begin() + 34, out.end() - 1) == content);
}

TEST_CASE("v5 writer bytes: an uncompressed blob pads to a 4-byte file offset", "[v5writer]") {
  NetTraceV5Writer w = WriterAtFirstBlock();
  EventRecord e;
  e.metadataId = 1, e.sequenceNumber = 3, e.timestamp = 9;
  const std::vector<uint8_t> payload = Bytes({1, 2});
  e.payload = payload;
  REQUIRE(w.WriteEventBlock(std::span(&e, 1), false, /*extraHeaderBytes=*/1).ok());
  const std::vector<uint8_t>& b = w.bytes();
  // Content at file offset 132 (byte 30 here); a 21-byte header puts the blob at 153.
  // Its end 153 + 4 + 76 + 2 = 235 needs 1 byte of padding: EventSize = 76 + 2 + 1.
  REQUIRE(b.size() == 30 + 21 + 80 + 2 + 1 + 1);
  CHECK(std::vector<uint8_t>(b.begin() + 26, b.begin() + 32) == Bytes({104, 0, 0, 0, 21, 0}));
  CHECK(std::vector<uint8_t>(b.begin() + 51, b.begin() + 59) == Bytes({79, 0, 0, 0, 1, 0, 0, 0x80}));
  CHECK(b[b.size() - 2] == 0);  // the padding
  CHECK(b.back() == 6);
}

TEST_CASE("v5 writer bytes: metadata payloads, V1 with OpCode and V2Params", "[v5writer]") {
  EventMetadata m;
  m.id = 1, m.providerName = "P", m.eventId = 2, m.eventName = "E", m.keywords = 3, m.version = 4, m.level = 5;
  m.fields = {Field("x", Scalar(TypeCode::kInt32))};
  m.opcode = 7;
  std::vector<uint8_t> out;
  REQUIRE(write_internal::EncodeV5MetadataPayload(m, true, out).ok());
  // §Metadata event encoding: id, provider, event id, name, keywords, version, level, V1
  // list (count, TypeCode 9, name), then the OpCode tag (payload bytes 1, kind 1, 7).
  const std::vector<uint8_t> head = Bytes({1, 0, 0, 0, 'P', 0, 0, 0, 2, 0, 0, 0, 'E', 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0,
                                           4, 0, 0, 0, 5, 0, 0, 0});
  std::vector<uint8_t> want = head;
  const std::vector<uint8_t> v1 = Bytes({1, 0, 0, 0, 9, 0, 0, 0, 'x', 0, 0, 0, 1, 0, 0, 0, 1, 7});
  want.insert(want.end(), v1.begin(), v1.end());
  CHECK(out == want);

  m.opcode.reset();
  m.fieldsFromV2Params = true;
  m.fields = {Field("a", ArrayOf(Scalar(TypeCode::kInt32)))};
  out.clear();
  REQUIRE(write_internal::EncodeV5MetadataPayload(m, true, out).ok());
  // An empty V1 list; the V2Params tag (20 payload bytes, kind 2): count 1, then FieldSize
  // 16 (counting itself), "a", TypeCode 19 (Array), element TypeCode 9 (format-pitfalls.md §8).
  want = head;
  const std::vector<uint8_t> v2 = Bytes({0, 0, 0, 0, 20, 0, 0, 0, 2, 1, 0, 0, 0, 16, 0, 0, 0, 'a', 0, 0, 0, 19, 0, 0, 0,
                                         9, 0, 0, 0});
  want.insert(want.end(), v2.begin(), v2.end());
  CHECK(out == want);
  out.clear();
  CHECK(write_internal::EncodeV5MetadataPayload(m, false, out).code() == ErrorCode::kInvalidArgument);  // v4
}

TEST_CASE("v5 writer: refusals leave the output unchanged", "[v5writer]") {
  using E = ErrorCode;
  NetTraceV5Writer fresh;
  RequireRefused(fresh, E::kInvalidArgument, [](auto& w) { return w.WriteEndOfStream(); });  // before Trace
  RequireRefused(fresh, E::kInvalidArgument, [](auto& w) { return w.WriteTraceObject(BasicTraceInfo(3)); });
  TraceInfo withKeys = BasicTraceInfo();
  withKeys.keyValues = {{"k", "v"}};
  RequireRefused(fresh, E::kInvalidArgument, [&](auto& w) { return w.WriteTraceObject(withKeys); });
  TraceInfo netPerf = BasicTraceInfo();
  netPerf.traceObjectVersion = 3;
  RequireRefused(fresh, E::kInvalidArgument, [&](auto& w) { return w.WriteTraceObject(netPerf); });

  NetTraceV5Writer w = WriterAtFirstBlock(Version::kV5, 4);
  RequireRefused(w, E::kInvalidArgument, [](auto& x) { return x.WriteTraceObject(BasicTraceInfo()); });
  auto refuseMetadata = [&](NetTraceV5Writer& x, EventMetadata bad) {
    EventMetadata good;
    good.id = 1;
    const EventMetadata rows[] = {good, bad};  // the good first row is rolled back too
    RequireRefused(x, E::kInvalidArgument, [&](auto& y) { return y.WriteMetadataBlock(rows); });
  };
  EventMetadata m;
  m.id = 2;
  auto with = [&](auto change) {
    EventMetadata c = m;
    change(c);
    return c;
  };
  refuseMetadata(w, with([](auto& c) { c.id = 0x80000000u; }));
  refuseMetadata(w, with([](auto& c) { c.messageTemplate = "t"; }));
  refuseMetadata(w, with([](auto& c) { c.description = "d"; }));
  refuseMetadata(w, with([](auto& c) { c.attributes = {{"k", "v"}}; }));
  refuseMetadata(w, with([](auto& c) { c.providerGuid = Guid{}; }));
  refuseMetadata(w, with([](auto& c) { c.eventName = std::string("a\0b", 3); }));
  refuseMetadata(w, with([](auto& c) { c.providerName = "bad \xFF utf-8"; }));
  refuseMetadata(w, with([](auto& c) { c.fields = {Field("a", ArrayOf(Scalar(TypeCode::kInt32)))}; }));  // V1
  const FieldType nulName = ObjectOf({Field(std::string("x\0", 2), Scalar(TypeCode::kByte))});
  refuseMetadata(w, with([&](auto& c) { c.fields = {Field("o", nulName)}; }));
  FieldType scalarWithFields = Scalar(TypeCode::kInt32);
  scalarWithFields.fields = {Field("f", Scalar(TypeCode::kByte))};
  FieldType fixedCount = Scalar(TypeCode::kInt32);
  fixedCount.fixedLength = 2;
  FieldType deepArray = Scalar(TypeCode::kByte);
  for (int i = 0; i < 40; ++i) deepArray = ArrayOf(deepArray);
  for (bool v2 : {false, true}) {
    for (const FieldType& t : {scalarWithFields, fixedCount}) {
      refuseMetadata(w, with([&](auto& c) {
        c.fieldsFromV2Params = v2;
        c.fields = {Field("t", t)};
      }));
    }
  }
  // V2Params: an Array needs its element type; v6's containers have no encoding.
  for (const FieldType& t : {Scalar(TypeCode::kArray), FixedArrayOf(Scalar(TypeCode::kByte), 2),
                             RelLocOf(Scalar(TypeCode::kInt32)), DataLocOf(Scalar(TypeCode::kInt32)), deepArray}) {
    refuseMetadata(w, with([&](auto& c) {
      c.fieldsFromV2Params = true;
      c.fields = {Field("t", t)};
    }));
  }
  NetTraceV5Writer v4 = WriterAtFirstBlock(Version::kV4);
  refuseMetadata(v4, with([](auto& c) { c.opcode = 1; }));
  refuseMetadata(v4, with([](auto& c) { c.fieldsFromV2Params = true; }));

  EventRecord ok, labelled, bigId;
  ok.metadataId = 1;
  labelled = ok, labelled.labelListId = 1;
  bigId = ok, bigId.metadataId = 0x80000000u;
  for (const EventRecord& bad : {labelled, bigId}) {
    const EventRecord events[] = {ok, ok, bad};
    RequireRefused(w, E::kInvalidArgument, [&](auto& x) { return x.WriteEventBlock(events, true); });
    RequireRefused(w, E::kInvalidArgument, [&](auto& x) { return x.WriteEvents(events, false, 100); });
  }
  const EventRecord two[] = {ok, ok};
  RequireRefused(w, E::kInvalidArgument, [](auto& x) { return x.WriteEventBlock({}, true); });
  RequireRefused(w, E::kInvalidArgument, [&](auto& x) { return x.WriteEventBlock(two, true, 65516); });
  // A block must hold its 20-byte header and at least one blob (80 bytes uncompressed).
  RequireRefused(w, E::kLimitExceeded, [&](auto& x) { return x.WriteEvents(two, false, 99); });
  const std::vector<std::vector<uint8_t>> partial = {Bytes({1, 2, 3, 4}), Bytes({1, 2, 3, 4, 5, 6})};
  RequireRefused(w, E::kInvalidArgument, [&](auto& x) { return x.WriteStackBlock(1, partial); });
  const std::vector<std::vector<uint8_t>> two32 = {partial[0], partial[0]};
  RequireRefused(w, E::kInvalidArgument, [&](auto& x) { return x.WriteStackBlock(0xFFFFFFFF, two32); });
  RequireRefused(w, E::kInvalidArgument, [](auto& x) { return x.WriteSequencePointBlock({1, 1, {}}); });
  REQUIRE(w.WriteEndOfStream().ok());
  RequireRefused(w, E::kInvalidArgument, [](auto& x) { return x.WriteSequencePointBlock({}); });
  RequireRefused(w, E::kInvalidArgument, [](auto& x) { return x.WriteEndOfStream(); });
}

TEST_CASE("v5 writer: Object fields nest to the reader's limit and no deeper", "[v5writer]") {
  auto nested = [](int objects) {
    FieldType t = Scalar(TypeCode::kInt32);
    for (int i = 0; i < objects; ++i) t = ObjectOf({Field("o", t)});
    return t;
  };
  for (bool v2 : {false, true}) {
    ExpectingV5Writer w;
    w.Trace(BasicTraceInfo());
    // Field lists at depths 0 to 32 (metadata_payload.cc kMaxDepth): 32 nested Objects.
    EventMetadata deepest;
    deepest.id = 1, deepest.fieldsFromV2Params = v2, deepest.fields = {Field("top", nested(32))};
    w.Metadata({deepest});
    EventMetadata tooDeep = deepest;
    tooDeep.fields = {Field("top", nested(33))};
    RequireRefused(w.writer(), ErrorCode::kInvalidArgument,
                   [&](auto& x) { return x.WriteMetadataBlock({&tooDeep, 1}); });
    w.End();
    RequireRoundTrip(w, {7, 0});
  }
}

TEST_CASE("v5 writer: TakeBytes streams the same bytes (padding follows the stream offset)", "[v5writer]") {
  EventRecord e;
  e.metadataId = 1, e.timestamp = 5;
  const std::vector<uint8_t> payload = Bytes({1, 2, 3});
  e.payload = payload;
  EventMetadata m;
  m.id = 1, m.eventName = "odd";  // an odd-length record moves every later offset
  auto writeAll = [&](NetTraceV5Writer& w, std::vector<uint8_t>* streamed) {
    auto take = [&] {
      if (streamed) {
        std::vector<uint8_t> b = w.TakeBytes();
        streamed->insert(streamed->end(), b.begin(), b.end());
      }
    };
    REQUIRE(w.WriteTraceObject(BasicTraceInfo()).ok());
    take();
    for (int i = 0; i < 3; ++i) {
      REQUIRE(w.WriteMetadataBlock({&m, 1}, false, static_cast<uint16_t>(i)).ok());
      take();
      REQUIRE(w.WriteEventBlock({&e, 1}, false, static_cast<uint16_t>(i)).ok());
      take();
      REQUIRE(w.WriteStackBlock(1, {}).ok());
      take();
    }
    REQUIRE(w.WriteEndOfStream().ok());
    take();
  };
  NetTraceV5Writer whole, streaming;
  std::vector<uint8_t> streamed = streaming.TakeBytes();
  writeAll(whole, nullptr);
  writeAll(streaming, &streamed);
  CHECK(streamed == whole.bytes());
  CHECK(streaming.bytesWritten() == whole.bytes().size());
  const ReadResult r = ReadInChunks(streamed, 0);
  INFO(r.status.ToString());
  CHECK(r.status.ok());
  CHECK(r.recording.events.size() == 3);
}

TEST_CASE("v5 writer: raw objects, unknown type names stop the reader", "[v5writer]") {
  NetTraceV5Writer w;
  REQUIRE(w.WriteTraceObject(BasicTraceInfo()).ok());
  REQUIRE(w.WriteRawObject("StackBlock", Bytes({5, 0, 0, 0, 1, 0, 0, 0, 8, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8})).ok());
  const uint64_t fancyAt = w.bytesWritten();
  REQUIRE(w.WriteRawObject("Fancy", Bytes({1, 2, 3}), 7, 7).ok());
  REQUIRE(w.WriteEndOfStream().ok());
  const ReadResult r = ReadInChunks(w.bytes(), 0);
  REQUIRE(r.recording.stacks.size() == 1);
  CHECK(r.recording.stacks[0].first == 5);
  CHECK(r.status.code() == ErrorCode::kCorrupt);
  CHECK(r.status.offset() == fancyAt);
  CHECK(r.status.message().find("'Fancy'") != std::string::npos);
}

}  // namespace
}  // namespace nettrace::testing
