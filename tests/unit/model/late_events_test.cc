// Late events: an IsSorted mark promises that no later event in the file is earlier, and
// writers break that promise (by bug, or by the polarity mix-up format-pitfalls.md §5
// describes). The store must still hold every event in exactly the stable (timestamp,
// file order) order, at any scale, at an amortised constant cost per late event.
//
// The fuzzer found the store corrupting itself here (a ChunkedVector write into a stale
// chunk after pop_back at a 4096-element boundary) and late inserts costing O(n) each, so
// these tests cross several chunk boundaries with late events and check the whole order.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "base/chunked_vector.h"
#include "format/tee_sink.h"
#include "format/trace_reader.h"
#include "model/store_builder.h"
#include "unit/model/resolved_store.h"
#include "test_support.h"
#include "unit/model/lying_traces.h"

using namespace nettrace;

namespace {

// Every event in file order: (timestamp, file ordinal), and how many claim IsSorted.
struct FileOrder : RecordSink {
  std::vector<std::pair<uint64_t, uint32_t>> events;
  uint64_t markedSorted = 0;
  Status OnEvent(const EventRecord& e) override {
    events.emplace_back(e.timestamp, static_cast<uint32_t>(events.size()));
    markedSorted += e.isSorted;
    return Status::Ok();
  }
};

struct StoreRead {
  Stats stats;
  FileOrder file;
  size_t storeRows = 0;
  size_t lateMerges = 0;
  bool inStableOrder = false;
  std::string firstDifference;
};

// Reads `bytes` in chunks of chunkSize into a StoreBuilder and compares its rows with a
// stable sort of the file's events by timestamp (ties: file order).
StoreRead ReadAndCompare(const std::vector<uint8_t>& bytes, size_t chunkSize) {
  StoreRead r;
  test::ResolvedStore resolved(&r.stats);
  StoreBuilder& builder = resolved.builder;
  TeeSink tee(&resolved.resolver, &r.file);
  TraceReader reader(&tee, &r.stats);
  for (size_t at = 0; at < bytes.size(); at += chunkSize) {
    const size_t n = std::min(chunkSize, bytes.size() - at);
    REQUIRE(reader.Push(bytes.data() + at, n).ok());
  }
  REQUIRE(reader.Finish().ok());
  builder.Flush();
  auto expected = r.file.events;
  std::stable_sort(expected.begin(), expected.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  const EventStore& store = builder.store();
  r.storeRows = store.size();
  r.lateMerges = store.lateMerges();
  r.inStableOrder = store.size() == expected.size() && store.pendingLate() == 0;
  EventStore::RowCursor cursor(store);  // a scan reads the same (spilled ordinals, many pages)
  for (size_t row = 0; r.inStableOrder && row < store.size(); ++row) {
    if (store.timestamp(row) != expected[row].first || store.ordinal(row) != expected[row].second ||
        cursor.timestamp(row) != expected[row].first || cursor.ordinal(row) != expected[row].second) {
      r.inStableOrder = false;
      r.firstDifference = "row " + std::to_string(row) + ": ts " + std::to_string(store.timestamp(row)) + " ordinal " +
                          std::to_string(store.ordinal(row)) + ", expected ts " + std::to_string(expected[row].first) +
                          " ordinal " + std::to_string(expected[row].second);
    }
  }
  return r;
}

std::vector<uint8_t> Regression(const std::string& name) {
  return test::ReadFile(test::RegressionPath(name));
}

}  // namespace

TEST_CASE("ChunkedVector: push_back after pop_back across a chunk boundary writes where operator[] reads",
          "[store][late]") {
  using V = ChunkedVector<uint32_t>;
  V v;
  for (uint32_t i = 0; i < 3 * V::kChunkSize + 10; ++i) v.push_back(i);
  // Back to exactly a chunk boundary, then past two more boundaries again.
  while (v.size() > V::kChunkSize) v.pop_back();
  for (uint32_t i = 0; i < 2 * V::kChunkSize + 5; ++i) v.push_back(1000000 + i);
  REQUIRE(v.size() == 3 * V::kChunkSize + 5);
  for (size_t i = 0; i < V::kChunkSize; ++i) REQUIRE(v[i] == i);
  for (size_t i = V::kChunkSize; i < v.size(); ++i) REQUIRE(v[i] == 1000000 + (i - V::kChunkSize));
  // One element below a boundary, then across it.
  v.pop_back();
  while (v.size() % V::kChunkSize != V::kChunkSize - 1) v.pop_back();
  v.push_back(7), v.push_back(8);
  REQUIRE(v[v.size() - 2] == 7);
  REQUIRE(v.back() == 8);
}

TEST_CASE("fuzz reproducer: lying IsSorted marks in a small v5 trace give the stable time order", "[store][late]") {
  const auto bytes = Regression("late-events-v5-uncompressed.nettrace");
  for (size_t chunk : {size_t{7}, size_t{4096}, bytes.size()}) {
    INFO("chunk " << chunk);
    StoreRead r = ReadAndCompare(bytes, chunk);
    INFO(r.firstDifference);
    CHECK(r.stats.isSortedHintViolations > 0);
    CHECK(r.inStableOrder);
  }
}

TEST_CASE("fuzz reproducer: 21,833 late events cost one merge per 4096 or more, not a shift each", "[store][late]") {
  const auto bytes = Regression("late-events-memory-blowup.nettrace");
  StoreRead r = ReadAndCompare(bytes, 1 << 16);
  INFO(r.firstDifference);
  CHECK(r.inStableOrder);
  REQUIRE(r.stats.isSortedHintViolations > 20000);
  // A merge waits for max(4096, a quarter of the store) late events, except the last one.
  CHECK(r.lateMerges <= r.stats.isSortedHintViolations / 4096 + 1);
}

TEST_CASE("lying IsSorted marks at scale: v4, v5 and v6, compressed and not, across many chunk boundaries",
          "[store][late]") {
  struct Variant {
    std::string name;
    std::vector<uint8_t> bytes;
  };
  std::vector<Variant> variants;
  for (bool compressed : {false, true}) {
    const std::string how = compressed ? " compressed" : " uncompressed";
    variants.push_back({"v4" + how, test::LyingTraceV5(NetTraceV5Writer::Version::kV4, compressed)});
    variants.push_back({"v5" + how, test::LyingTraceV5(NetTraceV5Writer::Version::kV5, compressed)});
    variants.push_back({"v6" + how, test::LyingTraceV6(compressed)});
  }
  for (const Variant& v : variants) {
    INFO(v.name);
    REQUIRE_FALSE(v.bytes.empty());
    for (size_t chunk : {size_t{4096}, v.bytes.size()}) {
      INFO("chunk " << chunk);
      StoreRead r = ReadAndCompare(v.bytes, chunk);
      INFO(r.firstDifference);
      CHECK(r.file.markedSorted > 0);
      CHECK(r.stats.isSortedHintViolations > 3 * ChunkedVector<uint32_t>::kChunkSize);
      CHECK(r.storeRows == test::kLyingTraceEvents);
      CHECK(r.inStableOrder);
    }
  }
}
