#include "analysis/stacks/call_tree.h"

#include <algorithm>
#include <map>

#include "analysis/query/event_filter.h"
#include "analysis/query/event_query.h"
#include "analysis/stacks/traceevent_thread_time.h"
#include "base/saturating.h"
#include "events/trace_clock.h"

namespace nettrace {

namespace {

// The rows of [first, end) of a selected type and thread: at least as many as the selection
// keeps. Counted first so that the selection's four columns are allocated once, at their size:
// a flame graph of a multi-GB trace can select 100 M rows, 18 bytes each, and columns grown by
// doubling held up to twice that at once (a sampled 1.5 GB trace in wasm: the heap grew by
// 920 MB for 22 M rows), next to a store of ~1.7 GB in a wasm heap of at most 4 GB.
size_t CountCandidates(const EventStore& store, const std::vector<uint8_t>& typeOk, const std::vector<bool>& threadOk,
                       size_t first, size_t end) {
  size_t n = 0;
  for (size_t row = first; row < end; ++row)
    if (typeOk[store.type(row).value]) n += threadOk[store.thread(row).value];
  return n;
}

void Reserve(StackSelection* sel, size_t n) {
  sel->rows.reserve(n);
  sel->threads.reserve(n);
  sel->callStacks.reserve(n);
  sel->weights.reserve(n);
}

}  // namespace

StackSelection SelectStacks(const TraceModel& model, const SymbolCollector& symbols, StackResolver* resolver,
                            const StackQuery& q) {
  if (q.weight == WeightKind::kTraceEventThreadTime) return SelectTraceEventThreadTime(model, symbols, resolver, q);

  StackSelection sel;
  const EventStore& store = model.store();
  std::vector<uint8_t> typeOk(model.types().size());  // 0 no, 1 yes, 2 yes and a sample
  bool allocation = false, universal = false;
  for (size_t t = 0; t < typeOk.size(); ++t) {
    const EventType& type = model.types()[EventTypeIndex(static_cast<uint16_t>(t))];
    bool ok = TypeMatches(type, q.provider, "") && type.name == q.event;
    const bool sample = IsSampleProfilerSample(type);
    // The default event means the sample profiler's, even if an EventSource reuses the name.
    if (q.event == "Thread/Sample" && q.provider.empty()) ok = ok && sample;
    if (ok && type.kind == EventKind::kGcAllocationTick) allocation = true;
    if (ok && IsUniversalSampleKind(type.kind)) universal = true;  // Universal.Events
    typeOk[t] = ok ? (sample ? 2 : 1) : 0;
  }
  const bool bytes = q.weight == WeightKind::kBytes || (q.weight == WeightKind::kAuto && allocation);
  const bool threadTime = q.weight == WeightKind::kThreadTime || q.weight == WeightKind::kManagedThreadTime;
  // cpu samples weigh their sampling period, cswitches the time the thread was off CPU.
  const bool value = q.weight == WeightKind::kAuto && universal && !allocation;
  sel.unit = bytes ? WeightUnit::kBytes
                   : (threadTime || value) ? WeightUnit::kNanoseconds : WeightUnit::kSamples;
  std::vector<bool> threadOk = ThreadMask(model, q.thread);
  if (q.process)
    for (size_t t = 0; t < threadOk.size(); ++t)
      if (model.threads()[ThreadIndex(static_cast<uint16_t>(t))].processId != q.process) threadOk[t] = false;
  std::map<uint64_t, uint32_t> grouped;  // (thread << 32 | call stack) → with group frames
  std::vector<uint32_t> processFrames(q.groupByProcess ? model.threads().size() : 0);
  const RowRange rows = RowsInTime(model, q.fromMs, q.toMs);
  const size_t first = rows.begin, end = rows.end;
  // Thread time needs each thread's previous event, which may lie before the range.
  const size_t begin = threadTime ? 0 : first;
  struct Previous {
    uint64_t timestamp = 0;
    bool seen = false, external = false;
  };
  std::vector<Previous> previous(threadTime ? model.threads().size() : 0);
  Reserve(&sel, CountCandidates(store, typeOk, threadOk, first, end));
  const TraceClock clock(model.info());
  uint32_t externalFrame = 0;
  std::map<uint32_t, uint32_t> externalStacks;  // call stack → the same + UNMANAGED_CODE_TIME
  EventStore::RowCursor cursor(store);  // rows ascend
  for (size_t row = begin; row < end; ++row) {
    const uint8_t ok = typeOk[store.type(row).value];
    if (!ok || !threadOk[store.thread(row).value]) continue;
    const bool external = ok == 2 && symbols.IsExternalSample(cursor.ordinal(row));
    uint64_t weight = 1;
    if (threadTime) {
      Previous& p = previous[store.thread(row).value];
      const uint64_t ts = cursor.timestamp(row);
      weight = 0;
      if (p.seen && ts > p.timestamp && !(q.weight == WeightKind::kManagedThreadTime && p.external)) {
        // A hostile gap or tick frequency saturates (events/trace_clock.h).
        weight = clock.Ns(ts - p.timestamp);
      }
      p = {ts, true, external};
      if (row < first) continue;
    }
    if (bytes) {
      std::optional<uint64_t> b = symbols.AllocationBytes(cursor.ordinal(row));
      if (!b) continue;  // not an allocation event: nothing to weigh
      weight = *b;
    }
    if (value) weight = symbols.universal().SampleValue(cursor.ordinal(row)).value_or(0);
    const ThreadEntry& thread = model.threads()[store.thread(row)];
    uint32_t cs = resolver->Resolve(store.stack(row), cursor.timestamp(row), thread.processId);
    // PerfView keeps samples taken outside managed code apart, under their own leaf frame.
    if (external) {
      if (!externalFrame) externalFrame = resolver->frames().Intern(kExternalFrameName, FrameKind::kSynthetic) + 1;
      auto [it, added] = externalStacks.emplace(cs, 0);
      if (added) it->second = resolver->stacks().Push(cs, externalFrame - 1);
      cs = it->second;
    }
    if (q.groupByProcess) {
      auto [it, added] = grouped.emplace((uint64_t{store.thread(row).value} << 32) | cs, 0);
      if (added) {
        uint32_t& pf = processFrames[store.thread(row).value];  // frame + 1; 0: not yet
        if (!pf) pf = ProcessFrame(model, symbols, resolver, store.thread(row).value) + 1;
        uint32_t g = resolver->stacks().Push(0, pf - 1);
        if (q.groupByThread) g = resolver->stacks().Push(g, ThreadFrame(model, resolver, store.thread(row).value));
        for (uint32_t f : resolver->stacks().Frames(cs)) g = resolver->stacks().Push(g, f);
        it->second = g;
      }
      cs = it->second;
    }
    sel.rows.push_back(static_cast<uint32_t>(row));
    sel.threads.push_back(store.thread(row).value);
    sel.callStacks.push_back(cs);
    sel.weights.push_back(weight);
    sel.totalWeight = SatAdd(sel.totalWeight, weight);
  }
  return sel;
}

CallTree::CallTree(uint32_t rootFrame) { nodes_.push_back({rootFrame, 0, 0, 0, 0, 0}); }

void CallTree::Add(const uint32_t* frames, size_t n, uint64_t weight, uint64_t count) {
  uint32_t node = 0;
  nodes_[0].inclusive = SatAdd(nodes_[0].inclusive, weight), nodes_[0].count += count;
  for (size_t i = 0; i < n; ++i) {
    const uint64_t key = (uint64_t{node} << 32) | frames[i];
    const auto [child, added] = children_.Emplace(key, static_cast<uint32_t>(nodes_.size()));
    if (added) nodes_.push_back({frames[i], node, nodes_[node].depth + 1, 0, 0, 0});
    node = child;
    nodes_[node].inclusive = SatAdd(nodes_[node].inclusive, weight), nodes_[node].count += count;
  }
  nodes_[node].exclusive = SatAdd(nodes_[node].exclusive, weight);
}

uint32_t CallTree::AddChild(uint32_t parent, uint32_t frame) {
  nodes_.push_back({frame, parent, nodes_[parent].depth + 1, 0, 0, 0});
  return static_cast<uint32_t>(nodes_.size() - 1);
}

void CallTree::AddAt(uint32_t node, uint64_t weight, uint64_t count) {
  CallTreeNode& n = nodes_[node];
  n.exclusive = SatAdd(n.exclusive, weight), n.inclusive = SatAdd(n.inclusive, weight), n.count += count;
}

// Children come after their parents (parent(n) < n): one pass from the last node up.
void CallTree::SumUp() {
  for (size_t n = nodes_.size(); n-- > 1;) {
    CallTreeNode& p = nodes_[nodes_[n].parent];
    p.inclusive = SatAdd(p.inclusive, nodes_[n].inclusive), p.count += nodes_[n].count;
  }
}

ChildLists CallTree::SortedChildren(const FrameTable& frames) const {
  ChildLists out;
  out.offsets.assign(nodes_.size() + 1, 0);
  for (uint32_t n = 1; n < nodes_.size(); ++n) ++out.offsets[nodes_[n].parent + 1];
  for (size_t i = 1; i < out.offsets.size(); ++i) out.offsets[i] += out.offsets[i - 1];
  out.children.resize(nodes_.size() ? nodes_.size() - 1 : 0);
  std::vector<uint32_t> fill(out.offsets.begin(), out.offsets.end() - 1);
  for (uint32_t n = 1; n < nodes_.size(); ++n) out.children[fill[nodes_[n].parent]++] = n;
  for (size_t p = 0; p < nodes_.size(); ++p)
    std::sort(out.children.begin() + out.offsets[p], out.children.begin() + out.offsets[p + 1],
              [&](uint32_t a, uint32_t b) { return frames.name(nodes_[a].frame) < frames.name(nodes_[b].frame); });
  return out;
}

namespace {

// Root first, the call tree's nodes are the call stacks' own (stack = parent stack + frame,
// interned once by the resolver), under a thread frame per thread when grouped: each call
// stack is made a node once, from its nearest ancestor already made, and weights are summed
// up once at the end. Walking each distinct stack's whole path instead cost a 500,000-frame
// stack 500,000 look-ups in a hash of (node, frame) and two copies of the path.
CallTree CallTreeOfStacks(const TraceModel& model, const std::map<uint64_t, std::pair<uint64_t, uint64_t>>& distinct,
                          StackResolver* resolver, bool groupByThread, CallTree tree) {
  const CallStackTable& stacks = resolver->stacks();
  // The group root of each distinct key: ROOT, or the node of its thread's frame (threads of
  // one OS thread id share it); then the keys ordered by group, so each group is one run.
  struct Entry {
    uint32_t groupRoot, stack;
    uint64_t weight, count;
  };
  std::vector<Entry> entries;
  entries.reserve(distinct.size());
  std::unordered_map<uint32_t, uint32_t> rootOfFrame;
  for (const auto& [key, wc] : distinct) {
    uint32_t root = 0;
    if (groupByThread) {
      const uint32_t frame = ThreadFrame(model, resolver, static_cast<uint16_t>(key >> 32));
      auto [it, added] = rootOfFrame.emplace(frame, 0);
      if (added) it->second = tree.AddChild(0, frame);
      root = it->second;
    }
    entries.push_back({root, static_cast<uint32_t>(key), wc.first, wc.second});
  }
  std::stable_sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) { return a.groupRoot < b.groupRoot; });
  // Per call stack: its node, valid while stamp == the current group's root + 1.
  std::vector<uint32_t> nodeOf(stacks.size()), stamp(stacks.size(), 0);
  std::vector<uint32_t> chain;
  for (const Entry& e : entries) {
    const uint32_t group = e.groupRoot + 1;
    uint32_t s = e.stack;
    chain.clear();
    for (; s != 0 && stamp[s] != group; s = stacks.parent(s)) chain.push_back(s);
    uint32_t node = s == 0 ? e.groupRoot : nodeOf[s];
    for (size_t i = chain.size(); i-- > 0;) {
      node = tree.AddChild(node, stacks.frame(chain[i]));
      nodeOf[chain[i]] = node, stamp[chain[i]] = group;
    }
    tree.AddAt(node, e.weight, e.count);
  }
  tree.SumUp();
  return tree;
}

}  // namespace

