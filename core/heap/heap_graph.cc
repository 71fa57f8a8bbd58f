#include "heap/heap_graph.h"

#include <string>

namespace nettrace::heap {

std::string HeapGraph::FullName(TypeIndex t) const {
  const HeapType& type = types[t];
  if (type.module.empty()) return type.name;
  return type.module + "!" + type.name;
}

uint64_t HeapGraph::MemoryBytes() const {
  uint64_t bytes = nodeType.capacity() * sizeof(TypeIndex) + nodeSize.capacity() * sizeof(uint32_t) +
                   nodeAddress.capacity() * sizeof(uint64_t) + firstChild.capacity() * sizeof(uint32_t) +
                   children.capacity() * sizeof(NodeIndex);
  for (const HeapType& t : types) bytes += sizeof(HeapType) + t.name.capacity() + t.module.capacity();
  return bytes;
}

Status HeapGraph::Check() const {
  const uint32_t n = nodeCount();
  auto bad = [](std::string what) { return Status::Error(ErrorCode::kCorrupt, kNoOffset, "heap graph: " + what); };
  if (nodeSize.size() != n || nodeAddress.size() != n || firstChild.size() != size_t{n} + 1) {
    return bad("column lengths differ");
  }
  if (n > 0 && root >= n) return bad("root " + std::to_string(root) + " out of range");
  if (firstChild[0] != 0 || firstChild[n] != children.size()) return bad("child offsets do not cover the edges");
  for (uint32_t i = 0; i < n; ++i) {
    if (firstChild[i] > firstChild[i + 1]) return bad("child offsets decrease at node " + std::to_string(i));
    if (nodeType[i] >= types.size()) return bad("node " + std::to_string(i) + " has no type");
  }
  for (NodeIndex c : children) {
    if (c >= n) return bad("child " + std::to_string(c) + " out of range");
  }
  return Status::Ok();
}

}  // namespace nettrace::heap
