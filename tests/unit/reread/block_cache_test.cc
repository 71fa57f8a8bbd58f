// The event-details cache on a generated trace of many small events (tests/shapes
// no-sequence-points): what it holds per row beyond the blocks' bytes, and that each row's
// details are those of the row decoded whole from its block.
#include <catch2/catch.hpp>

#include <cstring>
#include <vector>

#include "format/event_block.h"
#include "reread/block_cache.h"
#include "shapes/extreme_shapes.h"
#include "trace_session.h"

using namespace nettrace;

namespace {

BlockReader ReaderOf(const std::vector<uint8_t>& bytes) {
  return [&bytes](uint64_t offset, uint64_t size, std::vector<uint8_t>* out) {
    if (offset > bytes.size() || size > bytes.size() - offset) return false;
    out->assign(bytes.begin() + static_cast<std::ptrdiff_t>(offset), bytes.begin() + static_cast<std::ptrdiff_t>(offset + size));
    return true;
  };
}

}  // namespace

TEST_CASE("block cache: a row of a re-read block costs 16 bytes, its details those of the whole record",
          "[reread][shapes]") {
  std::vector<uint8_t> bytes;
  REQUIRE(shapes::WriteShape(shapes::Shape::kNoSequencePoints, 100'000, &bytes).ok());
  TraceSession session;
  REQUIRE(session.PushChunk(bytes.data(), bytes.size()).ok());
  REQUIRE(session.Finish().ok());
  const TraceModel& model = session.model();
  const uint32_t n = static_cast<uint32_t>(model.store().size());
  REQUIRE(n == 100'000);

  BlockCache cache(model);
  std::vector<uint32_t> rows(n);
  for (uint32_t r = 0; r < n; ++r) rows[r] = r;
  // The whole file is a few blocks: all of them fit the cache at once.
  REQUIRE(cache.Needed(rows).size() < BlockCache::kEntries);
  REQUIRE(cache.ReadFor(rows, ReaderOf(bytes)).ok());

  // A whole EventRecord a row (~110 bytes) would be 11 MB here for a 0.2 MB file.
  INFO("bytes a row: " << static_cast<double>(cache.RowBytes()) / n);
  CHECK(cache.RowBytes() <= 16u * n);

  // Every row's details as the whole record of its block says.
  std::vector<EventRecord> records;
  uint64_t decodedBlock = UINT64_MAX;
  size_t mismatches = 0;
  for (uint32_t r = 0; r < n; ++r) {
    const RowLocation loc = model.store().Locate(r);
    if (loc.blockOffset != decodedBlock) {
      const std::span<const uint8_t> block(bytes.data() + loc.blockOffset, loc.blockSize);
      REQUIRE(DecodeEventRows(ByteCursor(block, loc.blockOffset), loc.generation, &records).ok());
      decodedBlock = loc.blockOffset;
    }
    const std::optional<EventDetail> d = cache.Detail(r);
    REQUIRE(d.has_value());
    REQUIRE(loc.rowInBlock < records.size());
    const EventRecord& e = records[loc.rowInBlock];
    const bool same = d->processorNumber == e.processorNumber && d->sequenceNumber == e.sequenceNumber &&
                      d->payloadOffset == e.payloadOffset && d->payload.size() == e.payload.size() &&
                      std::memcmp(d->payload.data(), e.payload.data(), e.payload.size()) == 0;
    mismatches += !same;
  }
  CHECK(mismatches == 0);
  CHECK_FALSE(cache.Detail(n).has_value());
}
