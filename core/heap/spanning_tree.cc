#include "heap/spanning_tree.h"

#include "heap/perfview_priorities.h"

namespace nettrace::heap {

namespace {

// PerfView's PriorityQueue: a max-heap whose children of i sit at 2i and 2i+1 (so slot 0
// is its own first child), sifted with its own comparisons; equal priorities come out in
// the order this layout gives, which the tree must reproduce.
class PriorityQueue {
 public:
  bool empty() const { return count_ == 0; }
  void Enqueue(NodeIndex value, float priority) {
    size_t idx = count_;
    if (idx >= heap_.size()) heap_.resize(heap_.size() * 3 / 2 + 8);
    heap_[idx] = Item{priority, value};
    count_ = idx + 1;
    for (;;) {
      const size_t parent = idx / 2;
      if (heap_[parent].priority >= heap_[idx].priority) break;
      std::swap(heap_[parent], heap_[idx]);
      if (parent == 0) break;
      idx = parent;
    }
  }
  NodeIndex Dequeue() {
    const NodeIndex ret = heap_[0].value;
    --count_;
    heap_[0] = heap_[count_];
    size_t idx = 0;
    for (;;) {
      size_t child = idx * 2, largest = idx;
      if (child < count_ && heap_[child].priority > heap_[largest].priority) largest = child;
      ++child;
      if (child < count_ && heap_[child].priority > heap_[largest].priority) largest = child;
      if (largest == idx) break;
      std::swap(heap_[idx], heap_[largest]);
      idx = largest;
    }
    return ret;
  }

 private:
  struct Item {
    float priority;
    NodeIndex value;
  };
  std::vector<Item> heap_ = std::vector<Item>(1024);
  size_t count_ = 0;
};

constexpr NodeIndex kInvalid = kNoNode;                // NodeIndex.Invalid
constexpr NodeIndex kOrphanVisited = kNoNode - 1;      // reached from another orphan
constexpr NodeIndex kOrphanVisiting = kNoNode - 2;     // on the current search path

// MarkDecendentsIgnoringCycles (the iterative one): marks every node reachable from
// `entry` that the tree has not reached, except `entry` itself, as reached from an orphan.
void MarkDescendants(const HeapGraph& graph, NodeIndex entry, std::vector<NodeIndex>& parent, std::vector<NodeIndex>& work) {
  work.clear();
  work.push_back(entry);
  while (!work.empty()) {
    const NodeIndex n = work.back();
    if (parent[n] == kOrphanVisiting) parent[n] = kOrphanVisited;
    if (parent[n] == kOrphanVisited) {
      work.pop_back();
      continue;
    }
    parent[n] = kOrphanVisiting;
    for (NodeIndex child : graph.ChildrenOf(n)) {
      if (parent[child] == kInvalid) work.push_back(child);
    }
  }
  parent[entry] = kInvalid;
}

// AddOrphansToQueue: orphans no other orphan reaches start the walk again, at their type's priority.
void AddOrphans(const HeapGraph& graph, const std::vector<float>& typePriority, std::vector<NodeIndex>& parent, PriorityQueue& queue) {
  const uint32_t n = graph.nodeCount();
  std::vector<NodeIndex> work;
  for (NodeIndex i = 0; i < n; ++i) {
    if (parent[i] == kInvalid) MarkDescendants(graph, i, parent, work);
  }
  for (NodeIndex i = 0; i < n; ++i) {
    if (parent[i] == kInvalid) {
      if (i != graph.root) {
        queue.Enqueue(i, typePriority[graph.nodeType[i]]);
        parent[i] = n;
      }
    } else if (parent[i] == kOrphanVisited || parent[i] == kOrphanVisiting) {
      parent[i] = kInvalid;
    }
  }
}

}  // namespace

SpanningTree BuildSpanningTree(const HeapGraph& graph) {
  const uint32_t n = graph.nodeCount();
  SpanningTree tree;
  if (n == 0) return tree;
  const std::vector<float> typePriority = DefaultTypePriorities(graph);
  std::vector<NodeIndex>& parent = tree.parent;
  parent.assign(n, kInvalid);
  std::vector<float> nodePriority(n, 0.0f);
  tree.order.reserve(n);
  PriorityQueue queue;
  queue.Enqueue(graph.root, 0.0f);
  bool scannedForOrphans = false;
  const float epsilon = 1E-7F;
  float order = 0;
  for (;;) {
    if (queue.empty()) {
      if (!scannedForOrphans) {
        scannedForOrphans = true;
        AddOrphans(graph, typePriority, parent, queue);
      }
      if (queue.empty()) break;
    }
    const NodeIndex node = queue.Dequeue();
    const float parentPriority = nodePriority[node];
    for (NodeIndex child : graph.ChildrenOf(node)) {
      if (parent[child] == kInvalid && child != graph.root) {
        parent[child] = node;
        const float childPriority = typePriority[graph.nodeType[child]] + parentPriority / 10;
        nodePriority[child] = childPriority;
        order += epsilon;  // a float sum, as PerfView's: large walks lose its increments
        queue.Enqueue(child, childPriority - order);
      }
    }
    tree.order.push_back(node);
  }
  parent[graph.root] = kNoNode;
  return tree;
}

}  // namespace nettrace::heap
