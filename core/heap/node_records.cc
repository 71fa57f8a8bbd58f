#include "heap/node_records.h"

#include <cstring>
#include <string>

namespace nettrace::heap {

bool ReadCompressedInt(const uint8_t* p, size_t end, size_t* pos, int32_t* value) {
  size_t i = *pos;
  if (i >= end) return false;
  uint8_t b = p[i++];
  // The first group's 7 bits, sign-extended; unsigned arithmetic so shifts cannot overflow.
  uint32_t v = (b & 0x40u) ? (0xFFFFFF80u | b) : (b & 0x7Fu);
  for (int group = 1; (b & 0x80) != 0; ++group) {
    if (i >= end) return false;
    b = p[i++];
    // The fifth byte is added whole (PerfView asserts its high bit is clear, and stops).
    v = (v << 7) + (group == 4 ? b : (b & 0x7Fu));
    if (group == 4) break;
  }
  *pos = i;
  *value = static_cast<int32_t>(v);
  return true;
}

Status NodeRecords::Corrupt(size_t at, const std::string& what) const {
  return Status::Error(ErrorCode::kCorrupt, blobFileOffset_ + at, "gcdump: node record: " + what);
}

Status NodeRecords::ReadHeader(uint32_t node, uint32_t label, const HeapGraph& graph, Header* out) const {
  const uint8_t* p = blob_.data();
  const size_t end = blob_.size();
  if (label >= end) {
    return Status::Error(ErrorCode::kCorrupt, blobFileOffset_ - 4,
                         "gcdump: node " + std::to_string(node) + "'s record offset " + std::to_string(label) +
                             " is past the blob's " + std::to_string(end) + " bytes");
  }
  size_t pos = label;
  int32_t typeAndSize = 0, size = 0, count = 0;
  if (!ReadCompressedInt(p, end, &pos, &typeAndSize)) return Corrupt(label, "cut at the blob's end");
  if (typeAndSize < 0 || static_cast<uint32_t>(typeAndSize >> 1) >= typeCount_) {
    return Corrupt(label, "node " + std::to_string(node) + " has type " + std::to_string(typeAndSize >> 1) + " of " +
                              std::to_string(typeCount_));
  }
  out->type = static_cast<TypeIndex>(typeAndSize >> 1);
  if (typeAndSize & 1) {
    if (!ReadCompressedInt(p, end, &pos, &size)) return Corrupt(label, "cut at the blob's end");
  } else {
    size = graph.types[out->type].storedSize;
  }
  if (size < 0) return Corrupt(label, "node " + std::to_string(node) + " has a negative size");
  out->size = static_cast<uint32_t>(size);
  if (!ReadCompressedInt(p, end, &pos, &count)) return Corrupt(label, "cut at the blob's end");
  // Every child takes at least one byte, so a count beyond the bytes left cannot be right.
  if (count < 0 || static_cast<size_t>(count) > end - pos) {
    return Corrupt(label, "node " + std::to_string(node) + " claims " + std::to_string(count) + " children");
  }
  out->childCount = static_cast<uint32_t>(count);
  out->childrenAt = pos;
  return Status::Ok();
}

Status NodeRecords::Decode(std::span<const uint8_t> labels, HeapGraph* graph) const {
  auto label = [&](uint32_t i) {
    uint32_t v = 0;
    std::memcpy(&v, labels.data() + size_t{i} * 4, 4);
    return v;
  };
  graph->nodeType.assign(nodeCount_, 0);
  graph->nodeSize.assign(nodeCount_, 0);
  graph->firstChild.assign(size_t{nodeCount_} + 1, 0);
  // Pass 1: types, sizes and child counts, so the edge array is allocated once.
  uint64_t edges = 0;
  for (uint32_t i = 0; i < nodeCount_; ++i) {
    Header h;
    NETTRACE_RETURN_IF_ERROR(ReadHeader(i, label(i), *graph, &h));
    graph->nodeType[i] = h.type;
    graph->nodeSize[i] = h.size;
    graph->firstChild[i] = static_cast<uint32_t>(edges);
    edges += h.childCount;
    if (edges > UINT32_MAX) return Corrupt(h.childrenAt, "more than 2^32 edges");
  }
  graph->firstChild[nodeCount_] = static_cast<uint32_t>(edges);
  graph->children.assign(edges, 0);
  // Pass 2: the children, each a delta from its parent's index (C# int arithmetic).
  const uint8_t* p = blob_.data();
  for (uint32_t i = 0; i < nodeCount_; ++i) {
    Header h;
    NETTRACE_RETURN_IF_ERROR(ReadHeader(i, label(i), *graph, &h));
    size_t pos = h.childrenAt;
    NodeIndex* out = graph->children.data() + graph->firstChild[i];
    for (uint32_t k = 0; k < h.childCount; ++k) {
      const size_t at = pos;
      int32_t delta = 0;
      if (!ReadCompressedInt(p, blob_.size(), &pos, &delta)) return Corrupt(at, "cut at the blob's end");
      const uint32_t child = static_cast<uint32_t>(delta) + i;
      if (child >= nodeCount_) {
        return Corrupt(at, "node " + std::to_string(i) + " has child " + std::to_string(static_cast<int32_t>(child)) +
                               " of " + std::to_string(nodeCount_));
      }
      out[k] = child;
    }
  }
  return Status::Ok();
}

}  // namespace nettrace::heap
