#include "heap/dominators.h"

namespace nettrace::heap {

namespace {

constexpr uint32_t kNone = ~uint32_t{0};

// Predecessor lists of the graph plus the virtual root's edges, in compressed rows.
struct Predecessors {
  std::vector<uint32_t> first;
  std::vector<NodeIndex> nodes;
};

Predecessors BuildPredecessors(const HeapGraph& graph, NodeIndex virtualRoot, const std::vector<NodeIndex>& starts) {
  const uint32_t n = graph.nodeCount();
  Predecessors p;
  p.first.assign(size_t{n} + 2, 0);
  for (NodeIndex c : graph.children) ++p.first[c + 1];
  for (NodeIndex s : starts) ++p.first[s + 1];
  for (uint32_t i = 1; i <= n + 1; ++i) p.first[i] += p.first[i - 1];
  p.nodes.resize(p.first[n + 1]);
  std::vector<uint32_t> fill(p.first.begin(), p.first.end() - 1);
  for (NodeIndex v = 0; v < n; ++v) {
    for (NodeIndex c : graph.ChildrenOf(v)) p.nodes[fill[c]++] = v;
  }
  for (NodeIndex s : starts) p.nodes[fill[s]++] = virtualRoot;
  return p;
}

}  // namespace

Dominators BuildDominators(const HeapGraph& graph, const std::vector<NodeIndex>& extraRoots) {
  const uint32_t n = graph.nodeCount();
  const NodeIndex virtualRoot = n;
  Dominators d;
  std::vector<NodeIndex> starts;
  if (n > 0) starts.push_back(graph.root);
  starts.insert(starts.end(), extraRoots.begin(), extraRoots.end());

  // Iterative DFS from the virtual root: preorder numbers (1-based; 0 = not reached).
  std::vector<uint32_t> number(size_t{n} + 1, 0);
  std::vector<NodeIndex>& vertex = d.preorder;  // by number - 1
  std::vector<uint32_t> dfsParent;              // by number - 1: the parent's number
  vertex.reserve(size_t{n} + 1);
  dfsParent.reserve(size_t{n} + 1);
  {
    struct Frame {
      NodeIndex node;
      uint32_t next;
    };
    std::vector<Frame> stack;
    number[virtualRoot] = 1;
    vertex.push_back(virtualRoot);
    dfsParent.push_back(0);
    stack.push_back({virtualRoot, 0});
    while (!stack.empty()) {
      Frame& f = stack.back();
      const bool isVirtual = f.node == virtualRoot;
      const uint32_t degree = isVirtual ? static_cast<uint32_t>(starts.size()) : graph.firstChild[f.node + 1] - graph.firstChild[f.node];
      if (f.next == degree) {
        stack.pop_back();
        continue;
      }
      const NodeIndex child = isVirtual ? starts[f.next] : graph.children[graph.firstChild[f.node] + f.next];
      ++f.next;
      if (number[child] != 0) continue;
      const uint32_t parentNumber = number[f.node];
      vertex.push_back(child);
      dfsParent.push_back(parentNumber);
      number[child] = static_cast<uint32_t>(vertex.size());
      stack.push_back({child, 0});
    }
  }
  const uint32_t count = static_cast<uint32_t>(vertex.size());

  // Semidominators, in reverse preorder (Lengauer–Tarjan's simple eval with compression).
  const Predecessors preds = BuildPredecessors(graph, virtualRoot, starts);
  std::vector<uint32_t> semi(count + 1), label(count + 1), ancestor(count + 1, 0);
  for (uint32_t v = 1; v <= count; ++v) semi[v] = label[v] = v;
  std::vector<uint32_t> path;
  auto eval = [&](uint32_t v) -> uint32_t {
    if (ancestor[v] == 0) return v;
    path.clear();  // compress v's ancestor chain, top-down
    for (uint32_t x = v; ancestor[ancestor[x]] != 0; x = ancestor[x]) path.push_back(x);
    for (size_t i = path.size(); i-- > 0;) {
      const uint32_t x = path[i], a = ancestor[x];
      if (semi[label[a]] < semi[label[x]]) label[x] = label[a];
      ancestor[x] = ancestor[a];
    }
    return label[v];
  };
  for (uint32_t w = count; w >= 2; --w) {
    const NodeIndex node = vertex[w - 1];
    for (uint32_t k = preds.first[node]; k < preds.first[node + 1]; ++k) {
      const uint32_t v = number[preds.nodes[k]];
      if (v == 0) continue;  // a predecessor nobody reaches
      const uint32_t u = eval(v);
      if (semi[u] < semi[w]) semi[w] = semi[u];
    }
    ancestor[w] = dfsParent[w - 1];
  }
  std::vector<uint32_t>().swap(label);

  // Immediate dominators: the nearest common ancestor of parent and semidominator.
  std::vector<uint32_t>& idom = ancestor;  // reused
  idom[1] = 1;
  for (uint32_t w = 2; w <= count; ++w) {
    uint32_t x = dfsParent[w - 1];
    while (x > semi[w]) x = idom[x];
    idom[w] = x;
  }
  d.idom.assign(size_t{n} + 1, kNone);
  for (uint32_t w = 2; w <= count; ++w) d.idom[vertex[w - 1]] = vertex[idom[w] - 1];
  d.idom[virtualRoot] = kNone;
  d.idom.resize(n);
  return d;
}

}  // namespace nettrace::heap
