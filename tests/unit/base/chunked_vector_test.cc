// ChunkedVector (base/chunked_vector.h): elements keep their places across chunks, and
// LowerBound gives std::lower_bound's answer on an ascending column of any length (empty, one
// element, a chunk exactly, chunks and a part), for keys before, between, on and after its
// elements: the symbol collector finds each event's allocated bytes, thread pool work id and
// sample kind with it.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <vector>

#include "base/chunked_vector.h"

using namespace nettrace;

TEST_CASE("ChunkedVector keeps its elements and finds keys as std::lower_bound does", "[base]") {
  constexpr size_t kChunk = ChunkedVector<uint32_t>::kChunkSize;
  for (size_t n : {size_t{0}, size_t{1}, size_t{2}, kChunk - 1, kChunk, kChunk + 1, 3 * kChunk + 17}) {
    ChunkedVector<uint32_t> column;
    std::vector<uint32_t> model;
    for (size_t i = 0; i < n; ++i) {
      const uint32_t v = static_cast<uint32_t>(10 + 3 * i);  // ascending with gaps
      column.push_back(v);
      model.push_back(v);
    }
    REQUIRE(column.size() == n);
    for (size_t i = 0; i < n; ++i) REQUIRE(column[i] == model[i]);
    for (uint32_t key = 0; key < 10 + 3 * n + 5; ++key) {
      const size_t expected = static_cast<size_t>(std::lower_bound(model.begin(), model.end(), key) - model.begin());
      REQUIRE(column.LowerBound(key, std::less<uint32_t>()) == expected);
    }
  }
}

TEST_CASE("ChunkedVector::LowerBound compares through the caller's projection", "[base]") {
  struct OrdinalValue {
    uint32_t ordinal;
    uint64_t value;
  };
  ChunkedVector<OrdinalValue> column;
  for (uint32_t o = 0; o < 5000; o += 2) column.push_back({o, uint64_t{o} * 1000});
  const auto before = [](const OrdinalValue& v, uint32_t o) { return v.ordinal < o; };
  const size_t at = column.LowerBound(uint32_t{4096}, before);
  REQUIRE(at < column.size());
  CHECK(column[at].ordinal == 4096);
  CHECK(column[at].value == 4096000);
  CHECK(column[column.LowerBound(uint32_t{4097}, before)].ordinal == 4098);  // absent: the next one
  CHECK(column.LowerBound(uint32_t{5000}, before) == column.size());        // past the last
}
