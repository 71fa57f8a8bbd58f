#include <catch2/catch.hpp>

#include "io/chunk_queue.h"

using nettrace::ChunkQueue;

TEST_CASE("chunk queue gives contiguous views across chunk boundaries", "[io]") {
  ChunkQueue q;
  std::vector<uint8_t> data(1000);
  for (size_t i = 0; i < data.size(); ++i) data[i] = static_cast<uint8_t>(i * 7);
  std::span<const uint8_t> view;
  // Uneven chunks, then read in uneven pieces: every view must equal the source bytes.
  size_t fed = 0;
  const size_t pieces[] = {1, 3, 100, 7, 400, 489};
  for (size_t p : pieces) {
    q.Append(data.data() + fed, p);
    fed += p;
  }
  REQUIRE(q.received() == 1000);
  size_t pos = 0;
  const size_t reads[] = {2, 50, 300, 1, 600, 47};
  for (size_t r : reads) {
    REQUIRE(q.Peek(r, &view));
    REQUIRE(view.size() == r);
    CHECK(std::equal(view.begin(), view.end(), data.begin() + pos));
    q.Consume(r);
    pos += r;
    CHECK(q.position() == pos);
  }
  CHECK(q.available() == 0);
  CHECK_FALSE(q.Peek(1, &view));
}

TEST_CASE("chunk queue says 'not yet' and frees what was consumed", "[io]") {
  ChunkQueue q;
  std::vector<uint8_t> big(1 << 20, 0xAB);
  q.Append(big.data(), big.size());
  std::span<const uint8_t> view;
  CHECK_FALSE(q.Peek(big.size() + 1, &view));
  q.Consume(big.size());
  q.Append(big.data(), 10);
  CHECK(q.residentBytes() < 200 * 1024);  // the consumed megabyte is gone
}
