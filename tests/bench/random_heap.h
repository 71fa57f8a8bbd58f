// tests/bench — a seeded random heap graph shaped like a .NET heap, for heap_gen and the
// fuzzers' seeds: PerfView's pseudo-node tree of roots ([.NET Roots] → [static vars] with
// one [static var …] node per field, [local vars], [other roots] → [strong Handles] and
// [pinning Handles]), then the objects. Each object hangs off a random earlier one at most
// 1,000 indexes back (a spanning backbone), and about one object in two gets one more
// reference to any object (diamonds, cycles, shared leaves); one object in a hundred is
// left off the backbone, so some of the heap is unreachable as in a real snapshot.
// Types: 64 classes of fixed sizes and an object array whose size grows with its children.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "gcdump_writer.h"

namespace nettrace::bench {

// SplitMix64: small, seeded, the same on every platform.
class SeededRandom {
 public:
  explicit SeededRandom(uint64_t seed) : state_(seed) {}
  uint64_t Next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  uint32_t Below(uint32_t n) { return n == 0 ? 0 : static_cast<uint32_t>(Next() % n); }

 private:
  uint64_t state_;
};

inline GcdumpGraph RandomHeap(uint32_t objects, uint64_t seed) {
  constexpr uint32_t kClasses = 64, kStatics = 16, kLocals = 64, kStrong = 32, kPinned = 8;
  GcdumpGraph g;
  g.types.push_back({"UNDEFINED", ""});
  const char* pseudo[] = {"[.NET Roots]", "[static vars]", "[local vars]", "[other roots]", "[strong Handles]",
                          "[pinning Handles]"};
  for (const char* name : pseudo) g.types.push_back({name, ""});
  const uint32_t staticType = static_cast<uint32_t>(g.types.size());
  for (uint32_t s = 0; s < kStatics; ++s) g.types.push_back({"[static var HeapGen.Holder" + std::to_string(s) + ".Field]", ""});
  const uint32_t firstClass = static_cast<uint32_t>(g.types.size());
  const std::string module = "/heapgen/HeapGen.dll";
  for (uint32_t k = 0; k < kClasses; ++k) g.types.push_back({"HeapGen.Type" + std::to_string(k), module});
  const uint32_t arrayType = static_cast<uint32_t>(g.types.size());
  g.types.push_back({"System.Object[]", "/heapgen/System.Private.CoreLib.dll"});

  // Nodes: 0 root, 1 statics, 2 locals, 3 other roots, 4 strong, 5 pinning, the static
  // fields, then the objects.
  const uint32_t firstStatic = 6, firstObject = firstStatic + kStatics;
  const uint32_t n = firstObject + objects;
  SeededRandom rng(seed);
  std::vector<std::vector<uint32_t>> extra;  // edges beyond the backbone, per node (small)
  std::vector<uint32_t> parentOf(n, UINT32_MAX), count(n, 0);
  auto object = [&](uint32_t i) { return firstObject + i; };
  auto anyObject = [&] { return object(rng.Below(objects)); };
  // The roots' own children.
  std::vector<std::vector<uint32_t>> rootKids(firstObject);
  rootKids[0] = {1, 2, 3};
  rootKids[3] = {4, 5};
  for (uint32_t s = 0; s < kStatics; ++s) rootKids[1].push_back(firstStatic + s);
  if (objects > 0) {
    for (uint32_t s = 0; s < kStatics; ++s) rootKids[firstStatic + s].push_back(anyObject());
    for (uint32_t k = 0; k < kLocals; ++k) rootKids[2].push_back(anyObject());
    for (uint32_t k = 0; k < kStrong; ++k) rootKids[4].push_back(anyObject());
    for (uint32_t k = 0; k < kPinned; ++k) rootKids[5].push_back(anyObject());
    rootKids[2][0] = object(0);  // the backbone's start
  }
  for (uint32_t v = 0; v < firstObject; ++v) count[v] = static_cast<uint32_t>(rootKids[v].size());
  for (uint32_t i = 1; i < objects; ++i) {
    if (rng.Below(100) == 0) continue;  // off the backbone
    const uint32_t back = 1 + rng.Below(i < 1000 ? i : 1000);
    parentOf[object(i)] = object(i - back);
    ++count[object(i - back)];
  }
  std::vector<uint32_t> extraFrom, extraTo;
  for (uint32_t i = 0; i < objects; ++i) {
    if (rng.Below(2) == 0) continue;
    extraFrom.push_back(object(i));
    extraTo.push_back(anyObject());
    ++count[object(i)];
  }
  // Compressed sparse rows: root children, backbone children, then the extra edges.
  g.firstChild.assign(n + 1, 0);
  for (uint32_t v = 0; v < n; ++v) g.firstChild[v + 1] = g.firstChild[v] + count[v];
  g.children.assign(g.firstChild[n], 0);
  std::vector<uint32_t> fill(g.firstChild.begin(), g.firstChild.end() - 1);
  for (uint32_t v = 0; v < firstObject; ++v)
    for (uint32_t c : rootKids[v]) g.children[fill[v]++] = c;
  for (uint32_t v = firstObject; v < n; ++v)
    if (parentOf[v] != UINT32_MAX) g.children[fill[parentOf[v]]++] = v;
  for (size_t e = 0; e < extraFrom.size(); ++e) g.children[fill[extraFrom[e]]++] = extraTo[e];

  g.nodeType.resize(n);
  g.nodeSize.assign(n, 0);
  g.nodeAddress.assign(n, 0);
  const uint32_t pseudoTypes[] = {1, 2, 3, 4, 5, 6};
  for (uint32_t v = 0; v < firstStatic; ++v) g.nodeType[v] = pseudoTypes[v];
  for (uint32_t s = 0; s < kStatics; ++s) g.nodeType[firstStatic + s] = staticType + s;
  uint64_t address = 0x7f0000001000ull;
  for (uint32_t v = firstObject; v < n; ++v) {
    const uint32_t kids = count[v];
    const bool array = rng.Below(8) == 0;
    const uint32_t k = rng.Below(kClasses);
    g.nodeType[v] = array ? arrayType : firstClass + k;
    g.nodeSize[v] = array ? 24 + 8 * kids : 24 + 8 * (k % 12);
    g.nodeAddress[v] = address;
    address += (g.nodeSize[v] + 7) & ~7ull;
  }
  g.root = 0;
  return g;
}

}  // namespace nettrace::bench
