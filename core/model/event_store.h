// core/model — the columnar event table: every event of the trace in time order, in
// 15 bytes per event resident (the budget is 16):
//   timestamp  4 B  offset from its page's base timestamp (pages start where 32 bits
//                   would overflow, so any gap works)
//   type       2 B  EventTypeIndex
//   thread     2 B  ThreadIndex
//   stack      4 B  StackIndex (interned across the trace, 0 = none)
//   ordinal    3 B  the event's position in FILE order, as an offset from the first
//                   ordinal of its sequence-point region (a region's events are a
//                   permutation of a contiguous ordinal range). With the event-block
//                   table it locates the event's row, so header and payload are re-read
//                   on demand instead of kept (the browser slices the File again).
//                   Regions beyond 16 Mi events spill to a sparse side table.
// Label lists are sparse (most events have none): (row, LabelListIndex) pairs on the
// side. Columns are ChunkedVectors: no doubling slack, no allocation above 2 GB.
//
// Late events (an IsSorted mark that lied, see sort/event_sorter.h) are not shifted in
// one by one — a writer that lies on every block would make that quadratic. They wait in
// a side list and are merged into the columns in one pass when the list reaches a
// quarter of the store (amortised O(1) per event, memory at most twice the columns
// during the pass) and when the read ends (Seal), so every query sees exactly the
// stable (timestamp, file ordinal) order.
#pragma once

#include <cstdint>
#include <vector>

#include "base/chunked_vector.h"
#include "base/strong_index.h"
#include "format/event_row.h"
#include "sort/event_sorter.h"

namespace nettrace {

// Where an event block's content lies in the file, and the file-order ordinal of its
// first event.
struct EventBlockRef {
  uint64_t contentOffset = 0;
  uint32_t contentSize = 0;
  uint32_t firstOrdinal = 0;
  RowGeneration generation = RowGeneration::kV4V5;
};

// What to re-read to get one event's header and payload back.
struct RowLocation {
  uint64_t blockOffset = 0;  // absolute file offset of the block content
  uint32_t blockSize = 0;
  uint32_t rowInBlock = 0;
  RowGeneration generation = RowGeneration::kV4V5;
};

class EventStore {
 public:
  size_t size() const { return rows_; }

  // Appends in time order. `late` items (see EventSorter) are placed by (timestamp,
  // ordinal) — by the next merge, at the latest by Seal().
  // Inline: the common case is one call to Put, not two.
  void Append(const SortItem& item, bool late) {
    if (!late) return Put(item);
    AppendLate(item);
  }
  // Merges the late events still waiting; call before the store is queried.
  void Seal() { MergeLate(); }
  // Late events not merged yet (0 after Seal).
  size_t pendingLate() const { return late_.size(); }
  // How many merge passes late events have cost so far.
  size_t lateMerges() const { return lateMerges_; }
  void AddEventBlock(const EventBlockRef& block) { blocks_.push_back(block); }
  // The next appended rows belong to a region whose first event has this ordinal.
  void BeginRegion(uint32_t firstOrdinal) { regionBase_ = firstOrdinal; }

  uint64_t timestamp(size_t row) const;
  EventTypeIndex type(size_t row) const { return EventTypeIndex(type_[row]); }
  ThreadIndex thread(size_t row) const { return ThreadIndex(thread_[row]); }
  StackIndex stack(size_t row) const { return StackIndex(stack_[row]); }
  uint32_t ordinal(size_t row) const;
  LabelListIndex labels(size_t row) const;
  RowLocation Locate(size_t row) const;

  // First row whose timestamp is >= ts (rows are in time order).
  size_t LowerBound(uint64_t ts) const;

  // timestamp() and ordinal() for rows read in ascending order (a scan of the store): the time
  // page and ordinal page of a row are found by moving on from the previous row's, where the
  // per-row calls search them (~100 instructions a row on a trace of many regions). A row
  // before the previous one is found by a search again.
  class RowCursor {
   public:
    explicit RowCursor(const EventStore& store) : store_(store) {}
    uint64_t timestamp(size_t row);
    uint32_t ordinal(size_t row);

