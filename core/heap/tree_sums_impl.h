// core/heap — SumTree's body (a template over the row lookup; tree_sums.h).
#pragma once

#include <vector>

namespace nettrace::heap {

template <typename RowOf>
TreeSums SumTree(const HeapGraph& graph, const std::vector<NodeIndex>& parent, RowOf rowOf, uint32_t rowCount) {
  const uint32_t n = graph.nodeCount();
  const NodeIndex top = n;
  auto parentOf = [&](NodeIndex v) { return parent[v] >= n ? top : parent[v]; };
  // The tree's children in compressed rows (n + 1 nodes: the virtual root last).
  std::vector<uint32_t> first(size_t{n} + 2, 0);
  for (NodeIndex v = 0; v < n; ++v) ++first[parentOf(v) + 1];
  for (uint32_t i = 1; i <= n + 1; ++i) first[i] += first[i - 1];
  std::vector<NodeIndex> kids(n);
  {
    std::vector<uint32_t> fill(first.begin(), first.end() - 1);
    for (NodeIndex v = 0; v < n; ++v) kids[fill[parentOf(v)]++] = v;
  }
  TreeSums sums;
  sums.subtree.assign(size_t{n} + 1, 0);
  sums.rowInclusive.assign(rowCount, 0);
  std::vector<uint32_t> active(rowCount, 0);  // nodes of the row on the current path
  struct Frame {
    NodeIndex node;
    uint32_t next;
    bool firstOfRow;
  };
  std::vector<Frame> stack;
  stack.push_back({top, first[top], false});
  while (!stack.empty()) {
    Frame& f = stack.back();
    if (f.next < first[f.node + 1]) {
      const NodeIndex child = kids[f.next++];
      const uint32_t row = rowOf(child);
      const bool firstOfRow = row != kNoRow && active[row]++ == 0;
      sums.subtree[child] = graph.nodeSize[child];
      stack.push_back({child, first[child], firstOfRow});
      continue;
    }
    const Frame done = f;
    stack.pop_back();
    if (done.node == top) break;
    const uint32_t row = rowOf(done.node);
    if (row != kNoRow) {
      --active[row];
      if (done.firstOfRow) sums.rowInclusive[row] += sums.subtree[done.node];
    }
    sums.subtree[stack.back().node] += sums.subtree[done.node];
  }
  return sums;
}

}  // namespace nettrace::heap
