// The heap views on the committed snapshots of tests/apps/HeapGraphs, whose object graphs
// are known: retained sizes equal the values computed by hand from the sizes the program
// measured (heapgraphs-*.facts.json), paths from the roots name the roots the program used
// (a static field, a strong handle, a pinned handle, a local variable), both ways of taking
// a snapshot agree, and the diff of the two shapes is the random graph the big one adds.
#include <catch2/catch.hpp>

#include "heap/heap_report.h"
#include "heap_test_support.h"

namespace nettrace::test {
namespace {

Json Facts(const std::string& shape) {
  const std::vector<uint8_t> bytes = ReadFile(DataPath("heap/heapgraphs-" + shape + ".facts.json"));
  return ParsedJson(std::string(bytes.begin(), bytes.end()));
}

uint64_t Size(const Json& facts, const char* what) { return static_cast<uint64_t>(facts["sizes"][what].number); }

// The instances of one HeapGraphs type, largest retained size first.
std::vector<Json> Paths(const heap::HeapSession& s, const std::string& type) {
  heap::HeapQuery q;
  q.pathsTo = type;
  q.paths = 1000;
  const Json j = ParsedJson(heap::HeapPathsJson(s.snapshot(), q));
  return j["paths"].array;
}

TEST_CASE("heap: retained sizes of the known graphs equal the hand-computed ones", "[heap]") {
  const Json facts = Facts("small");
  const uint64_t chain = Size(facts, "ChainNode"), cycle = Size(facts, "CycleNode");
  for (const char* name : {"heap/heapgraphs-small.gcdump", "heap/heapgraphs-small.nettrace"}) {
    INFO(name);
    auto s = ReadHeapFile(name);
    REQUIRE(s->analyzed());
    // Diamond: Top → Left, Right → Bottom → Byte[1000]. Top keeps all five; Bottom its
    // payload; Left and Right only themselves (Bottom has two ways in).
    const uint64_t bottom = Size(facts, "DiamondBottom") + Size(facts, "Byte[1000]");
    CHECK(Paths(*s, "HeapGraphs.DiamondTop")[0]["retained"].number ==
          Size(facts, "DiamondTop") + Size(facts, "DiamondLeft") + Size(facts, "DiamondRight") + bottom);
    CHECK(Paths(*s, "HeapGraphs.DiamondBottom")[0]["retained"].number == bottom);
    CHECK(Paths(*s, "HeapGraphs.DiamondLeft")[0]["retained"].number == Size(facts, "DiamondLeft"));
    CHECK(Paths(*s, "HeapGraphs.DiamondRight")[0]["retained"].number == Size(facts, "DiamondRight"));
    // Chain of five from the static field: 5, 4, 3, 2, 1 nodes. The sixth ChainNode is
    // the local holder's, alone.
    const std::vector<Json> chainPaths = Paths(*s, "HeapGraphs.ChainNode");
    REQUIRE(chainPaths.size() == 6);
    for (size_t i = 0; i < 5; ++i) CHECK(chainPaths[i]["retained"].number == (5 - i) * chain);
    CHECK(chainPaths[5]["retained"].number == chain);
    // Ring A → C → B → A held at A: A keeps three, C two, B one.
    const std::vector<Json> ring = Paths(*s, "HeapGraphs.CycleNode");
    REQUIRE(ring.size() == 3);
    CHECK(ring[0]["retained"].number == 3 * cycle);
    CHECK(ring[1]["retained"].number == 2 * cycle);
    CHECK(ring[2]["retained"].number == cycle);
    // object[100] keeps its 100 items; the pinned buffer and int[256] only themselves.
    CHECK(Paths(*s, "System.Object[]")[0]["retained"].number >= Size(facts, "Object[100]") + 100 * Size(facts, "ArrayItem"));
    bool found = false;
    for (const Json& p : Paths(*s, "HeapGraphs.ArrayItem")) found |= p["retained"].number == Size(facts, "ArrayItem");
    CHECK(found);
    // The handle's target shares its leaf with a static field: it keeps only itself.
    CHECK(Paths(*s, "HeapGraphs.HandleTarget")[0]["retained"].number == Size(facts, "HandleTarget"));
    CHECK(Paths(*s, "HeapGraphs.SharedLeaf")[0]["retained"].number == Size(facts, "SharedLeaf"));
  }
}

TEST_CASE("heap: paths from the roots name the roots the program used", "[heap]") {
  for (const char* name : {"heap/heapgraphs-small.gcdump", "heap/heapgraphs-small.nettrace"}) {
    INFO(name);
    auto s = ReadHeapFile(name);
    REQUIRE(s->analyzed());
    CHECK(Paths(*s, "HeapGraphs.ChainNode")[0]["root"].string == "[static vars] / [static var HeapGraphs.ChainNode.Chain]");
    CHECK(Paths(*s, "HeapGraphs.ChainNode")[0]["kind"].string == "[static vars]");
    CHECK(Paths(*s, "HeapGraphs.HandleTarget")[0]["root"].string == "[other roots] / [strong Handles]");
    CHECK(Paths(*s, "HeapGraphs.LocalHolder")[0]["root"].string == "[local vars]");
    // The pinned 4,096-byte buffer: a size-suffixed type, held by a pinning handle.
    bool pinned = false;
    for (const Json& p : Paths(*s, "System.Byte[] (Bytes > 1K)")) {
      if (p["size"].number == 4120) pinned = p["root"].string == "[other roots] / [pinning Handles]";
    }
    CHECK(pinned);
    // Each path starts below the root and ends at its instance; every step but the pseudo
    // ones has an address.
    const Json first = Paths(*s, "HeapGraphs.DiamondBottom")[0];
    const std::vector<Json>& steps = first["steps"].array;
    REQUIRE(steps.size() >= 3);
    CHECK(steps.front()["type"].string == "[static vars]");
    CHECK(steps.back()["type"].string == "HeapGraphs.DiamondBottom");
    CHECK(steps.back()["address"].string == first["address"].string);
  }
}

TEST_CASE("heap: a .nettrace's heap dump reads as dotnet-gcdump's conversion of it", "[heap]") {
  // Same program, same shapes, separate runs: the views agree on everything the runs share.
  for (const char* shape : {"small", "big"}) {
    INFO(shape);
    auto gc = ReadHeapFile(std::string("heap/heapgraphs-") + shape + ".gcdump");
    auto nt = ReadHeapFile(std::string("heap/heapgraphs-") + shape + ".nettrace");
    REQUIRE(nt->status().ok());
    CHECK(std::string(nt->kind()) == "nettrace");
    CHECK(nt->graph().info.gcNumber >= 1);
    for (const char* type : {"HeapGraphs.DiamondTop", "HeapGraphs.ChainNode", "HeapGraphs.BigNode"}) {
      const std::vector<Json> a = Paths(*gc, type), b = Paths(*nt, type);
      REQUIRE(a.size() == b.size());
      for (size_t i = 0; i < a.size(); ++i) CHECK(a[i]["retained"].number == b[i]["retained"].number);
    }
  }
}

TEST_CASE("heap: the diff of the two shapes is the big one's random graph", "[heap]") {
  auto small = ReadHeapFile("heap/heapgraphs-small.gcdump");
  auto big = ReadHeapFile("heap/heapgraphs-big.gcdump");
  const Json diff = ParsedJson(heap::HeapDiffJson(small->snapshot(), big->snapshot()));
  const Json facts = Facts("big");
  REQUIRE(diff.Has("types"));
  const Json& top = diff["types"][0];  // the largest growth
  CHECK(top["name"].string == "HeapGraphs.BigNode");
  CHECK(top["count"]["baseline"].number == 0);
  CHECK(top["count"]["delta"].number > 0);
  CHECK(top["count"]["delta"].number <= facts["bigNodes"].number);  // the unreachable ones were collected
  CHECK(top["size"]["delta"].number == top["count"]["delta"].number * 48);
  // The shapes both hold are unchanged.
  for (const Json& row : diff["types"].array) CHECK(row["name"].string != "HeapGraphs.DiamondTop");
}

}  // namespace
}  // namespace nettrace::test
