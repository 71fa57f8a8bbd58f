// core/analysis — A/B comparison of two stack views: A is the baseline, B the
// comparison; two traces, or two time ranges of one. The inputs are the two sides'
// root-first flame graphs (TraceSession::BuildFlameGraph), so whatever a side's query
// selects and however it weighs (thread time, stitching, grouping) the diff compares the
// same trees the flame graph shows.
//
// The result is a merged call tree over root-first frame-name paths, with each node's
// inclusive and exclusive weight on both sides, laid out for drawing on B's weights the
// way differential flame graphs are (Brendan Gregg's difffolded/flamegraph --negate
// draws the second profile's widths and colours by change). A node present only in A has
// B weight 0 and so zero width (start == end, at its place among its siblings): a view
// cannot draw it as a box and shows it through the function table instead.
// Invariants: node 0 is the root on both sides (inclusive = each side's total);
// parent(n) < n, depth-first order, children by frame name; inclusive = exclusive +
// children's inclusive on each side.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "analysis/stacks/call_tree.h"
#include "analysis/stacks/merged_tree.h"

namespace nettrace {

struct FlameGraph;

struct StackDiff {
  MergedTree tree;                   // trace 0 is A (the baseline), trace 1 is B (the comparison)
  std::vector<uint64_t> start, end;  // per node: x span on B's weights, [0, TotalB())
  size_t size() const { return tree.size(); }
  uint64_t InclusiveA(size_t node) const { return tree.Inclusive(node, 0); }
  uint64_t ExclusiveA(size_t node) const { return tree.Exclusive(node, 0); }
  uint64_t InclusiveB(size_t node) const { return tree.Inclusive(node, 1); }
  uint64_t ExclusiveB(size_t node) const { return tree.Exclusive(node, 1); }
  uint64_t TotalA() const { return tree.totals[0]; }
  uint64_t TotalB() const { return tree.totals[1]; }
};

// Share of a side's total (0 when the total is 0).
inline double Share(uint64_t w, uint64_t total) {
  return total ? static_cast<double>(w) / static_cast<double>(total) : 0.0;
}

// Merges two root-first flame graphs (not inverted) by frame-name path.
StackDiff DiffFlameGraphs(const FlameGraph& a, const FlameGraph& b);

struct FunctionDiff {
  uint32_t frame = 0;  // index into StackDiff::tree.names
  // Inclusive counts a function once per path (its outermost occurrence), like
  // TopFunctions; exclusive sums the nodes where it is the leaf.
  uint64_t inclusiveA = 0, exclusiveA = 0, inclusiveB = 0, exclusiveB = 0;
  double inclusiveDelta = 0, exclusiveDelta = 0;  // share in B − share in A
};

// Every function (frame name, the root excluded) of either side, by |exclusiveDelta|
// descending, then |inclusiveDelta| descending, then name.
std::vector<FunctionDiff> DiffFunctions(const StackDiff& diff);

// {"baseline":{"unit","total"},"comparison":{"unit","total"},"functions":[{"name",
//  "inclusiveA","inclusiveB","exclusiveA","exclusiveB","inclusiveDelta","exclusiveDelta"}
//  ...at most maxFunctions],"tree":{"layout":..., "frames":[...],"frame","parent","depth",
//  "inclusiveA","exclusiveA","inclusiveB","exclusiveB","start","end","delta"}}.
// Deltas are shares (fractions of each side's total) printed with 9 decimals; a node's
// "delta" is its inclusive share in B minus that in A.
std::string StackDiffToJson(const StackDiff& diff, const std::vector<FunctionDiff>& functions, size_t maxFunctions);

// difffolded.pl's format: "a;b;c weightA weightB" per root-first path with exclusive
// weight on either side (the root itself left out), sorted.
std::string StackDiffToFolded(const StackDiff& diff);

}  // namespace nettrace
