// core/heap — the dominator tree of a heap graph and each node's retained size: the bytes
// that would be freed if that node were gone (the node and every node all of whose paths
// from the roots pass through it). Semi-NCA (Georgiadis): semidominators by Lengauer and
// Tarjan's rule with path compression, then each node's immediate dominator as the nearest
// common ancestor of its DFS parent and semidominator; every loop is iterative, so a chain
// of ten million objects needs no stack. Nodes the root does not reach hang from a virtual
// root (index nodeCount) through the spanning tree's orphan roots.
#pragma once

#include <cstdint>
#include <vector>

#include "heap/heap_graph.h"

namespace nettrace::heap {

struct Dominators {
  // idom[n]: n's immediate dominator; nodeCount (the virtual root) for the root and the
  // orphan roots.
  std::vector<NodeIndex> idom;
  // Nodes in DFS preorder from the virtual root: every node after its dominator.
  std::vector<NodeIndex> preorder;
};

/// extraRoots: nodes to start from besides graph.root (the orphan roots).
Dominators BuildDominators(const HeapGraph& graph, const std::vector<NodeIndex>& extraRoots);

}  // namespace nettrace::heap
