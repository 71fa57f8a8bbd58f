#include "analysis/stacks/stack_diff.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>

#include "analysis/stacks/flame_graph.h"
#include "base/json_writer.h"
#include "base/saturating.h"

namespace nettrace {

namespace {

// The merged tree before layout: nodes in the order first met, children found by
// (parent, frame name) key.
struct RawTree {
  std::vector<std::string> names;
  std::unordered_map<std::string, uint32_t> nameIndex;
  std::vector<uint32_t> frame, parent, depth;
  std::vector<uint64_t> inc[2], exc[2];
  std::unordered_map<uint64_t, uint32_t> children;

  uint32_t Name(const std::string& s) {
    auto [it, added] = nameIndex.emplace(s, static_cast<uint32_t>(names.size()));
    if (added) names.push_back(s);
    return it->second;
  }
  uint32_t Node(uint32_t parentNode, uint32_t name) {
    auto [it, added] = children.emplace(uint64_t{parentNode} << 32 | name, static_cast<uint32_t>(frame.size()));
    if (added) NewNode(name, parentNode, depth[parentNode] + 1);
    return it->second;
  }
  void NewNode(uint32_t name, uint32_t parentNode, uint32_t d) {
    frame.push_back(name), parent.push_back(parentNode), depth.push_back(d);
    for (int s = 0; s < 2; ++s) inc[s].push_back(0), exc[s].push_back(0);
  }
  // Adds one side's graph; its nodes are in depth-first order (parent before child).
  void AddSide(const FlameGraph& g, int side) {
    std::vector<uint32_t> merged(g.size());
    for (size_t i = 0; i < g.size(); ++i) {
      merged[i] = i == 0 ? 0 : Node(merged[g.parent[i]], Name(g.frameNames[g.frame[i]]));
      inc[side][merged[i]] = SatAdd(inc[side][merged[i]], g.end[i] - g.start[i]);
      exc[side][merged[i]] = SatAdd(exc[side][merged[i]], g.self[i]);
    }
  }
};

// Rounds away the sign of a delta that prints as zero, so "-0.000000000" never appears.
double Printable(double delta) { return std::fabs(delta) < 5e-10 ? 0.0 : delta; }

}  // namespace

StackDiff DiffFlameGraphs(const FlameGraph& a, const FlameGraph& b) {
  RawTree raw;
  raw.NewNode(raw.Name(a.size() ? a.frameNames[a.frame[0]] : b.size() ? b.frameNames[b.frame[0]] : "ROOT"), 0, 0);
  if (a.size()) raw.AddSide(a, 0);
  if (b.size()) raw.AddSide(b, 1);
  std::vector<std::vector<uint32_t>> kids(raw.frame.size());
  for (uint32_t n = 1; n < raw.frame.size(); ++n) kids[raw.parent[n]].push_back(n);
  for (auto& k : kids)
    std::sort(k.begin(), k.end(), [&](uint32_t x, uint32_t y) { return raw.names[raw.frame[x]] < raw.names[raw.frame[y]]; });

  StackDiff d;
  d.frameNames = raw.names;
  d.totalA = a.total, d.totalB = b.total, d.unitA = a.unit, d.unitB = b.unit;
  struct Item {
    uint32_t node, parentOut;
    uint64_t start;
  };
  // Explicit stack: real stacks are deep enough to overflow the call stack in wasm.
  std::vector<Item> todo{{0, 0, 0}};
  std::vector<Item> children;
  while (!todo.empty()) {
    const Item it = todo.back();
    todo.pop_back();
    const uint32_t n = it.node;
    const uint32_t out = static_cast<uint32_t>(d.frame.size());
    d.frame.push_back(raw.frame[n]), d.parent.push_back(n == 0 ? 0 : it.parentOut), d.depth.push_back(raw.depth[n]);
    d.inclusiveA.push_back(raw.inc[0][n]), d.exclusiveA.push_back(raw.exc[0][n]);
    d.inclusiveB.push_back(raw.inc[1][n]), d.exclusiveB.push_back(raw.exc[1][n]);
    d.start.push_back(it.start), d.end.push_back(SatAdd(it.start, raw.inc[1][n]));
    // Children flush left under their parent on B's widths; A-only ones have width 0.
    uint64_t x = it.start;
    children.clear();
    for (uint32_t c : kids[n]) {
      children.push_back({c, out, x});
      x = SatAdd(x, raw.inc[1][c]);
    }
    todo.insert(todo.end(), children.rbegin(), children.rend());  // leftmost popped first
  }
  return d;
}

std::vector<FunctionDiff> DiffFunctions(const StackDiff& d) {
  std::vector<FunctionDiff> byFrame(d.frameNames.size());
  std::vector<uint32_t> onPath(d.frameNames.size(), 0);  // occurrences on the current path
  std::vector<uint32_t> path;                            // nodes from the root to the current one
  std::vector<bool> seen(d.frameNames.size(), false);
  for (uint32_t n = 1; n < d.size(); ++n) {  // depth-first order: ancestors come first
    while (!path.empty() && d.depth[path.back()] >= d.depth[n]) --onPath[d.frame[path.back()]], path.pop_back();
    FunctionDiff& f = byFrame[d.frame[n]];
    seen[d.frame[n]] = true;
    f.exclusiveA = SatAdd(f.exclusiveA, d.exclusiveA[n]), f.exclusiveB = SatAdd(f.exclusiveB, d.exclusiveB[n]);
    if (onPath[d.frame[n]] == 0)  // outermost occurrence: recursion is not counted twice
      f.inclusiveA = SatAdd(f.inclusiveA, d.inclusiveA[n]), f.inclusiveB = SatAdd(f.inclusiveB, d.inclusiveB[n]);
    ++onPath[d.frame[n]], path.push_back(n);
  }
  std::vector<FunctionDiff> out;
  for (uint32_t i = 0; i < byFrame.size(); ++i) {
    if (!seen[i]) continue;
    FunctionDiff f = byFrame[i];
    f.frame = i;
    f.inclusiveDelta = Share(f.inclusiveB, d.totalB) - Share(f.inclusiveA, d.totalA);
    f.exclusiveDelta = Share(f.exclusiveB, d.totalB) - Share(f.exclusiveA, d.totalA);
    out.push_back(f);
  }
  std::sort(out.begin(), out.end(), [&](const FunctionDiff& x, const FunctionDiff& y) {
    if (std::fabs(x.exclusiveDelta) != std::fabs(y.exclusiveDelta))
      return std::fabs(x.exclusiveDelta) > std::fabs(y.exclusiveDelta);
    if (std::fabs(x.inclusiveDelta) != std::fabs(y.inclusiveDelta))
      return std::fabs(x.inclusiveDelta) > std::fabs(y.inclusiveDelta);
    return d.frameNames[x.frame] < d.frameNames[y.frame];
  });
  return out;
}

std::string StackDiffToJson(const StackDiff& d, const std::vector<FunctionDiff>& functions, size_t maxFunctions) {
  JsonWriter w;
  w.BeginObject();
  w.Key("baseline").BeginObject().Key("unit").String(WeightUnitName(d.unitA)).Key("total").UInt(d.totalA).EndObject();
  w.Key("comparison").BeginObject().Key("unit").String(WeightUnitName(d.unitB)).Key("total").UInt(d.totalB).EndObject();
  w.Key("functions").BeginArray();
  for (size_t i = 0; i < functions.size() && i < maxFunctions; ++i) {
    const FunctionDiff& f = functions[i];
    w.BeginObject().Key("name").String(d.frameNames[f.frame]);
    w.Key("inclusiveA").UInt(f.inclusiveA).Key("inclusiveB").UInt(f.inclusiveB);
    w.Key("exclusiveA").UInt(f.exclusiveA).Key("exclusiveB").UInt(f.exclusiveB);
    w.Key("inclusiveDelta").Fixed(Printable(f.inclusiveDelta), 9);
    w.Key("exclusiveDelta").Fixed(Printable(f.exclusiveDelta), 9);
    w.EndObject();
  }
  w.EndArray();
  w.Key("tree").BeginObject();
  w.Key("layout").String(
      "x spans are on the comparison's (B's) inclusive weights; a node only in the baseline "
      "has start == end (zero width) and is listed in functions");
  w.Key("frames").BeginArray();
  for (const std::string& s : d.frameNames) w.String(s);
  w.EndArray();
  auto column = [&](const char* name, const auto& v) {
    w.Key(name).BeginArray();
    for (auto x : v) w.UInt(x);
    w.EndArray();
  };
  column("frame", d.frame), column("parent", d.parent), column("depth", d.depth);
  column("inclusiveA", d.inclusiveA), column("exclusiveA", d.exclusiveA);
  column("inclusiveB", d.inclusiveB), column("exclusiveB", d.exclusiveB);
  column("start", d.start), column("end", d.end);
  w.Key("delta").BeginArray();
  for (size_t n = 0; n < d.size(); ++n)
    w.Fixed(Printable(Share(d.inclusiveB[n], d.totalB) - Share(d.inclusiveA[n], d.totalA)), 9);
  w.EndArray();
  w.EndObject().EndObject();
  return w.Take();
}

std::string StackDiffToFolded(const StackDiff& d) {
  std::vector<std::string> lines;
  // Depth-first order: one path text, cut back to the parent's length at each node.
  std::string path;
  std::vector<size_t> lengthAtDepth{0};  // path length up to and including depth i
  for (uint32_t n = 1; n < d.size(); ++n) {
    lengthAtDepth.resize(d.depth[n]);
    path.resize(lengthAtDepth.back());
    if (!path.empty()) path += ';';
    path += d.frameNames[d.frame[n]];
    lengthAtDepth.push_back(path.size());
    if (d.exclusiveA[n] == 0 && d.exclusiveB[n] == 0) continue;
    lines.push_back(path + ' ' + std::to_string(d.exclusiveA[n]) + ' ' + std::to_string(d.exclusiveB[n]));
  }
  std::sort(lines.begin(), lines.end());
  std::string out;
  for (const std::string& l : lines) out += l + '\n';
  return out;
}

}  // namespace nettrace
