#include "analysis/stacks/stack_diff.h"

#include <algorithm>
#include <cmath>

#include "analysis/stacks/flame_graph.h"
#include "base/json_writer.h"
#include "base/saturating.h"

namespace nettrace {

namespace {

// Rounds away the sign of a delta that prints as zero, so "-0.000000000" never appears.
double Printable(double delta) { return std::fabs(delta) < 5e-10 ? 0.0 : delta; }

}  // namespace

StackDiff DiffFlameGraphs(const FlameGraph& a, const FlameGraph& b) {
  StackDiff d;
  d.tree = MergeFlameGraphs({&a, &b});
  // Children flush left under their parent on B's widths; A-only ones have width 0. The
  // tree is depth-first with children in drawing order, so each node starts where its
  // previous sibling ended (or where its parent starts).
  std::vector<uint64_t> next(d.size(), 0);  // per node: where its next child starts
  d.start.resize(d.size()), d.end.resize(d.size());
  for (size_t n = 0; n < d.size(); ++n) {
    const uint64_t x = n == 0 ? 0 : next[d.tree.parent[n]];
    d.start[n] = x, d.end[n] = SatAdd(x, d.InclusiveB(n)), next[n] = x;
    if (n != 0) next[d.tree.parent[n]] = d.end[n];
  }
  return d;
}

std::vector<FunctionDiff> DiffFunctions(const StackDiff& d) {
  const MergedFunctions fns = FunctionsOfMergedTree(d.tree);
  std::vector<FunctionDiff> out;
  for (size_t i = 0; i < fns.size(); ++i) {
    FunctionDiff f;
    f.frame = fns.frame[i];
    f.inclusiveA = fns.inclusive[2 * i], f.inclusiveB = fns.inclusive[2 * i + 1];
    f.exclusiveA = fns.exclusive[2 * i], f.exclusiveB = fns.exclusive[2 * i + 1];
    f.inclusiveDelta = Share(f.inclusiveB, d.TotalB()) - Share(f.inclusiveA, d.TotalA());
    f.exclusiveDelta = Share(f.exclusiveB, d.TotalB()) - Share(f.exclusiveA, d.TotalA());
    out.push_back(f);
  }
  std::sort(out.begin(), out.end(), [&](const FunctionDiff& x, const FunctionDiff& y) {
    if (std::fabs(x.exclusiveDelta) != std::fabs(y.exclusiveDelta))
      return std::fabs(x.exclusiveDelta) > std::fabs(y.exclusiveDelta);
    if (std::fabs(x.inclusiveDelta) != std::fabs(y.inclusiveDelta))
      return std::fabs(x.inclusiveDelta) > std::fabs(y.inclusiveDelta);
    return d.tree.names[x.frame] < d.tree.names[y.frame];
  });
  return out;
}

std::string StackDiffToJson(const StackDiff& d, const std::vector<FunctionDiff>& functions, size_t maxFunctions) {
  JsonWriter w;
  w.BeginObject();
  w.Key("baseline").BeginObject().Key("unit").String(WeightUnitName(d.tree.units[0])).Key("total").UInt(d.TotalA()).EndObject();
  w.Key("comparison").BeginObject().Key("unit").String(WeightUnitName(d.tree.units[1])).Key("total").UInt(d.TotalB()).EndObject();
  w.Key("functions").BeginArray();
  for (size_t i = 0; i < functions.size() && i < maxFunctions; ++i) {
    const FunctionDiff& f = functions[i];
    w.BeginObject().Key("name").String(d.tree.names[f.frame]);
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
  for (const std::string& s : d.tree.names) w.String(s);
  w.EndArray();
  auto column = [&](const char* name, const auto& v) {
    w.Key(name).BeginArray();
    for (auto x : v) w.UInt(x);
    w.EndArray();
  };
  auto perNode = [&](const char* name, uint64_t (StackDiff::*weight)(size_t) const) {
    w.Key(name).BeginArray();
    for (size_t n = 0; n < d.size(); ++n) w.UInt((d.*weight)(n));
    w.EndArray();
  };
  column("frame", d.tree.frame), column("parent", d.tree.parent), column("depth", d.tree.depth);
  perNode("inclusiveA", &StackDiff::InclusiveA), perNode("exclusiveA", &StackDiff::ExclusiveA);
  perNode("inclusiveB", &StackDiff::InclusiveB), perNode("exclusiveB", &StackDiff::ExclusiveB);
  column("start", d.start), column("end", d.end);
  w.Key("delta").BeginArray();
  for (size_t n = 0; n < d.size(); ++n)
    w.Fixed(Printable(Share(d.InclusiveB(n), d.TotalB()) - Share(d.InclusiveA(n), d.TotalA())), 9);
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
    lengthAtDepth.resize(d.tree.depth[n]);
    path.resize(lengthAtDepth.back());
    if (!path.empty()) path += ';';
    path += d.tree.names[d.tree.frame[n]];
    lengthAtDepth.push_back(path.size());
    if (d.ExclusiveA(n) == 0 && d.ExclusiveB(n) == 0) continue;
    lines.push_back(path + ' ' + std::to_string(d.ExclusiveA(n)) + ' ' + std::to_string(d.ExclusiveB(n)));
  }
  std::sort(lines.begin(), lines.end());
  std::string out;
  for (const std::string& l : lines) out += l + '\n';
  return out;
}

}  // namespace nettrace
