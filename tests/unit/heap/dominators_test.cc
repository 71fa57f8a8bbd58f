// Dominators and retained sizes against a brute-force definition on random graphs (a node's
// dominators are those whose removal cuts it off from the root), a ten-million-long chain
// (no recursion anywhere), and PerfView's pattern matcher for the spanning tree's priorities.
#include <catch2/catch.hpp>

#include <random>

#include "heap/dominators.h"
#include "heap/perfview_priorities.h"
#include "heap/spanning_tree.h"

namespace nettrace::test {
namespace {

using heap::HeapGraph;
using heap::NodeIndex;

HeapGraph MakeGraph(uint32_t n, const std::vector<std::vector<NodeIndex>>& edges) {
  HeapGraph g;
  g.types.push_back({"T", "", 8});
  g.nodeType.assign(n, 0);
  g.nodeSize.assign(n, 8);
  g.nodeAddress.resize(n);
  for (uint32_t i = 0; i < n; ++i) g.nodeAddress[i] = 0x1000 + 8 * i;
  g.firstChild.push_back(0);
  for (uint32_t i = 0; i < n; ++i) {
    g.children.insert(g.children.end(), edges[i].begin(), edges[i].end());
    g.firstChild.push_back(static_cast<uint32_t>(g.children.size()));
  }
  g.root = 0;
  return g;
}

// Reached from the root without passing `removed` (kNoNode: nothing removed).
std::vector<bool> Reach(const HeapGraph& g, NodeIndex removed) {
  std::vector<bool> seen(g.nodeCount(), false);
  if (removed == g.root) return seen;
  std::vector<NodeIndex> stack{g.root};
  seen[g.root] = true;
  while (!stack.empty()) {
    const NodeIndex v = stack.back();
    stack.pop_back();
    for (NodeIndex c : g.ChildrenOf(v)) {
      if (c != removed && !seen[c]) seen[c] = true, stack.push_back(c);
    }
  }
  return seen;
}

TEST_CASE("heap: immediate dominators equal the brute-force definition on random graphs", "[heap]") {
  std::mt19937 rng(12345);
  for (int round = 0; round < 200; ++round) {
    const uint32_t n = 2 + rng() % 40;
    std::vector<std::vector<NodeIndex>> edges(n);
    const uint32_t m = rng() % (3 * n);
    for (uint32_t e = 0; e < m; ++e) edges[rng() % n].push_back(rng() % n);
    const HeapGraph g = MakeGraph(n, edges);
    const heap::Dominators d = heap::BuildDominators(g, {});
    const std::vector<bool> reached = Reach(g, heap::kNoNode);
    // dominates[u][v]: removing u cuts v off.
    std::vector<std::vector<bool>> cut(n);
    for (NodeIndex u = 0; u < n; ++u) cut[u] = Reach(g, u);
    for (NodeIndex v = 0; v < n; ++v) {
      INFO("round " << round << " node " << v);
      if (!reached[v] || v == g.root) continue;
      // The immediate dominator: a strict dominator that every other strict dominator dominates.
      NodeIndex expected = heap::kNoNode;
      for (NodeIndex u = 0; u < n; ++u) {
        if (u == v || cut[u][v] || !reached[u]) continue;  // u does not dominate v
        // u is the immediate dominator when every strict dominator w of v also dominates u.
        bool all = true;
        for (NodeIndex w = 0; w < n && all; ++w) {
          if (w == u || w == v || !reached[w] || cut[w][v]) continue;  // w not a strict dominator of v
          if (cut[w][u] && w != u) all = false;                       // w does not dominate u
        }
        if (all) expected = u;
      }
      CHECK(d.idom[v] == expected);
    }
  }
}

TEST_CASE("heap: a ten-million-node chain needs no recursion", "[heap]") {
  const uint32_t n = 10'000'000;
  HeapGraph g;
  g.types.push_back({"Link", "", 24});
  g.nodeType.assign(n, 0);
  g.nodeSize.assign(n, 24);
  g.nodeAddress.assign(n, 1);
  g.firstChild.resize(size_t{n} + 1);
  g.children.resize(n - 1);
  for (uint32_t i = 0; i < n; ++i) g.firstChild[i] = std::min(i, n - 1);
  g.firstChild[n] = n - 1;
  for (uint32_t i = 0; i + 1 < n; ++i) g.children[i] = i + 1;
  REQUIRE(g.Check().ok());
  const heap::Dominators d = heap::BuildDominators(g, {});
  CHECK(d.idom[n - 1] == n - 2);
  const heap::SpanningTree t = heap::BuildSpanningTree(g);
  CHECK(t.parent[n - 1] == n - 2);
}

TEST_CASE("heap: PerfView's priority patterns", "[heap]") {
  CHECK(heap::PerfViewPatternMatches("[*local vars]", "[local vars]"));
  CHECK(heap::PerfViewPatternMatches("[*handles]", "[pinning Handles]"));
  CHECK(heap::PerfViewPatternMatches("[*handles]", "[Dependent Handles]"));
  CHECK_FALSE(heap::PerfViewPatternMatches("[*handles]", "[static vars]"));
  CHECK(heap::PerfViewPatternMatches("v4.0.30319\\%!", "C:\\Windows\\v4.0.30319\\mscorlib.dll!System.String"));
  CHECK_FALSE(heap::PerfViewPatternMatches("v4.0.30319\\%!", "v4.0.30319\\a b!x"));  // % stops at the space
  CHECK(heap::PerfViewPatternMatches("[other roots]", "[OTHER ROOTS]"));
}

}  // namespace
}  // namespace nettrace::test
