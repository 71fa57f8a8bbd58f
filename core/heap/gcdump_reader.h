// core/heap — reads a .gcdump (PerfView's GCHeapDump, as `dotnet-gcdump collect` writes it;
// docs/format/gcdump.md) pushed in chunks of any size into a HeapGraph.
//
// The file is one FastSerialization object graph whose bulk is three arrays: a 32-bit
// offset per node into a blob of compressed node records, the blob, and a 64-bit address
// per node. The reader is a state machine over those parts (prefix → offsets → blob →
// addresses → tail): the small parts are parsed whole once their bytes have arrived (a
// parse that runs out of bytes is retried when twice as many are there), the arrays are
// copied as they stream in, and memory grows with the bytes received, never with a
// count the file claims. Finish() decodes the blob into the graph's compressed sparse
// rows (two passes, so the edge array is allocated once at its exact size) and frees it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/status.h"
#include "heap/heap_graph.h"
#include "io/chunk_queue.h"

namespace nettrace::heap {

class GcdumpReader {
 public:
  explicit GcdumpReader(HeapGraph* graph) : graph_(graph) {}

  /// The file's size when known: the arrays are then allocated once (never beyond what
  /// the file can hold).
  void SetFileSize(uint64_t size) { fileSize_ = size; }
  /// Reads what the bytes complete. @returns the first fatal error (again later), or Ok.
  Status Push(const uint8_t* data, size_t size);
  /// End of input: decodes the nodes and the trailing fields. A file cut after its blob
  /// still gives its graph (addresses missing read as 0) and the error.
  Status Finish();

  uint64_t bytesReceived() const { return queue_.received(); }
  const Status& status() const { return status_; }

 private:
  enum class Stage : uint8_t { kPrefix, kLabels, kBlobSize, kBlob, kAddressCount, kAddresses, kTail };

  Status Advance(bool atEnd);
  Status ParsePrefix(bool atEnd, bool* done);
  // Copies up to `want` bytes from the queue into *out (bulk arrays).
  void TakeBytes(std::vector<uint8_t>* out, uint64_t want);
  Status DecodeNodes();
  Status ParseTail();
  uint64_t Reserve(uint64_t claimed, uint64_t unit) const;

  HeapGraph* graph_;
  ChunkQueue queue_;
  Status status_;
  Stage stage_ = Stage::kPrefix;
  uint64_t fileSize_ = 0;
  uint64_t prefixRetryAt_ = 0;  // bytes available before the prefix parse is tried again
  uint32_t nodeCount_ = 0;
  int32_t typeVersion_ = 0;      // GCHeapDump's
  std::vector<uint8_t> labels_;  // 4 bytes per node: each node's record offset in the blob
  std::vector<uint8_t> blob_;
  uint64_t blobSize_ = 0, blobStart_ = 0;
  uint64_t addressesRead_ = 0;
  std::vector<uint8_t> tail_;
  uint64_t tailStart_ = 0;
  bool finished_ = false;
};

}  // namespace nettrace::heap
