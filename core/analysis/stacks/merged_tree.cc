#include "analysis/stacks/merged_tree.h"

#include <algorithm>
#include <unordered_map>

#include "analysis/stacks/flame_graph.h"
#include "base/saturating.h"

namespace nettrace {

namespace {

// The merged tree before ordering: nodes as first met, children found by (parent, name).
struct Builder {
  size_t traces = 0;
  std::vector<std::string> names;
  std::unordered_map<std::string, uint32_t> nameIndex;
  std::vector<uint32_t> frame, parent;
  std::vector<uint64_t> inc, exc;
  std::unordered_map<uint64_t, uint32_t> children;

  uint32_t Name(const std::string& s) {
    auto [it, added] = nameIndex.emplace(s, static_cast<uint32_t>(names.size()));
    if (added) names.push_back(s);
    return it->second;
  }
  uint32_t Node(uint32_t parentNode, uint32_t name) {
    auto [it, added] = children.emplace(uint64_t{parentNode} << 32 | name, static_cast<uint32_t>(frame.size()));
    if (added) {
      frame.push_back(name), parent.push_back(parentNode);
      inc.resize(inc.size() + traces), exc.resize(exc.size() + traces);
    }
    return it->second;
  }
  void Add(const FlameGraph& g, size_t trace) {
    std::vector<uint32_t> merged(g.size());
    for (size_t i = 0; i < g.size(); ++i) {  // depth-first: a parent before its children
      merged[i] = i == 0 ? 0 : Node(merged[g.parent[i]], Name(g.frameNames[g.frame[i]]));
      uint64_t& in = inc[merged[i] * traces + trace];
      uint64_t& ex = exc[merged[i] * traces + trace];
      in = SatAdd(in, g.end[i] - g.start[i]), ex = SatAdd(ex, g.self[i]);
    }
  }
};

}  // namespace

MergedTree MergeFlameGraphs(const std::vector<const FlameGraph*>& graphs) {
  Builder b;
  b.traces = graphs.size();
  std::string rootName = "ROOT";
  for (const FlameGraph* g : graphs)
    if (g->size()) {
      rootName = g->frameNames[g->frame[0]];
      break;
    }
  b.frame.push_back(b.Name(rootName)), b.parent.push_back(0);
  b.inc.resize(b.traces), b.exc.resize(b.traces);
  MergedTree t;
  t.traces = graphs.size();
  for (size_t k = 0; k < graphs.size(); ++k) {
    if (graphs[k]->size()) b.Add(*graphs[k], k);
    t.totals.push_back(graphs[k]->total);
    t.units.push_back(graphs[k]->unit);
  }
  std::vector<std::vector<uint32_t>> kids(b.frame.size());
  for (uint32_t n = 1; n < b.frame.size(); ++n) kids[b.parent[n]].push_back(n);
  for (auto& k : kids)
    std::sort(k.begin(), k.end(), [&](uint32_t x, uint32_t y) { return b.names[b.frame[x]] < b.names[b.frame[y]]; });
  t.names = std::move(b.names);
  // Depth-first with an explicit stack (real stacks are deep enough to overflow wasm's).
  struct Item {
    uint32_t node, parentOut, depth;
  };
  std::vector<Item> todo{{0, 0, 0}};
  while (!todo.empty()) {
    const Item it = todo.back();
    todo.pop_back();
    const uint32_t out = static_cast<uint32_t>(t.frame.size());
    t.frame.push_back(b.frame[it.node]), t.parent.push_back(it.parentOut), t.depth.push_back(it.depth);
    t.inclusive.insert(t.inclusive.end(), b.inc.begin() + it.node * t.traces, b.inc.begin() + (it.node + 1) * t.traces);
    t.exclusive.insert(t.exclusive.end(), b.exc.begin() + it.node * t.traces, b.exc.begin() + (it.node + 1) * t.traces);
    for (auto c = kids[it.node].rbegin(); c != kids[it.node].rend(); ++c) todo.push_back({*c, out, it.depth + 1});
  }
  return t;
}

MergedFunctions FunctionsOfMergedTree(const MergedTree& t) {
  const size_t n = t.traces;
  std::vector<uint64_t> inc(t.names.size() * n), exc(t.names.size() * n);
  std::vector<bool> seen(t.names.size(), false);
  std::vector<uint32_t> onPath(t.names.size(), 0);  // occurrences on the current path
  std::vector<uint32_t> path;                       // nodes from the root to the current one
  for (uint32_t node = 1; node < t.size(); ++node) {  // depth-first: ancestors come first
    while (!path.empty() && t.depth[path.back()] >= t.depth[node]) --onPath[t.frame[path.back()]], path.pop_back();
    const uint32_t f = t.frame[node];
    seen[f] = true;
    for (size_t k = 0; k < n; ++k) {
      exc[f * n + k] = SatAdd(exc[f * n + k], t.Exclusive(node, k));
      if (onPath[f] == 0) inc[f * n + k] = SatAdd(inc[f * n + k], t.Inclusive(node, k));  // outermost only
    }
    ++onPath[f], path.push_back(node);
  }
  std::vector<uint32_t> order;
  for (uint32_t f = 0; f < t.names.size(); ++f)
    if (seen[f]) order.push_back(f);
  std::sort(order.begin(), order.end(), [&](uint32_t x, uint32_t y) { return t.names[x] < t.names[y]; });
  MergedFunctions out;
  out.traces = n;
  for (uint32_t f : order) {
    out.frame.push_back(f);
    out.inclusive.insert(out.inclusive.end(), inc.begin() + f * n, inc.begin() + (f + 1) * n);
    out.exclusive.insert(out.exclusive.end(), exc.begin() + f * n, exc.begin() + (f + 1) * n);
  }
  return out;
}

}  // namespace nettrace
