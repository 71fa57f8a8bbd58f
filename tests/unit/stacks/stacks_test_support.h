// Shared helpers of the [stacks] tests: load a trace into a session, and the structural
// checks every call tree and flame graph must pass.
#pragma once

#include <catch2/catch.hpp>

#include <memory>
#include <numeric>
#include <string>
#include <vector>

#include "analysis/stacks/call_tree.h"
#include "analysis/stacks/flame_graph.h"
#include "test_support.h"
#include "trace_session.h"

namespace nettrace::test {

inline std::unique_ptr<TraceSession> LoadSession(const std::vector<uint8_t>& bytes, size_t chunk = 1 << 16) {
  auto s = std::make_unique<TraceSession>();
  Status st;
  for (size_t pos = 0; pos < bytes.size() && st.ok(); pos += chunk)
    st = s->PushChunk(bytes.data() + pos, std::min(chunk, bytes.size() - pos));
  if (st.ok()) st = s->Finish();
  REQUIRE(st.ok());
  return s;
}

inline std::unique_ptr<TraceSession> LoadCorpus(const std::string& name) {
  std::vector<uint8_t> bytes = ReadFile(DataPath(name));
  REQUIRE(!bytes.empty());
  return LoadSession(bytes);
}

// Root = total; inclusive = exclusive + children; exclusive weights sum to the root.
inline void CheckTreeIntegrity(const CallTree& tree, uint64_t totalWeight) {
  const auto& nodes = tree.nodes();
  REQUIRE(!nodes.empty());
  CHECK(nodes[0].inclusive == totalWeight);
  std::vector<uint64_t> childSum(nodes.size(), 0);
  uint64_t exclusiveSum = 0;
  for (size_t n = 0; n < nodes.size(); ++n) {
    exclusiveSum += nodes[n].exclusive;
    if (n == 0) continue;
    REQUIRE(nodes[n].parent < n);
    CHECK(nodes[n].depth == nodes[nodes[n].parent].depth + 1);
    childSum[nodes[n].parent] += nodes[n].inclusive;
  }
  CHECK(exclusiveSum == nodes[0].inclusive);
  size_t bad = 0;
  for (size_t n = 0; n < nodes.size(); ++n)
    if (nodes[n].inclusive != nodes[n].exclusive + childSum[n]) ++bad;
  CHECK(bad == 0);
}

// Children inside their parent, one row deeper, siblings in order without overlap.
inline void CheckFlameGraphIntegrity(const FlameGraph& g) {
  REQUIRE(g.size() > 0);
  CHECK(g.depth[0] == 0);
  CHECK(g.start[0] == 0);
  CHECK(g.end[0] == g.total);
  std::vector<uint64_t> nextX(g.size());
  for (size_t i = 0; i < g.size(); ++i) nextX[i] = g.start[i];
  size_t bad = 0;
  for (size_t i = 1; i < g.size(); ++i) {
    const uint32_t p = g.parent[i];
    if (p >= i || g.depth[i] != g.depth[p] + 1 || g.start[i] != nextX[p] || g.end[i] > g.end[p] ||
        g.end[i] - g.start[i] < g.self[i])
      ++bad;
    nextX[p] = g.end[i];
  }
  CHECK(bad == 0);
}

// dotnet-trace's thread time per thread ('Thread (id)' frames), async stitching on or off.
inline StackQuery TraceEventThreadTime(bool stitch) {
  StackQuery q;
  q.weight = WeightKind::kTraceEventThreadTime;
  q.groupByThread = true;
  q.stitchAsync = stitch;
  return q;
}

}  // namespace nettrace::test
