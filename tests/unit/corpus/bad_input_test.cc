// Damaged input: every failure is a clear error with an offset, nothing crashes or hangs,
// everything before the fault stays readable, and memory stays bounded.
#include <catch2/catch.hpp>

#include <cstring>

#include "format/record_sink.h"
#include "format/trace_reader.h"
#include "test_support.h"

using namespace nettrace;

namespace {

const char* kSmallTrace = "only_managed_samples.nettrace";

// Offset of the first occurrence of `needle` (an object type name) in the bytes.
size_t Find(const std::vector<uint8_t>& bytes, const std::string& needle) {
  auto it = std::search(bytes.begin(), bytes.end(), needle.begin(), needle.end());
  REQUIRE(it != bytes.end());
  return static_cast<size_t>(it - bytes.begin());
}

}  // namespace

TEST_CASE("truncation at many offsets of every corpus trace", "[bad-input]") {
  for (const auto& name : test::CorpusTraces()) {
    INFO(name);
    auto bytes = test::ReadFile(test::DataPath(name));
    const uint64_t fullEvents = test::RunTrace(bytes, 1 << 20).events;
    // 48 evenly spread cut points plus every offset of the header region.
    std::vector<size_t> cuts;
    for (size_t i = 0; i < 48; ++i) cuts.push_back(bytes.size() * i / 48);
    for (size_t i = 1; i < 140 && i < bytes.size(); ++i) cuts.push_back(i);
    cuts.push_back(bytes.size() - 1);
    uint64_t lastEvents = 0;
    size_t lastCut = 0;
    for (size_t cut : cuts) {
      INFO("cut at " << cut);
      test::RunResult r = test::RunTrace(bytes, 65536, cut);
      REQUIRE_FALSE(r.status.ok());
      CHECK(r.status.code() == ErrorCode::kTruncated);
      CHECK(r.status.offset() <= cut);
      CHECK(r.events <= fullEvents);
      CHECK(r.summary.find("\"code\":\"truncated\"") != std::string::npos);
      if (cut >= lastCut) CHECK(r.events >= lastEvents);  // a longer prefix never loses events
      lastEvents = r.events, lastCut = cut;
    }
  }
}

TEST_CASE("the real truncated trace keeps its events and names where it stops", "[bad-input][corpus]") {
  auto bytes = test::ReadFile(test::DataPath("truncated/dotnet-trace-netcore3.0-preview-truncated.nettrace"));
  REQUIRE(bytes.size() == 4174144);
  test::RunResult r = test::RunTrace(bytes, 1 << 20);
  REQUIRE(r.status.code() == ErrorCode::kTruncated);
  // The last complete object ends there; the next one (an EventBlock) is cut short.
  CHECK(r.status.offset() == 0x3fa3b1);
  CHECK(r.events == 19842);  // every event of every complete block (corpus MANIFEST)
}

TEST_CASE("a corrupted block size is reported at its offset", "[bad-input]") {
  auto bytes = test::ReadFile(test::DataPath(kSmallTrace));
  // BlockSize follows the type name "EventBlock" and its end-of-type tag.
  size_t sizeAt = Find(bytes, "EventBlock") + 10 + 1;
  SECTION("impossibly large") {
    uint32_t huge = 0x7FFFFFF0;
    std::memcpy(bytes.data() + sizeAt, &huge, 4);
    test::RunResult r = test::RunTrace(bytes, 4096);
    REQUIRE(r.status.code() == ErrorCode::kCorrupt);
    CHECK(r.status.offset() == sizeAt);
  }
  SECTION("slightly off: the end-of-object tag is not where the size says") {
    uint32_t size;
    std::memcpy(&size, bytes.data() + sizeAt, 4);
    size += 3;
    std::memcpy(bytes.data() + sizeAt, &size, 4);
    test::RunResult r = test::RunTrace(bytes, 4096);
    REQUIRE_FALSE(r.status.ok());
    CHECK(r.status.code() == ErrorCode::kCorrupt);
    CHECK(r.status.offset() > sizeAt);
    CHECK(r.status.offset() < sizeAt + size + 8);
  }
}

