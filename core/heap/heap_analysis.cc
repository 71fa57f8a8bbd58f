#include "heap/heap_analysis.h"

#include <unordered_map>

#include "heap/dominators.h"
#include "heap/spanning_tree.h"

namespace nettrace::heap {

namespace {

void BuildRows(const HeapGraph& g, HeapAnalysis* a) {
  std::unordered_map<std::string, uint32_t> byKey;
  a->rowOfType.resize(g.types.size());
  for (TypeIndex t = 0; t < g.types.size(); ++t) {
    const std::string key = g.types[t].name + '\x01' + g.types[t].module;
    auto [it, added] = byKey.emplace(key, static_cast<uint32_t>(a->rows.size()));
    if (added) a->rows.push_back(TypeRow{g.types[t].name, g.types[t].module});
    a->rowOfType[t] = it->second;
  }
  for (NodeIndex n = 0; n < g.nodeCount(); ++n) {
    const uint32_t row = a->RowOf(g, n);
    if (row == kNoRow) continue;
    ++a->rows[row].count;
    a->rows[row].size += g.nodeSize[n];
    ++a->objects;
    a->bytes += g.nodeSize[n];
  }
}

// Breadth-first from the root: each node's parent on one shortest path (ties to the
// first child in the file's order).
std::vector<NodeIndex> ShortestPaths(const HeapGraph& g) {
  std::vector<NodeIndex> parent(g.nodeCount(), kNoNode);
  if (g.nodeCount() == 0) return parent;
  std::vector<NodeIndex> queue;
  queue.reserve(g.nodeCount());
  queue.push_back(g.root);
  parent[g.root] = g.root;
  for (size_t head = 0; head < queue.size(); ++head) {
    const NodeIndex v = queue[head];
    for (NodeIndex c : g.ChildrenOf(v)) {
      if (parent[c] != kNoNode) continue;
      parent[c] = v;
      queue.push_back(c);
    }
  }
  return parent;
}

}  // namespace

HeapAnalysis HeapAnalysis::Run(const HeapGraph& g, const std::function<void(const char*)>& phase) {
  auto step = [&](const char* name) {
    if (phase) phase(name);
  };
  HeapAnalysis a;
  BuildRows(g, &a);
  const uint32_t n = g.nodeCount();
  auto rowOf = [&](NodeIndex v) { return a.RowOf(g, v); };
  std::vector<uint64_t> treeInclusive;  // spanning-tree subtree sizes, for the root categories
  std::vector<NodeIndex> orphanRoots;
  {
    step("spanning tree");
    SpanningTree tree = BuildSpanningTree(g);
    for (NodeIndex v = 0; v < n; ++v) {
      if (tree.parent[v] == n) orphanRoots.push_back(v);
    }
    std::vector<NodeIndex>().swap(tree.order);
    TreeSums sums = SumTree(g, tree.parent, rowOf, static_cast<uint32_t>(a.rows.size()));
    for (size_t r = 0; r < a.rows.size(); ++r) a.rows[r].inclusive = sums.rowInclusive[r];
    treeInclusive = std::move(sums.subtree);
  }
  {
    step("dominators");
    Dominators dom = BuildDominators(g, orphanRoots);
    std::vector<NodeIndex>().swap(dom.preorder);
    step("retained sizes");
    TreeSums sums = SumTree(g, dom.idom, rowOf, static_cast<uint32_t>(a.rows.size()));
    for (size_t r = 0; r < a.rows.size(); ++r) a.rows[r].retained = sums.rowInclusive[r];
    sums.subtree.resize(n);
    a.retained = std::move(sums.subtree);
  }
  step("paths from roots");
  a.pathParent = ShortestPaths(g);
  for (NodeIndex v = 0; v < n; ++v) {
    if (a.pathParent[v] == kNoNode && g.nodeAddress[v] != 0) {
      ++a.unreachableObjects;
      a.unreachableBytes += g.nodeSize[v];
    }
  }
  if (n > 0) {
    for (NodeIndex c : g.ChildrenOf(g.root)) {
      if (g.nodeAddress[c] != 0) continue;
      a.roots.push_back(RootCategory{c, g.types[g.nodeType[c]].name, a.retained[c], treeInclusive[c]});
    }
  }
  return a;
}

std::string HeapAnalysis::RootPath(const HeapGraph& g, NodeIndex n) const {
  if (pathParent[n] == kNoNode) return "[not reachable from roots]";
  std::vector<NodeIndex> pseudo;
  for (NodeIndex v = n; v != g.root; v = pathParent[v]) {
    if (g.nodeAddress[v] == 0) pseudo.push_back(v);
  }
  std::string path;
  for (size_t i = pseudo.size(); i-- > 0;) {
    if (!path.empty()) path += " / ";
    path += g.types[g.nodeType[pseudo[i]]].name;
  }
  return path;
}

uint64_t HeapAnalysis::MemoryBytes() const {
  uint64_t bytes = retained.capacity() * 8 + pathParent.capacity() * 4 + rowOfType.capacity() * 4;
  for (const TypeRow& r : rows) bytes += sizeof(TypeRow) + r.name.capacity() + r.module.capacity();
  return bytes;
}

}  // namespace nettrace::heap