   private:
    const EventStore& store_;
    size_t page_ = 0, ordinalPage_ = 0;
  };

  // Resident bytes of the per-event columns, and of everything including side tables.
  size_t columnBytes() const;
  size_t residentBytes() const;

 private:
  struct Page {
    uint32_t firstRow;
    uint64_t base;
  };
  struct Ordinal24 {
    uint8_t b[3];
  };
  // The page holding `row`: the last whose firstRow <= row (pages are in row order). From
  // `from` on when it is at or before that page, else by a search.
  static size_t PageOf(const std::vector<Page>& pages, size_t row, size_t from);
  static uint32_t Relative(const Ordinal24& o) { return o.b[0] | (uint32_t{o.b[1]} << 8) | (uint32_t{o.b[2]} << 16); }
  static constexpr uint32_t kOrdinalSpill = 0xFFFFFF;
  // A late item and the region base that was current when it arrived.
  struct LateItem {
    SortItem item;
    uint32_t regionBase;
  };
  // Inline, as Append: every sorted event is stored here, and the call's prologue and
  // epilogue were a fifth of its cost. What changes rarely (a new chunk, time page or
  // region) is Open's.
  void Put(const SortItem& item) {
    const uint32_t row = static_cast<uint32_t>(rows_);
    const size_t slot = row & (ChunkedVector<uint16_t>::kChunkSize - 1);
    if (slot == 0 || !open_ || item.timestamp < pageBase_ || item.timestamp - pageBase_ > 0xFFFFFFFFull ||
        ordinalPageBase_ != regionBase_)
      Open(row, item.timestamp);
    tsChunk_[slot] = static_cast<uint32_t>(item.timestamp - pageBase_);
    typeChunk_[slot] = item.type;
    threadChunk_[slot] = item.thread;
    stackChunk_[slot] = item.stack;
    uint32_t rel = item.ordinal - regionBase_;
    if (item.ordinal < regionBase_ || rel >= kOrdinalSpill) rel = Spill(row, item.ordinal);
    ordinalChunk_[slot] = {{static_cast<uint8_t>(rel), static_cast<uint8_t>(rel >> 8), static_cast<uint8_t>(rel >> 16)}};
    if (item.labels) AddLabels(row, item.labels);
    rows_ = row + size_t{1};
  }
  // Out of line, as Open: a vector's growth inlined here made every call save registers.
  uint32_t Spill(uint32_t row, uint32_t ordinal);
  void AddLabels(uint32_t row, uint32_t labels);
  void Open(uint32_t row, uint64_t timestamp);
  void AppendLate(const SortItem& item);
  void StartChunks(size_t row);
  void MergeLate();

  ChunkedVector<uint32_t> tsOffset_;
  ChunkedVector<uint16_t> type_;
  ChunkedVector<uint16_t> thread_;
  ChunkedVector<uint32_t> stack_;
  ChunkedVector<Ordinal24> ordinal_;
  // The five columns are written in step (ChunkedVector::ChunkOf): rows_ counts them, and
  // these point at the chunk the next row goes to (null before the first row).
  size_t rows_ = 0;
  uint32_t* tsChunk_ = nullptr;
  uint16_t* typeChunk_ = nullptr;
  uint16_t* threadChunk_ = nullptr;
  uint32_t* stackChunk_ = nullptr;
  Ordinal24* ordinalChunk_ = nullptr;
  std::vector<Page> pages_;
  std::vector<Page> ordinalPages_;                       // base = region's first ordinal
  // Open's: the last page's and ordinal page's bases (valid once open_).
  uint64_t pageBase_ = 0, ordinalPageBase_ = 0;
  bool open_ = false;
  std::vector<std::pair<uint32_t, uint32_t>> spilled_;   // (row, ordinal), rows ascending
  uint32_t regionBase_ = 0;
  std::vector<std::pair<uint32_t, uint32_t>> labels_;  // (row, label list), rows ascending
  std::vector<EventBlockRef> blocks_;
  std::vector<LateItem> late_;
  size_t lateMerges_ = 0;
};

}  // namespace nettrace
