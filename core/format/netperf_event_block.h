// core/format — the EventBlock of NetPerf (format version 3, .NET Core 2.x; the
// differences to NetTrace v4 are listed in NetTraceFormat_v5.md §Version 3 (NetPerf) -> 4):
// no block header, and every event is one uncompressed row
//   EventSize (int32, excludes itself), MetadataId, ThreadId (int32), TimeStamp (int64),
//   ActivityId, RelatedActivityId (16 bytes each), PayloadSize, payload,
//   StackSize (int32), stack bytes, padding up to EventSize.
// There are no MetadataBlocks: a row with MetadataId 0 is a metadata definition whose
// payload has the v4 metadata layout. There are no StackBlocks: stacks are inline, and
// the decoder interns them into stack ids, so everything after it sees the records of a
// NetTrace v4 file. There are no sequence numbers nor sequence points.
#pragma once

#include <functional>
#include <unordered_set>
#include <vector>

#include "base/blob_interner.h"
#include "base/status.h"
#include "format/block_context.h"
#include "io/byte_cursor.h"

namespace nettrace {

// One row as written: the event (or metadata record) and its inline stack bytes.
struct NetPerfRow {
  EventRecord record;
  std::span<const uint8_t> stack;
  uint64_t offset = 0;  // of its EventSize: a v1/v2 metadata row's id
};

// Decodes the row at the cursor and leaves the cursor at the next one.
Status DecodeNetPerfRow(ByteCursor& c, NetPerfRow* row);

// Re-decodes the event rows of a block read again from the file (metadata rows are not
// events and are skipped, so row i is the block's i-th event). Stack ids stay 0. Each row
// goes to `onRow` as it is decoded, valid during the call only.
Status DecodeNetPerfEventRows(ByteCursor content, const std::function<void(const EventRecord& row)>& onRow);

// Decodes blocks in file order for one trace: it remembers the metadata whose stacks
// TraceEvent discards and the stacks interned so far.
class NetPerfEventDecoder {
 public:
  Status DecodeBlock(ByteCursor content, BlockContext& ctx);
  // NetPerf versions 1 and 2 (format/netperf_stream.h): metadata payloads in their layout,
  // metadata ids = row offsets. Rows (and so DecodeBlock) are the same as version 3's.
  void SetStreamVersion(int32_t version) { streamVersion_ = version; }

 private:
  Status OnMetadataRow(const NetPerfRow& row, BlockContext& ctx);
  Status OnEventRow(NetPerfRow& row, BlockContext& ctx);

  int32_t streamVersion_ = 3;
  // Metadata ids whose events' stacks are bookkeeping, not data (see the .cc).
  std::unordered_set<uint32_t> stacklessMetadata_;
  // Stack bytes → the id they were given; ids count up from 1 (0 is "no stack").
  BlobInterner stackIds_;
};

}  // namespace nettrace