CallTree BuildCallTree(const TraceModel& model, const StackSelection& sel, StackResolver* resolver, bool inverted,
                       bool groupByThread) {
  // Aggregate first: trees are built from distinct (thread, stack) pairs.
  std::map<uint64_t, std::pair<uint64_t, uint64_t>> distinct;  // key → (weight, count)
  for (size_t i = 0; i < sel.size(); ++i) {
    const uint64_t key = (groupByThread ? uint64_t{sel.threads[i]} << 32 : 0) | sel.callStacks[i];
    auto& [w, c] = distinct[key];
    w = SatAdd(w, sel.weights[i]), ++c;
  }
  CallTree tree(resolver->frames().Intern("ROOT", FrameKind::kSynthetic));
  if (!inverted) return CallTreeOfStacks(model, distinct, resolver, groupByThread, std::move(tree));
  std::vector<uint32_t> path;
  for (const auto& [key, wc] : distinct) {
    path = resolver->stacks().Frames(static_cast<uint32_t>(key));
    if (groupByThread) path.insert(path.begin(), ThreadFrame(model, resolver, static_cast<uint16_t>(key >> 32)));
    if (inverted) std::reverse(path.begin(), path.end());
    tree.Add(path.data(), path.size(), wc.first, wc.second);
  }
  return tree;
}

}  // namespace nettrace
