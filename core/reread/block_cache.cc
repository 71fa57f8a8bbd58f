#include "reread/block_cache.h"

#include <algorithm>

#include "format/event_block.h"
#include "format/trace_reader.h"

namespace nettrace {

uint32_t BlockCache::formatMajor() const { return model_.reader().formatMajor(); }

std::vector<ByteRange> BlockCache::Needed(const std::vector<uint32_t>& rows) {
  std::vector<ByteRange> out;
  const EventStore& store = model_.store();
  for (uint32_t row : rows) {
    if (row >= store.size()) continue;
    const RowLocation loc = store.Locate(row);
    if (blocks_.count(loc.blockOffset)) {
      auto at = std::find(order_.begin(), order_.end(), loc.blockOffset);
      if (at != order_.end() && std::next(at) != order_.end()) {
        order_.erase(at);
        order_.push_back(loc.blockOffset);
      }
      continue;
    }
    const ByteRange r{loc.blockOffset, loc.blockSize};
    if (std::none_of(out.begin(), out.end(), [&](const ByteRange& o) { return o.offset == r.offset; })) out.push_back(r);
  }
  return out;
}

void BlockCache::Provide(uint64_t offset, const uint8_t* data, size_t size) {
  if (blocks_.count(offset)) return;
  Provide(offset, std::vector<uint8_t>(data, data + size));
}

void BlockCache::Provide(uint64_t offset, std::vector<uint8_t>&& bytes) {
  if (blocks_.count(offset)) return;
  while (order_.size() >= kEntries) {
    blocks_.erase(order_.front());
    order_.pop_front();
  }
  Block& block = blocks_[offset];
  block.bytes = std::move(bytes);
  // A block that no longer decodes (the file changed under us) gives no rows: the events
  // then show without details rather than with wrong ones. Payloads lie inside the block
  // (the cursor checks it), whose size a RowLocation holds in 32 bits.
  const RowGeneration gen = RowGenerationFor(formatMajor());
  const Status decoded = DecodeEventRows(ByteCursor({block.bytes.data(), block.bytes.size()}, offset), gen,
                                       [&](const EventRecord& r) {
                                         block.rows.push_back({r.processorNumber, r.sequenceNumber,
                                                               static_cast<uint32_t>(r.payloadOffset - offset),
                                                               static_cast<uint32_t>(r.payload.size())});
                                       });
  if (!decoded.ok()) block.rows.clear();
  block.rows.shrink_to_fit();
  order_.push_back(offset);
}

Status BlockCache::ReadFor(const std::vector<uint32_t>& rows, const BlockReader& read) {
  std::vector<uint8_t> bytes;
  for (const ByteRange& r : Needed(rows)) {
    if (!read(r.offset, r.size, &bytes) || bytes.size() != r.size)
      return Status::Error(ErrorCode::kTruncated, r.offset, "cannot re-read an event block");
    Provide(r.offset, std::move(bytes));
  }
  return Status::Ok();
}

std::optional<EventDetail> BlockCache::Detail(uint32_t row) const {
  if (row >= model_.store().size()) return std::nullopt;
  const RowLocation loc = model_.store().Locate(row);
  auto it = blocks_.find(loc.blockOffset);
  if (it == blocks_.end() || it->second.bytes.size() != loc.blockSize || loc.rowInBlock >= it->second.rows.size())
    return std::nullopt;
  const Block& block = it->second;
  const Row& r = block.rows[loc.rowInBlock];
  return EventDetail{r.processorNumber, r.sequenceNumber, loc.blockOffset + r.payloadAt,
                     std::span<const uint8_t>(block.bytes).subspan(r.payloadAt, r.payloadSize)};
}

size_t BlockCache::RowBytes() const {
  size_t bytes = 0;
  for (const auto& [offset, block] : blocks_) bytes += block.rows.capacity() * sizeof(Row);
  return bytes;
}

namespace {
// The end of a page from `begin`: the rows after it (rowAt(i) the store row of the i-th)
// whose blocks number at most maxBlocks, and at least one.
template <typename RowAt>
size_t PageEndOf(const EventStore& store, size_t begin, size_t end, size_t maxBlocks, RowAt rowAt) {
  std::vector<uint64_t> blocks;
  size_t i = begin;
  for (; i < end; ++i) {
    const uint64_t block = store.Locate(rowAt(i)).blockOffset;
    if (std::find(blocks.begin(), blocks.end(), block) != blocks.end()) continue;
    if (blocks.size() == maxBlocks && i > begin) break;
    blocks.push_back(block);
  }
  return i;
}
}  // namespace

size_t BlockCache::PageEnd(const std::vector<uint32_t>& rows, size_t begin, size_t maxBlocks) const {
  return PageEndOf(model_.store(), begin, rows.size(), maxBlocks, [&](size_t i) { return rows[i]; });
}

uint32_t BlockCache::PageEnd(uint32_t beginRow, size_t maxBlocks) const {
  const EventStore& store = model_.store();
  const size_t last = std::min<size_t>(store.size(), size_t{beginRow} + kPageRows);
  return static_cast<uint32_t>(PageEndOf(store, beginRow, last, maxBlocks, [](size_t i) { return static_cast<uint32_t>(i); }));
}

}  // namespace nettrace
