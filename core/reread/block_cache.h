// core/reread — event details re-read from the file. The model keeps no payloads, processor
// numbers or sequence numbers per event: its store locates each row in its event block
// (EventStore::Locate), and a caller that can read the file again hands those blocks back.
// The cache keeps a bounded number of provided blocks, each decoded into rows once. Nothing
// here blocks on I/O: it says which byte ranges it needs; the caller reads them however it
// can (fread, Blob.slice(), a ranged fetch) and provides them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
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
  // Needed, each range read through `read` and provided. Fails when a range cannot be read.
  Status ReadFor(const std::vector<uint32_t>& rows, const BlockReader& read);
  // A store row's re-decoded record when its block is provided and still decodes the same
  // (its payload spans point into the cache), else nullptr.
  const EventRecord* Record(uint32_t row) const;
  // The end of the page of `rows` from `begin`: the rows after it whose blocks number at
  // most maxBlocks (at least one row).
  size_t PageEnd(const std::vector<uint32_t>& rows, size_t begin, size_t maxBlocks) const;
  // The same over consecutive store rows from beginRow.
  uint32_t PageEnd(uint32_t beginRow, size_t maxBlocks) const;

  uint32_t formatMajor() const;

 private:
  struct Block {
    std::vector<uint8_t> bytes;
    std::vector<EventRecord> rows;  // payload spans point into bytes
  };
  const TraceModel& model_;
  std::map<uint64_t, Block> blocks_;  // by offset
  std::deque<uint64_t> order_;        // FIFO eviction
};

}  // namespace nettrace