TEST_CASE("oversized length prefixes are refused without allocating", "[bad-input]") {
  auto bytes = test::ReadFile(test::DataPath(kSmallTrace));
  SECTION("object type name length") {
    size_t at = Find(bytes, "MetadataBlock") - 4;  // its int32 length prefix
    uint32_t huge = 0x7FFFFFFF;
    std::memcpy(bytes.data() + at, &huge, 4);
    test::RunResult r = test::RunTrace(bytes, 7);
    REQUIRE(r.status.code() == ErrorCode::kCorrupt);
    CHECK(r.status.offset() == at);
  }
  SECTION("a stack block's count") {
    size_t content = Find(bytes, "StackBlock") + 10 + 1 + 4;
    content += (4 - content % 4) % 4;  // alignment padding to a 4-byte file offset
    uint32_t huge = 0x40000000;
    std::memcpy(bytes.data() + content + 4, &huge, 4);  // Count, after First Id
    test::RunResult r = test::RunTrace(bytes, 4096);
    REQUIRE(r.status.code() == ErrorCode::kCorrupt);
    CHECK(r.status.offset() == content + 4);
    CHECK(r.status.message().find("stacks") != std::string::npos);
  }
}

TEST_CASE("wrong magic and a newer major version are refused clearly", "[bad-input]") {
  std::vector<uint8_t> zip = {'P', 'K', 3, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  test::RunResult r = test::RunTrace(zip, 3);
  CHECK(r.status.code() == ErrorCode::kBadMagic);
  CHECK(r.status.offset() == 0);

  std::vector<uint8_t> v7 = {'N', 'e', 't', 't', 'r', 'a', 'c', 'e', 0, 0, 0, 0, 7, 0, 0, 0, 0, 0, 0, 0};
  r = test::RunTrace(v7, 1);
  CHECK(r.status.code() == ErrorCode::kUnsupportedVersion);
  CHECK(r.status.offset() == 12);
  CHECK(r.status.message().find("major version 7") != std::string::npos);

  std::vector<uint8_t> empty;
  r = test::RunTrace(empty, 1);
  CHECK(r.status.code() == ErrorCode::kTruncated);
}

TEST_CASE("random corruption never crashes, hangs or reads out of bounds", "[bad-input]") {
  auto original = test::ReadFile(test::DataPath(kSmallTrace));
  uint64_t state = 0x9E3779B97F4A7C15ull;
  auto next = [&] {
    state ^= state << 13, state ^= state >> 7, state ^= state << 17;
    return state;
  };
  for (int round = 0; round < 200; ++round) {
    auto bytes = original;
    int flips = 1 + static_cast<int>(next() % 8);
    for (int i = 0; i < flips; ++i) bytes[next() % bytes.size()] = static_cast<uint8_t>(next());
    test::RunResult r = test::RunTrace(bytes, 1 + next() % 70000);
    if (!r.status.ok()) CHECK(r.status.offset() <= bytes.size());
    CHECK(!r.summary.empty());
  }
}

TEST_CASE("memory stays bounded by one block plus a chunk", "[bad-input][memory]") {
  auto bytes = test::ReadFile(test::DataPath("HeartRateMonitor.10068.nettrace"));
  RecordSink sink;
  TraceReader reader(&sink);
  size_t peak = 0;
  const size_t chunk = 256 * 1024;
  for (size_t pos = 0; pos < bytes.size(); pos += chunk) {
    REQUIRE(reader.Push(bytes.data() + pos, std::min(chunk, bytes.size() - pos)).ok());
    peak = std::max(peak, reader.residentBytes());
  }
  REQUIRE(reader.Finish().ok());
  INFO("peak resident " << peak << " bytes for a " << bytes.size() << "-byte trace");
  CHECK(peak < 2 * chunk + 512 * 1024);  // blocks here are ~100 KB
}
