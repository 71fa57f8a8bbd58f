// The heap analyses against PerfView's own code (scripts/heap-oracle.sh runs it, as
// dotnet-gcdump 10.0.750501 ships it, and commits its output to tests/data/heap/oracle/):
// per type the object count, the shallow size and PerfView's inclusive size over its
// spanning tree, and the spanning tree itself, node for node. The .nettrace snapshots are
// compared with dotnet-gcdump's conversion of them.
#include <catch2/catch.hpp>

#include "heap/spanning_tree.h"
#include "heap_test_support.h"

namespace nettrace::test {
namespace {

TEST_CASE("heap: counts, sizes, PerfView's inclusive sizes and spanning tree equal PerfView's", "[heap]") {
  for (const std::string& name : HeapSnapshots()) {
    INFO(name);
    auto s = ReadHeapFile(name);
    REQUIRE(s->analyzed());
    const std::vector<uint8_t> text = ReadFile(DataPath("heap/oracle/" + name.substr(5) + ".oracle.json"));
    const Json oracle = ParsedJson(std::string(text.begin(), text.end()));
    REQUIRE(oracle.Has("rows"));
    const heap::HeapGraph& g = s->graph();
    CHECK(oracle["nodes"].number == g.nodeCount());
    std::map<std::pair<std::string, std::string>, const heap::TypeRow*> ours;
    for (const heap::TypeRow& r : s->analysis().rows) {
      if (r.count > 0) ours[{r.name, r.module}] = &r;
    }
    CHECK(ours.size() == oracle["rows"].array.size());
    size_t differing = 0;
    for (const Json& row : oracle["rows"].array) {
      auto it = ours.find({row["name"].string, row["module"].string});
      const bool same = it != ours.end() && it->second->count == row["count"].number &&
                        it->second->size == row["size"].number && it->second->inclusive == row["inclusive"].number;
      if (!same && ++differing <= 5) UNSCOPED_INFO("differs: " << row["name"].string);
    }
    CHECK(differing == 0);
    const heap::SpanningTree tree = heap::BuildSpanningTree(g);
    const std::vector<Json>& parents = oracle["parent"].array;
    REQUIRE(parents.size() == g.nodeCount());
    size_t mismatched = 0;
    for (heap::NodeIndex v = 0; v < g.nodeCount(); ++v) {
      const double expected = parents[v].number;  // -1: the root
      const double got = tree.parent[v] == heap::kNoNode ? -1.0 : static_cast<double>(tree.parent[v]);
      mismatched += expected != got;
    }
    CHECK(mismatched == 0);
  }
}

}  // namespace
}  // namespace nettrace::test
