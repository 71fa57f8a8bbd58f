// core/reread — event details re-read from the file. The model keeps no payloads, processor
// numbers or sequence numbers per event: its store locates each row in its event block
// (EventStore::Locate), and a caller that can read the file again hands those blocks back.
// The cache keeps a bounded number of provided blocks, each decoded once into compact rows
// that hold only what an EventDetail needs (16 bytes a row, the payload as a range of the kept
// bytes): a 16 MB v6 block may hold some 280,000 small rows, whose whole records would take
// 104 bytes each where the file stores a few. Nothing here blocks on I/O: it says which byte
// ranges it needs; the caller reads them however it can (fread, Blob.slice(), a ranged
// fetch) and provides them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <vector>

#include "base/byte_range.h"
#include "base/status.h"
#include "format/records.h"
#include "model/trace_model.h"

namespace nettrace {

class BlockCache {
 public:
  // Event blocks are ~100 KB in real traces (v6 caps them below 16 MB): a few dozen cover
  // a page of the event table.
  static constexpr size_t kEntries = 64;

  explicit BlockCache(const TraceModel& model) : model_(model) {}

  // The file ranges (event blocks) of these rows not provided yet. Those already provided
  // move to the back of the eviction order: providing the missing ones (fewer than kEntries
  // for a page) cannot evict them before the caller uses them.
  std::vector<ByteRange> Needed(const std::vector<uint32_t>& rows);
  // Keeps the bytes of a range Needed gave (the oldest block goes when the cache is full).
  void Provide(uint64_t offset, const uint8_t* data, size_t size);
  // The same, the bytes taken rather than copied (a v6 block may be 16 MB).
  void Provide(uint64_t offset, std::vector<uint8_t>&& bytes);
  // Needed, each range read through `read` and provided. Fails when a range cannot be read.
  Status ReadFor(const std::vector<uint32_t>& rows, const BlockReader& read);
  // A store row's details when its block is provided and still decodes the same (the payload
  // span points into the cache: valid until the block is evicted), else nothing.
  std::optional<EventDetail> Detail(uint32_t row) const;
  // The bytes the cache holds for the decoded rows of its blocks (what a row costs beyond the
  // block's own bytes).
  size_t RowBytes() const;
  // The end of the page of `rows` from `begin`: the rows after it whose blocks number at
  // most maxBlocks (at least one row).
  size_t PageEnd(const std::vector<uint32_t>& rows, size_t begin, size_t maxBlocks) const;
  // The same over consecutive store rows from beginRow, at most kPageRows of them: a page's
  // text is held while it is written, and a few blocks of bodiless events are a million rows.
  static constexpr uint32_t kPageRows = 1u << 16;
  uint32_t PageEnd(uint32_t beginRow, size_t maxBlocks) const;

  uint32_t formatMajor() const;

 private:
  // One re-decoded row: the payload as an offset into the block's bytes.
  struct Row {
    uint32_t processorNumber = 0;
    uint32_t sequenceNumber = 0;
    uint32_t payloadAt = 0;
    uint32_t payloadSize = 0;
  };
  struct Block {
    std::vector<uint8_t> bytes;
    std::vector<Row> rows;
  };
  const TraceModel& model_;
  std::map<uint64_t, Block> blocks_;  // by offset
  std::deque<uint64_t> order_;        // FIFO eviction
};

}  // namespace nettrace
