// core/heap — one heap snapshot as a graph, whichever file it came from (a .gcdump, or the
// GC heap-dump events of a .nettrace). The layout is PerfView's MemoryGraph as the file
// holds it (docs/format/gcdump.md): node 0.. N-1, each with a type, a size and an ordered
// list of children; a root node whose children are pseudo-nodes ("[static vars]",
// "[strong Handles]" …) that hold the real roots; types named "module!name".
//
// Storage is columnar and compact (docs/format/gcdump.md §Memory): 32-bit indexes in
// compressed sparse rows, 20 bytes per node and 4 per edge, so a 10-million-object
// snapshot fits a browser tab. Invariants (HeapGraph::Check): every child and the root
// are < nodeCount, every type index < types.size(), firstChild is non-decreasing and
// ends at children.size().
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "base/status.h"

namespace nettrace::heap {

using NodeIndex = uint32_t;
using TypeIndex = uint32_t;
inline constexpr NodeIndex kNoNode = ~NodeIndex{0};

struct HeapType {
  std::string name;    // as the file names it ("System.Byte[] (Bytes > 1K)")
  std::string module;  // a path or "" when the file gives none
  // The size the file stores with the type: the first instance's size (PerfView's
  // Graph.SetNodeTypeAndSize), which `dotnet-gcdump report` prints as "Object Bytes".
  int32_t storedSize = 0;
};

// What the file says about where the snapshot was taken (GCHeapDump's own fields).
struct HeapInfo {
  std::string source;  // "gcdump" or "nettrace"
  std::string processName, machineName, creationTool;
  int64_t processId = -1;
  int64_t timeCollectedTicks = 0;  // .NET DateTime ticks (100 ns since 0001-01-01), 0: unknown
  int64_t totalProcessCommit = 0, totalProcessWorkingSet = 0;
  int64_t sizeOfAllSegments = 0;
  uint32_t pointerSize = 0;  // 4, 8 or 0 when unknown
  int64_t fileTotalSize = 0;  // the graph's own total (MemoryGraph.TotalSize as written)
  // Heap-dump events: the GC the snapshot was taken in, and what the reader left out.
  int64_t gcNumber = -1;
  uint64_t weakRootsIgnored = 0, unknownTypes = 0;
  bool nodeLimitReached = false;
};

class HeapGraph {
 public:
  std::vector<HeapType> types;
  std::vector<TypeIndex> nodeType;
  std::vector<uint32_t> nodeSize;
  std::vector<uint64_t> nodeAddress;  // 0 for pseudo-nodes (roots, categories)
  std::vector<uint32_t> firstChild;   // nodeCount + 1 entries
  std::vector<NodeIndex> children;
  NodeIndex root = 0;
  HeapInfo info;

  uint32_t nodeCount() const { return static_cast<uint32_t>(nodeType.size()); }
  uint64_t edgeCount() const { return children.size(); }
  std::span<const NodeIndex> ChildrenOf(NodeIndex n) const {
    return {children.data() + firstChild[n], children.data() + firstChild[n + 1]};
  }
  // "module!name" as PerfView's NodeType.FullName: the name alone when there is no module.
  std::string FullName(TypeIndex t) const;
  // Bytes the graph's arrays hold (capacity, not size): what the tab pays for the graph.
  uint64_t MemoryBytes() const;
  // The invariants above; an error names the first broken one.
  Status Check() const;
};

}  // namespace nettrace::heap
