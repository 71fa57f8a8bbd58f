// core/heap — sizes summed over a tree of the heap's nodes (the dominator tree, or
// PerfView's spanning tree): each node's subtree total, and per row (a type by name and
// module) the bytes of every node with at least one node of that row on its tree path,
// counted once — a row's retained size that does not count a List<T> inside a List<T>
// twice, and PerfView's "Inc" column of its By Name view for the spanning tree.
#pragma once

#include <cstdint>
#include <vector>

#include "heap/heap_graph.h"

namespace nettrace::heap {

inline constexpr uint32_t kNoRow = ~uint32_t{0};

struct TreeSums {
  std::vector<uint64_t> subtree;       // per node (and the virtual root, last)
  std::vector<uint64_t> rowInclusive;  // per row
};

/// parent[n]: n's tree parent; nodeCount (the virtual root) or kNoNode for a top node.
/// rowOf(n): the node's row or kNoRow (pseudo-nodes). Iterative: any depth.
template <typename RowOf>
TreeSums SumTree(const HeapGraph& graph, const std::vector<NodeIndex>& parent, RowOf rowOf, uint32_t rowCount);

}  // namespace nettrace::heap

#include "heap/tree_sums_impl.h"
