// v6 bad input: streams that break a rule of NetTraceFormat.md, built with the writer
// (and by hand where the writer refuses to produce the fault), must fail with a clear
// error that names an offset inside the input: never a crash, a hang or silent success.
#include <catch2/catch.hpp>

#include "unit/v6/v6_test_support.h"
#include "write/field_types.h"
#include "write/payload_builder.h"

namespace nettrace::testing {
namespace {

EventMetadata Meta(uint32_t id, std::string name) {
  EventMetadata m;
  m.id = id, m.providerName = "P", m.eventName = std::move(name);
  return m;
}

ThreadInfo Thread(uint64_t index, uint64_t osThreadId) {
  ThreadInfo t;
  t.index = index, t.osThreadId = osThreadId;
  return t;
}

RecordedEvent Ev(uint32_t meta, uint32_t seq, uint64_t thread, uint64_t ts) {
  RecordedEvent e;
  e.metadataId = meta, e.sequenceNumber = seq, e.thread = e.captureThread = thread, e.timestamp = ts;
  return e;
}

// Trace block, metadata 1, threads 1 and 2.
NetTraceV6Writer Start() {
  NetTraceV6Writer w;
  REQUIRE(w.WriteTraceBlock(BasicTraceInfo()).ok());
  const EventMetadata m = Meta(1, "E");
  REQUIRE(w.WriteMetadataBlock(std::span(&m, 1)).ok());
  const std::vector<ThreadInfo> threads = {Thread(1, 11), Thread(2, 12)};
  REQUIRE(w.WriteThreadBlock(threads).ok());
  return w;
}

void WriteEvent(NetTraceV6Writer& w, const RecordedEvent& e, bool compressed = true) {
  const EventRecord r = e.ToRecord();
  REQUIRE(w.WriteEventBlock(std::span(&r, 1), compressed).ok());
}

// Reads whole and in 7-byte chunks; both must fail the same way, at an offset inside
// the input. Returns the whole-input error.
Status ReadFailure(const std::vector<uint8_t>& bytes) {
  const ReadResult whole = ReadInChunks(bytes, 0);
  const ReadResult chunked = ReadInChunks(bytes, 7);
  INFO(whole.status.ToString());
  REQUIRE(!whole.status.ok());
  CHECK(whole.status.code() == chunked.status.code());
  CHECK(whole.status.offset() == chunked.status.offset());
  CHECK(whole.status.offset() <= bytes.size());
  CHECK(!whole.status.message().empty());
  return whole.status;
}

void RequireFailure(const std::vector<uint8_t>& bytes) { (void)ReadFailure(bytes); }

void RequireSuccess(const std::vector<uint8_t>& bytes) {
  const ReadResult r = ReadInChunks(bytes, 0);
  INFO(r.status.ToString());
  REQUIRE(r.status.ok());
}

TEST_CASE("v6 bad input: a newer major version is refused and named", "[v6]") {
  NetTraceV6Writer w(7, 0);
  REQUIRE(w.WriteTraceBlock(BasicTraceInfo()).ok());
  REQUIRE(w.WriteEndOfStream().ok());
  const Status s = ReadFailure(w.bytes());
  CHECK(s.code() == ErrorCode::kUnsupportedVersion);
  CHECK_THAT(s.message(), Catch::Contains("7"));
}

TEST_CASE("v6 bad input: truncation at every offset", "[v6]") {
  NetTraceV6Writer w = Start();
  const std::vector<std::vector<uint8_t>> stacks = {Bytes({1, 0, 0, 0, 0, 0, 0, 0})};
  REQUIRE(w.WriteStackBlock(1, stacks).ok());
  Label l;
  l.kind = LabelKind::kStringKeyValue, l.key = "k", l.value = "v";
  const std::vector<LabelList> lists = {LabelList{{l}}};
  REQUIRE(w.WriteLabelListBlock(1, lists).ok());
  RecordedEvent e = Ev(1, 1, 1, 10);
  e.stackId = 1, e.labelListId = 1, e.payload = Bytes({1, 2, 3});
  WriteEvent(w, e, true);
  WriteEvent(w, e, false);
  REQUIRE(w.WriteSequencePointBlock({20, 0, {{1, 1}}}).ok());
  REQUIRE(w.WriteEndOfStream().ok());
  const std::vector<uint8_t> full = w.bytes();
  RequireSuccess(full);
  for (size_t n = 0; n < full.size(); ++n) {
    INFO("truncated to " << n << " of " << full.size() << " bytes");
    const Status s = ReadFailure(std::vector<uint8_t>(full.begin(), full.begin() + static_cast<ptrdiff_t>(n)));
    CHECK(s.code() == ErrorCode::kTruncated);
    CHECK(s.offset() <= n);
  }
}

TEST_CASE("v6 bad input: a block larger than the data left", "[v6]") {
  NetTraceV6Writer w = Start();
  std::vector<uint8_t> bytes = w.bytes();
  const uint64_t blockAt = bytes.size();
  // §Blocks header: 1000 bytes of kind Thread, followed by only 10.
  for (int v : {0xE8, 0x03, 0x00, 0x06, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10}) bytes.push_back(static_cast<uint8_t>(v));
  const Status s = ReadFailure(bytes);
  CHECK(s.code() == ErrorCode::kTruncated);
  CHECK(s.offset() == blockAt);
}

TEST_CASE("v6 bad input: missing end-of-stream block", "[v6]") {
  NetTraceV6Writer w = Start();
  WriteEvent(w, Ev(1, 1, 1, 10));
  RecordingSink sink;
  TraceReader reader(&sink);
  REQUIRE(reader.Push(w.bytes().data(), w.bytes().size()).ok());  // every block is fine...
  const Status s = reader.Finish();                               // ...but the end never came
  CHECK(s.code() == ErrorCode::kTruncated);
  CHECK(s.offset() == w.bytes().size());
  CHECK(sink.recording().events.size() == 1);
}

TEST_CASE("v6 bad input: metadata ids are redefined only after a metadata flush", "[v6]") {
  const EventMetadata again = Meta(1, "Again");
  SECTION("no sequence point") {
    NetTraceV6Writer w = Start();
    REQUIRE(w.WriteMetadataBlock(std::span(&again, 1)).ok());
    REQUIRE(w.WriteEndOfStream().ok());
    RequireFailure(w.bytes());
  }
  SECTION("a sequence point that flushes only threads") {
    NetTraceV6Writer w = Start();
    REQUIRE(w.WriteSequencePointBlock({5, kSequencePointFlushThreads, {}}).ok());
    REQUIRE(w.WriteMetadataBlock(std::span(&again, 1)).ok());
    REQUIRE(w.WriteEndOfStream().ok());
    RequireFailure(w.bytes());
  }
  SECTION("flag 2 flushes metadata: ok") {
    NetTraceV6Writer w = Start();
    REQUIRE(w.WriteSequencePointBlock({5, kSequencePointFlushMetadata, {}}).ok());
    REQUIRE(w.WriteMetadataBlock(std::span(&again, 1)).ok());
    WriteEvent(w, Ev(1, 1, 1, 10));
    REQUIRE(w.WriteEndOfStream().ok());
    RequireSuccess(w.bytes());
  }
  SECTION("after a metadata flush the old ids are gone") {
    NetTraceV6Writer w = Start();
    REQUIRE(w.WriteSequencePointBlock({5, kSequencePointFlushMetadata, {}}).ok());
    WriteEvent(w, Ev(1, 1, 1, 10));
    REQUIRE(w.WriteEndOfStream().ok());
    CHECK(ReadFailure(w.bytes()).code() == ErrorCode::kBadReference);
  }
}

TEST_CASE("v6 bad input: thread index references", "[v6]") {
  SECTION("an event on an undefined thread index") {
    NetTraceV6Writer w = Start();
    WriteEvent(w, Ev(1, 1, 3, 10), false);
    REQUIRE(w.WriteEndOfStream().ok());
    CHECK(ReadFailure(w.bytes()).code() == ErrorCode::kBadReference);
  }
  SECTION("an event whose capture thread is undefined") {
    NetTraceV6Writer w = Start();
    RecordedEvent e = Ev(1, 1, 1, 10);
    e.captureThread = 5;
    WriteEvent(w, e, true);
    REQUIRE(w.WriteEndOfStream().ok());
    CHECK(ReadFailure(w.bytes()).code() == ErrorCode::kBadReference);
  }
  SECTION("an event on a removed thread") {
    NetTraceV6Writer w = Start();
    const std::vector<ThreadSequence> removed = {{2, 0}};
    REQUIRE(w.WriteRemoveThreadBlock(removed).ok());
    WriteEvent(w, Ev(1, 1, 2, 10));
    REQUIRE(w.WriteEndOfStream().ok());
    CHECK(ReadFailure(w.bytes()).code() == ErrorCode::kBadReference);
  }
  SECTION("an event after a thread flush") {
    NetTraceV6Writer w = Start();
    REQUIRE(w.WriteSequencePointBlock({5, kSequencePointFlushThreads, {}}).ok());
    WriteEvent(w, Ev(1, 1, 1, 10));
    REQUIRE(w.WriteEndOfStream().ok());
    CHECK(ReadFailure(w.bytes()).code() == ErrorCode::kBadReference);
  }
  SECTION("RemoveThread of an index never defined") {
    NetTraceV6Writer w = Start();
    const std::vector<ThreadSequence> removed = {{9, 0}};
    REQUIRE(w.WriteRemoveThreadBlock(removed).ok());
    REQUIRE(w.WriteEndOfStream().ok());
    RequireFailure(w.bytes());
  }
  SECTION("removing the same index twice") {
    NetTraceV6Writer w = Start();
    const std::vector<ThreadSequence> removed = {{2, 0}};
    REQUIRE(w.WriteRemoveThreadBlock(removed).ok());
    REQUIRE(w.WriteRemoveThreadBlock(removed).ok());
    REQUIRE(w.WriteEndOfStream().ok());
    RequireFailure(w.bytes());
  }
}

TEST_CASE("v6 bad input: thread indexes are redefined only once free", "[v6]") {
  const ThreadInfo again = Thread(1, 15);
  SECTION("a live index") {
    NetTraceV6Writer w = Start();
    REQUIRE(w.WriteThreadBlock(std::span(&again, 1)).ok());
    REQUIRE(w.WriteEndOfStream().ok());
    RequireFailure(w.bytes());
  }
  SECTION("after a sequence point without the thread flush flag") {
    NetTraceV6Writer w = Start();
    REQUIRE(w.WriteSequencePointBlock({5, kSequencePointFlushMetadata, {{1, 0}}}).ok());
    REQUIRE(w.WriteThreadBlock(std::span(&again, 1)).ok());
    REQUIRE(w.WriteEndOfStream().ok());
    RequireFailure(w.bytes());
  }
  SECTION("flag 1 flushes threads: ok") {
    NetTraceV6Writer w = Start();
    REQUIRE(w.WriteSequencePointBlock({5, kSequencePointFlushThreads, {{1, 0}}}).ok());
    REQUIRE(w.WriteThreadBlock(std::span(&again, 1)).ok());
    WriteEvent(w, Ev(1, 1, 1, 10));
    REQUIRE(w.WriteEndOfStream().ok());
    RequireSuccess(w.bytes());
  }
  SECTION("after RemoveThread: ok") {
    NetTraceV6Writer w = Start();
    const std::vector<ThreadSequence> removed = {{1, 0}};
    REQUIRE(w.WriteRemoveThreadBlock(removed).ok());
    REQUIRE(w.WriteThreadBlock(std::span(&again, 1)).ok());
    REQUIRE(w.WriteEndOfStream().ok());
    RequireSuccess(w.bytes());
  }
}

// A metadata block made by hand, because the writer refuses variable-size RelLoc/DataLoc
// elements: HeaderSize 0, one row "E" with a single field "r" of `type` bytes.
std::vector<uint8_t> MetadataBlockWithFieldType(std::initializer_list<int> type) {
  PayloadBuilder field;
  field.AppendString("r");
  for (int b : type) field.AppendU8(static_cast<uint8_t>(b));
  PayloadBuilder row;
  row.AppendVarUInt(1).AppendString("P").AppendVarUInt(0).AppendString("E").AppendU16(1);
  row.AppendU16(static_cast<uint16_t>(field.size())).AppendBytes(field.span()).AppendU16(0);
  PayloadBuilder block;
  block.AppendU16(0).AppendU16(static_cast<uint16_t>(row.size())).AppendBytes(row.span());
  return block.Take();
}

TEST_CASE("v6 bad input: RelLoc or DataLoc of a variable-size element", "[v6]") {
  struct Case {
    const char* name;
    std::initializer_list<int> type;
    bool ok;
  };
  const Case cases[] = {
      {"RelLoc<Array<UTF16CodeUnit>>", {24, 19, 4}, false},
      {"DataLoc<NullTerminatedUTF16String>", {25, 18}, false},
      {"RelLoc<VarInt>", {24, 20}, false},
      {"DataLoc<Object{Array<Byte>}>", {25, 1, 1, 0, 4, 0, 1, 'a', 19, 6}, false},
      {"RelLoc<FixedLengthArray<Int32, 2>> (fixed: accepted)", {24, 22, 9, 2, 0}, true},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    NetTraceV6Writer w;
    REQUIRE(w.WriteTraceBlock(BasicTraceInfo()).ok());
    const uint64_t blockAt = w.bytesWritten();
    REQUIRE(w.WriteRawBlock(static_cast<uint8_t>(BlockKind::kMetadata), MetadataBlockWithFieldType(c.type)).ok());
    REQUIRE(w.WriteEndOfStream().ok());
    if (c.ok) {
      RequireSuccess(w.bytes());
    } else {
      const Status s = ReadFailure(w.bytes());
      CHECK(s.code() == ErrorCode::kCorrupt);
      CHECK(s.offset() > blockAt);  // inside the metadata block
      CHECK(s.offset() < w.bytes().size() - 4);
    }
  }
}

TEST_CASE("v6 bad input: oversized string length prefixes", "[v6]") {
  SECTION("a thread name longer than its row") {
    NetTraceV6Writer w = Start();
    // Row: size 5, index 3, kind Name, length varuint 1000 (0xE8 0x07), then 1 byte.
    const std::vector<uint8_t> content = Bytes({5, 0, 3, 1, 0xE8, 0x07, 'x'});
    const uint64_t lengthAt = w.bytesWritten() + 4 + 2 + 1 + 1;
    REQUIRE(w.WriteRawBlock(static_cast<uint8_t>(BlockKind::kThread), content).ok());
    REQUIRE(w.WriteEndOfStream().ok());
    const Status s = ReadFailure(w.bytes());
    CHECK(s.code() == ErrorCode::kCorrupt);
    CHECK(s.offset() == lengthAt);
  }
  SECTION("a provider name of 2^32-1 bytes") {
    NetTraceV6Writer w;
    REQUIRE(w.WriteTraceBlock(BasicTraceInfo()).ok());
    const std::vector<uint8_t> content = Bytes({0, 0, 7, 0, 1, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F, 'P'});
    const uint64_t lengthAt = w.bytesWritten() + 4 + 2 + 2 + 1;
    REQUIRE(w.WriteRawBlock(static_cast<uint8_t>(BlockKind::kMetadata), content).ok());
    REQUIRE(w.WriteEndOfStream().ok());
    const Status s = ReadFailure(w.bytes());
    CHECK(s.code() == ErrorCode::kCorrupt);
    CHECK(s.offset() == lengthAt);
  }
  SECTION("a trace key/value string past the trace block") {
    NetTraceV6Writer w(6, 0);
    PayloadBuilder trace;
    trace.AppendDateTime({2025, 1, 1, 1, 1, 1, 1, 1}).AppendI64(0).AppendI64(1000).AppendI32(8).AppendI32(1);
    trace.AppendVarUInt(200).AppendBytes(Bytes({'k'}));
    const uint64_t lengthAt = w.bytesWritten() + 4 + 40;
    REQUIRE(w.WriteRawBlock(static_cast<uint8_t>(BlockKind::kTrace), trace.span()).ok());
    const Status s = ReadFailure(w.bytes());
    CHECK(s.code() == ErrorCode::kCorrupt);
    CHECK(s.offset() == lengthAt);
  }
}

}  // namespace
}  // namespace nettrace::testing
