// symbols/overlap_index.h: the answer of MethodMap::Find against the rule read plainly
// (every range holding the address walked), on random maps where ranges overlap a lot,
// and the span each answer holds for.
#include <catch2/catch.hpp>

#include <random>
#include <vector>

#include "symbols/method_map.h"

namespace nettrace {
namespace {

// The rule, by a walk over every range: alive and loaded last (ties: the later range in
// address order), else the last holding the address in address order.
const MethodRange* Plain(const std::vector<MethodRange>& ranges, uint64_t address, uint64_t t) {
  const MethodRange *alive = nullptr, *any = nullptr;
  for (const MethodRange& r : ranges) {
    if (address < r.start || address >= r.end()) continue;
    any = &r;
    if (r.loadTime <= t && t < r.unloadTime && (!alive || r.loadTime >= alive->loadTime)) alive = &r;
  }
  return alive ? alive : any;
}

}  // namespace

TEST_CASE("overlap index: Find equals the plain walk over every range, on heavily overlapping maps", "[stacks]") {
  std::mt19937_64 rng(7);
  for (int round = 0; round < 40; ++round) {
    MethodMap map;
    const int count = 1 + static_cast<int>(rng() % 200);
    for (int i = 0; i < count; ++i) {
      MethodRange r;
      r.start = 0x1000 + (rng() % 64) * 16;
      r.size = static_cast<uint32_t>(16 + (rng() % 32) * 16);
      r.methodId = rng() % 50;
      r.loadTime = rng() % 4 == 0 ? 0 : rng() % 1000;
      map.AddLoad(r);
      if (rng() % 2) map.AddUnload(r.methodId, r.start, r.loadTime + rng() % 300);
    }
    map.Finish();
    for (int q = 0; q < 300; ++q) {
      const uint64_t address = 0xFF0 + rng() % (64 * 16 + 600), t = rng() % 1400;
      TimeSpan span;
      const MethodRange* got = map.Find(address, t, &span);
      const MethodRange* want = Plain(map.ranges(), address, t);
      REQUIRE(got == want);
      REQUIRE(span.Holds(t));
      // The same answer anywhere in the span (checked at its ends).
      REQUIRE(map.Find(address, span.from) == got);
      if (span.until != UINT64_MAX) REQUIRE(map.Find(address, span.until - 1) == got);
    }
  }
}

// Every unload ends the ranges of its method and start loaded no later than it and still
// alive, in file order: as a walk over every range for each unload would.
TEST_CASE("overlap index: unloads of one reused address range end the ranges a walk would", "[stacks]") {
  std::mt19937_64 rng(11);
  for (int round = 0; round < 40; ++round) {
    std::vector<MethodRange> loads;
    std::vector<MethodRange> unloads;
    MethodMap map;
    for (int i = 0; i < 100; ++i) {
      MethodRange r;
      r.start = 0x1000 + (rng() % 3) * 0x100, r.size = 0x80 + static_cast<uint32_t>(rng() % 4) * 8;
      r.methodId = rng() % 5, r.rejitId = static_cast<uint64_t>(i), r.loadTime = rng() % 1000;
      loads.push_back(r);
      map.AddLoad(r);
      if (rng() % 2) {
        MethodRange u = r;
        u.unloadTime = rng() % 1000;
        unloads.push_back(u);
        map.AddUnload(u.methodId, u.start, u.unloadTime);
      }
    }
    map.Finish();
    for (MethodRange& r : loads)
      for (const MethodRange& u : unloads)
        if (u.start == r.start && u.methodId == r.methodId && r.loadTime <= u.unloadTime && r.unloadTime == kForever)
          r.unloadTime = u.unloadTime;
    for (const MethodRange& r : map.ranges()) {
      bool found = false;
      for (const MethodRange& l : loads)
        if (l.start == r.start && l.size == r.size && l.methodId == r.methodId && l.rejitId == r.rejitId) {
          found = true;
          CHECK(l.unloadTime == r.unloadTime);
        }
      CHECK(found);
    }
  }
}

}  // namespace nettrace
