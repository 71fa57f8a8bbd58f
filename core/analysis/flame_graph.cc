#include "analysis/flame_graph.h"

#include <algorithm>
#include <unordered_map>

#include "base/json_writer.h"
#include "base/saturating.h"

namespace nettrace {

FlameGraph LayoutFlameGraph(const CallTree& tree, const FrameTable& frames, WeightUnit unit) {
  FlameGraph g;
  g.unit = unit;
  const std::vector<CallTreeNode>& nodes = tree.nodes();
  g.total = nodes[0].inclusive;
  const ChildLists children = tree.SortedChildren(frames);
  std::unordered_map<uint32_t, uint32_t> localFrame;
  // Explicit stack (deep recursion in real stacks would overflow the call stack in wasm).
  struct Item {
    uint32_t node, parentOut;
    uint64_t start;
  };
  std::vector<Item> todo{{0, 0, 0}};
  while (!todo.empty()) {
    Item it = todo.back();
    todo.pop_back();
    const CallTreeNode& n = nodes[it.node];
    auto [lf, added] = localFrame.emplace(n.frame, static_cast<uint32_t>(g.frameNames.size()));
    if (added) g.frameNames.push_back(frames.name(n.frame)), g.frameDetails.push_back(frames.detail(n.frame));
    const uint32_t out = static_cast<uint32_t>(g.frame.size());
    g.frame.push_back(lf->second);
    g.parent.push_back(it.node == 0 ? 0 : it.parentOut);
    g.depth.push_back(n.depth);
    g.start.push_back(it.start);
    g.end.push_back(SatAdd(it.start, n.inclusive));
    g.self.push_back(std::min(n.exclusive, g.end.back() - it.start));  // clipped where saturated
    g.count.push_back(n.count);
    // Children sit flush left under their parent; its self weight is the gap on the right.
    uint64_t x = it.start;
    std::vector<Item> kids;
    for (uint32_t i = children.offsets[it.node]; i < children.offsets[it.node + 1]; ++i) {
      const uint32_t c = children.children[i];
      kids.push_back({c, out, x});
      x = SatAdd(x, nodes[c].inclusive);
    }
    todo.insert(todo.end(), kids.rbegin(), kids.rend());  // leftmost child popped first
  }
  return g;
}

std::string FlameGraphToJson(const FlameGraph& g) {
  JsonWriter w;
  w.BeginObject();
  w.Key("unit").String(WeightUnitName(g.unit));
  w.Key("total").UInt(g.total);
  w.Key("frames").BeginArray();
  for (const std::string& s : g.frameNames) w.String(s);
  w.EndArray();
  if (HasFrameDetails(g)) {
    w.Key("frameDetails").BeginArray();
    for (const std::string& d : g.frameDetails) w.String(d);
    w.EndArray();
  }
  auto column = [&](const char* name, const auto& v) {
    w.Key(name).BeginArray();
    for (auto x : v) w.UInt(x);
    w.EndArray();
  };
  column("frame", g.frame);
  column("parent", g.parent);
  column("depth", g.depth);
  column("start", g.start);
  column("end", g.end);
  column("self", g.self);
  column("count", g.count);
  if (g.stitching) {
    w.Key("asyncStitching").BeginObject();
    w.Key("state").String(g.stitching);
    if (g.stitchingReason) w.Key("reason").String(g.stitchingReason);
    w.EndObject();
  }
  w.EndObject();
  return w.Take();
}

}  // namespace nettrace
