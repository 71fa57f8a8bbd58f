// core/heap — PerfView's spanning tree of a heap graph (MemoryGraphStackSource.ForEach, the
// tree PerfView's heap views and its "Inc" sizes are made of; docs/format/gcdump.md
// §Attribution): a best-first walk from the root where a node's priority is its type's
// priority plus a tenth of its parent's, ties going to the node enqueued first; each node's
// parent is the node that first reached it. Nodes the root does not reach get the orphan
// parent (nodeCount, "[not reachable from roots]"), starting from a minimal set of them.
// Float arithmetic, the queue's layout and the orphan search are PerfView's own, so the
// tree is the same tree, node for node.
#pragma once

#include <cstdint>
#include <vector>

#include "heap/heap_graph.h"

namespace nettrace::heap {

struct SpanningTree {
  // parent[n]: the node that reached n, nodeCount for an orphan root, kNoNode for the root.
  std::vector<NodeIndex> parent;
  // The nodes in the order the walk took them (parents before their children).
  std::vector<NodeIndex> order;
};

SpanningTree BuildSpanningTree(const HeapGraph& graph);

}  // namespace nettrace::heap
