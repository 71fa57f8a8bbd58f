// core/analysis/stacks — the call trees of several traces (or time ranges) merged into one:
// every side's root-first flame graph joined by frame-name path, each node keeping every
// side's inclusive and exclusive weight, and the per-function weights of every side taken
// from it (inclusive counts a function once per path, at its outermost occurrence, like
// TopFunctions; exclusive sums the nodes where it is the leaf). The A/B diff is the two-side
// case (stack_diff.h); a many-run comparison (verdict/run_comparison.h) merges every run.
// Invariants: node 0 is the root (each trace's inclusive there = its total); depth-first
// order, parent(n) < n, children by frame name; per trace, inclusive = exclusive + the
// children's inclusive.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "analysis/stacks/call_tree.h"

namespace nettrace {

struct FlameGraph;

struct MergedTree {
  size_t traces = 0;
  std::vector<std::string> names;  // frame index → name (node 0's is the root's)
  std::vector<uint32_t> frame, parent, depth;
  // Per node, per trace: [node * traces + trace].
  std::vector<uint64_t> inclusive, exclusive;
  std::vector<uint64_t> totals;   // per trace: its root's inclusive weight
  std::vector<WeightUnit> units;  // per trace
  size_t size() const { return frame.size(); }
  uint64_t Inclusive(size_t node, size_t trace) const { return inclusive[node * traces + trace]; }
  uint64_t Exclusive(size_t node, size_t trace) const { return exclusive[node * traces + trace]; }
};

// Merges the graphs (root first, not inverted), trace k being graphs[k].
MergedTree MergeFlameGraphs(const std::vector<const FlameGraph*>& graphs);

// Per function (a frame name other than the root's), per trace.
struct MergedFunctions {
  size_t traces = 0;
  std::vector<uint32_t> frame;                // index into MergedTree::names, by name
  std::vector<uint64_t> inclusive, exclusive;  // [function * traces + trace]
  size_t size() const { return frame.size(); }
};
MergedFunctions FunctionsOfMergedTree(const MergedTree& tree);

}  // namespace nettrace
