// core/heap — the analyses every heap view reads, computed once per snapshot: rows (types
// by name and module) with count, shallow size, dominator retained size and PerfView's
// spanning-tree inclusive size; each node's retained size; shortest paths from the roots;
// the root categories. Memory after the run: 12 bytes per node (retained size, path
// parent) on top of the graph; the trees themselves are dropped once summed.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "heap/heap_graph.h"
#include "heap/tree_sums.h"

namespace nettrace::heap {

struct TypeRow {
  std::string name, module;
  uint64_t count = 0;
  uint64_t size = 0;       // shallow: the objects' own bytes
  uint64_t retained = 0;   // dominator tree (each object's retained size, nested rows once)
  uint64_t inclusive = 0;  // PerfView's spanning tree ("Inc" in its By Name view)
};

struct RootCategory {
  NodeIndex node;
  std::string name;       // "[static vars]", "[other roots]", …
  uint64_t retained = 0;  // bytes only this category keeps alive
  uint64_t inclusive = 0; // bytes PerfView's tree puts under it
};

class HeapAnalysis {
 public:
  /// phase: called with a phase name before each step (for progress).
  static HeapAnalysis Run(const HeapGraph& graph, const std::function<void(const char*)>& phase = nullptr);

  std::vector<TypeRow> rows;
  std::vector<uint32_t> rowOfType;
  std::vector<uint64_t> retained;     // per node
  std::vector<NodeIndex> pathParent;  // per node: previous node on a shortest path from the root
  std::vector<RootCategory> roots;    // the root's pseudo-children
  uint64_t objects = 0, bytes = 0;    // real objects (pseudo-nodes excluded)
  uint64_t unreachableObjects = 0, unreachableBytes = 0;

  uint32_t RowOf(const HeapGraph& g, NodeIndex n) const {
    return g.nodeAddress[n] == 0 ? kNoRow : rowOfType[g.nodeType[n]];
  }
  // The pseudo-nodes on n's shortest path below the root ("[static vars] / [static var X]"), or
  // "[not reachable from roots]".
  std::string RootPath(const HeapGraph& g, NodeIndex n) const;
  uint64_t MemoryBytes() const;
};

}  // namespace nettrace::heap
