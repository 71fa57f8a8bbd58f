// core/heap — PerfView's node records (Graph.SetNode; docs/format/gcdump.md §Node records):
// per node, at its offset in the blob, a compressed int holding (type << 1 | size given),
// the size when the low bit says so (else the type's stored size), the child count, and
// each child as a compressed delta from the node's own index. Compressed ints are
// big-endian groups of 7 bits, the first group sign-extended, at most five bytes.
#pragma once

#include <cstdint>
#include <span>

#include "base/status.h"
#include "heap/heap_graph.h"

namespace nettrace::heap {

// PerfView's Node.ReadCompressedInt over p[*pos..end): false when the bytes run out.
bool ReadCompressedInt(const uint8_t* p, size_t end, size_t* pos, int32_t* value);

class NodeRecords {
 public:
  NodeRecords(std::span<const uint8_t> blob, uint64_t blobFileOffset, uint32_t typeCount, uint32_t nodeCount)
      : blob_(blob), blobFileOffset_(blobFileOffset), typeCount_(typeCount), nodeCount_(nodeCount) {}

  // labels: 4 bytes (little-endian) per node, its record's offset in the blob. Fills the
  // graph's nodeType, nodeSize, firstChild and children (the edge array sized exactly).
  Status Decode(std::span<const uint8_t> labels, HeapGraph* graph) const;

 private:
  struct Header {
    TypeIndex type;
    uint32_t size;
    uint32_t childCount;
    size_t childrenAt;  // blob offset of the first child delta
  };
  Status ReadHeader(uint32_t node, uint32_t label, const HeapGraph& graph, Header* out) const;
  Status Corrupt(size_t at, const std::string& what) const;

  std::span<const uint8_t> blob_;
  uint64_t blobFileOffset_;
  uint32_t typeCount_, nodeCount_;
};

}  // namespace nettrace::heap
