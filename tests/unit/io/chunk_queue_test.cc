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

TEST_CASE("chunk queue parses lent bytes in place and copies only what a push leaves unread", "[io]") {
  ChunkQueue q;
  std::vector<uint8_t> data(300000);
  for (size_t i = 0; i < data.size(); ++i) data[i] = static_cast<uint8_t>(i * 13 + 1);
  std::span<const uint8_t> view;
  // Push 1: 100,000 bytes, of which the reader consumes two 40,000-byte blocks in place.
  q.Lend(data.data(), 100000);
  for (int block = 0; block < 2; ++block) {
    REQUIRE(q.Peek(40000, &view));
    CHECK(view.data() == data.data() + 40000 * block);  // a view into the caller's bytes
    q.Consume(40000);
  }
  CHECK_FALSE(q.Peek(40000, &view));  // 20,000 left: not yet
  q.KeepUnread();
  CHECK(q.bytesCopied() == 20000);
  // Push 2: the next block straddles the kept 20,000 bytes and the new chunk: only the
  // 20,000 bytes it needs from the new chunk are moved, not the whole chunk.
  q.Lend(data.data() + 100000, 200000);
  REQUIRE(q.Peek(40000, &view));
  CHECK(std::equal(view.begin(), view.end(), data.begin() + 80000));
  CHECK(q.bytesCopied() == 40000);
  q.Consume(40000);
  REQUIRE(q.Peek(180000, &view));  // the rest lies in the lent chunk again
  CHECK(view.data() == data.data() + 120000);
  q.Consume(180000);
  q.KeepUnread();
  CHECK(q.bytesCopied() == 40000);
  CHECK(q.available() == 0);
  CHECK(q.position() == 300000);
}

TEST_CASE("chunk queue copies a block that goes on in the next chunk once, into a buffer that holds it", "[io]") {
  // ~900 KB blocks in 1 MiB chunks (a v6 writer's big blocks read by the CLI): the start of
  // the second block is kept when the first chunk ends, the rest appended when it arrives.
  constexpr size_t kChunk = 1 << 20, kBlock = 900000;
  std::vector<uint8_t> data(2 * kChunk);
  for (size_t i = 0; i < data.size(); ++i) data[i] = static_cast<uint8_t>(i * 7 + 3);
  ChunkQueue q;
  std::span<const uint8_t> view;
  q.Lend(data.data(), kChunk);
  REQUIRE(q.Peek(kBlock, &view));
  q.Consume(kBlock);
  CHECK_FALSE(q.Peek(kBlock, &view));  // the reader asks for the whole next block
  q.KeepUnread();
  CHECK(q.bytesCopied() == kChunk - kBlock);
  CHECK(q.residentBytes() >= kBlock);  // room for all of it, reserved with its start
  q.Lend(data.data() + kChunk, kChunk);
  REQUIRE(q.Peek(kBlock, &view));
  CHECK(std::equal(view.begin(), view.end(), data.begin() + kBlock));
  CHECK(q.bytesCopied() == kBlock);  // every byte of the block copied once
  CHECK(q.residentBytes() < 2 * kBlock);
  q.Consume(kBlock);
  // A size no block has (a corrupt header) reserves no more than the cap.
  CHECK_FALSE(q.Peek(size_t{1} << 32, &view));
  q.KeepUnread();
  CHECK(q.residentBytes() <= ChunkQueue::kReserveAheadMax + kChunk);
}
