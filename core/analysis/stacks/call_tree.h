// core/analysis/stacks — the selection of a stack query (SelectStacks: StackQuery →
// StackSelection, analysis/stacks/stack_selection.h; TraceEvent's thread time is selected by
// traceevent_thread_time.h) and the call tree over it. The call tree aggregates the
// selection's distinct (thread, call stack) pairs, so its cost is proportional to distinct
// stacks, not to events. Invariants: node 0 is the root "ROOT" (inclusive = the
// selection's total weight); parent(n) < n; a node's inclusive weight is its exclusive
// weight plus its children's inclusive weights.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "analysis/stacks/stack_selection.h"

namespace nettrace {

StackSelection SelectStacks(const TraceModel& model, const SymbolCollector& symbols, StackResolver* resolver,
                            const StackQuery& query);

struct CallTreeNode {
  uint32_t frame = 0;
  uint32_t parent = 0;
  uint32_t depth = 0;
  uint64_t inclusive = 0;
  uint64_t exclusive = 0;
  uint64_t count = 0;  // events whose path passes through the node
};

// Children of every node as one array: node n's are children[offsets[n] .. offsets[n+1]).
struct ChildLists {
  std::vector<uint32_t> offsets;
  std::vector<uint32_t> children;
};

class CallTree {
 public:
  explicit CallTree(uint32_t rootFrame);
  // Adds one path of frames (outermost first) with its weight and event count.
  void Add(const uint32_t* frames, size_t n, uint64_t weight, uint64_t count);
  // A new child of `parent` (no look-up: the caller knows it is new), and weight landing on a
  // node; SumUp then makes every inclusive weight and count whole. The way BuildCallTree
  // builds a tree from call stacks, which are interned already.
  uint32_t AddChild(uint32_t parent, uint32_t frame);
  void AddAt(uint32_t node, uint64_t weight, uint64_t count);
  void SumUp();
  const std::vector<CallTreeNode>& nodes() const { return nodes_; }
  // Children of every node, sorted by frame name (the flame graph's left-to-right order).
  ChildLists SortedChildren(const FrameTable& frames) const;

 private:
  std::vector<CallTreeNode> nodes_;
  FlatU64Map children_;  // (node << 32 | frame) → node (Add's)
};

// The call tree of a selection: root-first paths, or leaf-first when inverted; with
// groupByThread the thread frame is the outermost frame (the innermost when inverted).
CallTree BuildCallTree(const TraceModel& model, const StackSelection& selection, StackResolver* resolver,
                       bool inverted, bool groupByThread);

}  // namespace nettrace
