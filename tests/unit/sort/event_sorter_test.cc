// The merge sorter against the plain answer: a stable sort of all events by timestamp,
// region by region. Randomized interleavings of many capture threads, with and without
// IsSorted marks, and with marks that lie (writers disagree on the flag's polarity).
#include <catch2/catch.hpp>

#include <algorithm>

#include "sort/event_sorter.h"

using namespace nettrace;

namespace {

struct Collect : SortedSink {
  std::vector<SortItem> items;
  std::vector<bool> late;
  void OnSorted(const SortItem& item, bool isLate) override {
    items.push_back(item);
    late.push_back(isLate);
  }
};

struct Rng {
  uint64_t s;
  uint64_t operator()() {
    s ^= s << 13, s ^= s >> 7, s ^= s << 17;
    return s;
  }
};

struct Event {
  uint64_t thread;
  SortItem item;
  bool sorted;
};

// Regions of events: per thread increasing timestamps, threads interleaved at random in
// file order, regions strictly after each other in time. With `honestMarks`, IsSorted is
// set only where it is true (every later event is at least as late).
std::vector<std::vector<Event>> MakeRegions(Rng& rng, int regions, int threads, int perRegion, bool honestMarks,
                                            bool lyingMarks) {
  std::vector<std::vector<Event>> out;
  uint32_t ordinal = 0;
  uint64_t base = 1000;
  for (int r = 0; r < regions; ++r) {
    std::vector<std::vector<uint64_t>> perThread(threads);
    for (int i = 0; i < perRegion; ++i) perThread[rng() % threads].push_back(base + rng() % 5000);
    for (auto& v : perThread) std::sort(v.begin(), v.end());  // each capture thread in order
    std::vector<size_t> next(threads, 0);
    std::vector<Event> region;
    for (int i = 0; i < perRegion; ++i) {
      int t;
      do t = static_cast<int>(rng() % threads);
      while (next[t] == perThread[t].size());
      SortItem item;
      item.timestamp = perThread[t][next[t]++];
      item.ordinal = ordinal++;
      item.type = static_cast<uint16_t>(t);
      region.push_back({static_cast<uint64_t>(t) * 7919, item, false});
    }
    if (honestMarks) {
      // Mark events that are <= every later event of the region.
      uint64_t minAfter = UINT64_MAX;
      for (size_t i = region.size(); i-- > 0;) {
        if (region[i].item.timestamp <= minAfter && rng() % 3 == 0) region[i].sorted = true;
        minAfter = std::min(minAfter, region[i].item.timestamp);
      }
    }
    if (lyingMarks)
      for (auto& e : region) e.sorted = rng() % 4 == 0;
    out.push_back(std::move(region));
    base += 6000;
  }
  return out;
}

std::vector<SortItem> Expected(const std::vector<std::vector<Event>>& regions) {
  std::vector<SortItem> all;
  for (const auto& r : regions) {
    std::vector<SortItem> items;
    for (const auto& e : r) items.push_back(e.item);
    std::stable_sort(items.begin(), items.end(),
                     [](const SortItem& a, const SortItem& b) { return a.timestamp < b.timestamp; });
    all.insert(all.end(), items.begin(), items.end());
  }
  return all;
}

std::vector<SortItem> RunSorter(const std::vector<std::vector<Event>>& regions, Collect* sink, EventSorter* sorter) {
  for (const auto& r : regions) {
    for (const auto& e : r) sorter->Push(e.thread, e.item, e.sorted);
    sorter->EndRegion();
  }
  return sink->items;
}

void RequireSameOrder(const std::vector<SortItem>& got, const std::vector<SortItem>& want) {
  REQUIRE(got.size() == want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    INFO("position " << i);
    REQUIRE(got[i].ordinal == want[i].ordinal);
  }
}

}  // namespace

TEST_CASE("k-way merge equals a stable sort, region by region", "[sort]") {
  Rng rng{12345};
  for (int trial = 0; trial < 40; ++trial) {
    int threads = 1 + static_cast<int>(rng() % 40);
    auto regions = MakeRegions(rng, 1 + static_cast<int>(rng() % 6), threads, 1 + static_cast<int>(rng() % 3000), false, false);
    Collect sink;
    EventSorter sorter(&sink);
    RequireSameOrder(RunSorter(regions, &sink, &sorter), Expected(regions));
    CHECK(sorter.lateEvents() == 0);
    CHECK(sorter.pending() == 0);
  }
}

TEST_CASE("IsSorted marks release events early and keep memory to a batch", "[sort]") {
  Rng rng{777};
  for (int trial = 0; trial < 40; ++trial) {
    auto regions = MakeRegions(rng, 3, 16, 4000, true, false);
    Collect sink;
    EventSorter sorter(&sink);
    RequireSameOrder(RunSorter(regions, &sink, &sorter), Expected(regions));
    CHECK(sorter.lateEvents() == 0);
    // Honest marks every few events: pending never approaches the region size.
    CHECK(sorter.peakPending() < 4000);
  }
}

TEST_CASE("lying IsSorted marks are flagged late and still end up in order in the store", "[sort]") {
  Rng rng{4242};
  auto regions = MakeRegions(rng, 4, 12, 2000, false, true);
  Collect sink;
  EventSorter sorter(&sink);
  RunSorter(regions, &sink, &sorter);
  CHECK(sorter.lateEvents() > 0);
  // Late items, placed by (timestamp, ordinal) as the store does, give the stable order.
  std::vector<SortItem> placed;
  for (size_t i = 0; i < sink.items.size(); ++i) {
    const SortItem& it = sink.items[i];
    if (!sink.late[i]) {
      placed.push_back(it);
      continue;
    }
    auto pos = std::upper_bound(placed.begin(), placed.end(), it, [](const SortItem& a, const SortItem& b) {
      return a.timestamp != b.timestamp ? a.timestamp < b.timestamp : a.ordinal < b.ordinal;
    });
    placed.insert(pos, it);
  }
  RequireSameOrder(placed, Expected(regions));
}

TEST_CASE("a capture thread out of order is sorted, not trusted", "[sort]") {
  Collect sink;
  EventSorter sorter(&sink);
  uint32_t ord = 0;
  for (uint64_t ts : {50u, 10u, 30u}) sorter.Push(1, SortItem{ts, ord++}, false);
  for (uint64_t ts : {20u, 40u}) sorter.Push(2, SortItem{ts, ord++}, false);
  sorter.EndRegion();
  std::vector<uint64_t> got;
  for (const auto& i : sink.items) got.push_back(i.timestamp);
  CHECK(got == std::vector<uint64_t>{10, 20, 30, 40, 50});
  CHECK(sorter.unsortedRuns() == 1);
}

namespace {
// Notes how the items came: one by one (OnSorted) or as a run (OnSortedRun).
struct CollectRuns : Collect {
  std::vector<size_t> runSizes;
  void OnSortedRun(std::span<const SortItem> run) override {
    runSizes.push_back(run.size());
    for (const SortItem& item : run) OnSorted(item, false);
  }
};
}  // namespace

// A capture thread whose events all come before the other's (a rundown, one thread's buffer)
// reaches the sink as one run after its first two events: one call, not one per event; and a
// run whose first event is late (lying IsSorted marks) still comes one by one, flagged.
TEST_CASE("a thread's burst reaches the sink as one run, late events one by one", "[sort]") {
  auto item = [](uint64_t timestamp, uint32_t ordinal) {
    SortItem x;
    x.timestamp = timestamp, x.ordinal = ordinal;
    return x;
  };
  {
    CollectRuns sink;
    EventSorter sorter(&sink);
    uint32_t ordinal = 0;
    for (uint64_t t = 1; t <= 100; ++t) sorter.Push(1, item(t, ordinal++), false);
    sorter.Push(2, item(1000, ordinal++), false);
    sorter.EndRegion();
    REQUIRE(sink.items.size() == 101);
    for (size_t i = 0; i < sink.items.size(); ++i) CHECK(sink.items[i].ordinal == i);
    CHECK(sink.runSizes == std::vector<size_t>{98});  // items 2..99; 0, 1 and thread 2's one by one
    CHECK(std::count(sink.late.begin(), sink.late.end(), true) == 0);
  }
  {
    // Thread 1 releases 10..19 (an IsSorted mark), then thread 2 brings 1..9, all late.
    CollectRuns sink;
    EventSorter sorter(&sink);
    uint32_t ordinal = 0;
    for (uint64_t t = 10; t < 20; ++t) sorter.Push(1, item(t, ordinal++), t == 19);
    for (uint64_t t = 1; t < 10; ++t) sorter.Push(2, item(t, ordinal++), false);
    sorter.EndRegion();
    REQUIRE(sink.items.size() == 19);
    CHECK(std::count(sink.late.begin(), sink.late.end(), true) == 9);
    CHECK(sorter.lateEvents() == 9);
    size_t inRuns = 0;
    for (size_t n : sink.runSizes) inRuns += n;
    CHECK(inRuns <= 10);  // only thread 1's events, none late, may come as a run
  }
}

TEST_CASE("the merge keeps events at the largest timestamp and ordinal, and runs that empty mid-region", "[sort]") {
  // A hostile file can stamp events with 2^64-1: the merge's "no head left" key comes after
  // them, so none is left behind when a region ends (it would be lost with the region).
  Collect sink;
  EventSorter sorter(&sink);
  auto push = [&](uint64_t thread, uint64_t timestamp, uint32_t ordinal) {
    SortItem x;
    x.timestamp = timestamp, x.ordinal = ordinal;
    sorter.Push(thread, x, false);
  };
  push(1, UINT64_MAX, UINT32_MAX - 2);
  push(2, 5, UINT32_MAX - 1);
  push(2, UINT64_MAX, UINT32_MAX);
  for (uint64_t t = 3; t < 20; ++t) push(t, t, static_cast<uint32_t>(t));  // 17 one-event runs: 32 leaves
  sorter.EndRegion();
  REQUIRE(sink.items.size() == 20);
  CHECK(sink.items[0].timestamp == 3);
  CHECK(sink.items[3].ordinal == UINT32_MAX - 1);  // at timestamp 5, after thread 5's event (ordinal 5)
  CHECK(sink.items[18].ordinal == UINT32_MAX - 2);
  CHECK(sink.items[19].ordinal == UINT32_MAX);
  CHECK(sorter.pending() == 0);
  CHECK(sorter.lateEvents() == 0);
}

// No sequence point and no IsSorted mark in a long region: the sorter holds at most
// kMaxPending events, first releasing what no thread can come before any more, then (one
// thread silent for long) everything; what comes back earlier is `late`, and sorting the
// released events with the late ones in place gives the plain order.
TEST_CASE("sorter: a region without sequence points or marks is held within kMaxPending", "[sort]") {
  constexpr size_t kEvents = EventSorter::kMaxPending * 6;
  for (bool silentThread : {false, true}) {
    Collect sink;
    EventSorter sorter(&sink);
    size_t maxPending = 0;
    std::vector<SortItem> all;
    for (uint32_t i = 0; i < kEvents; ++i) {
      // Four threads writing buffers of 256 events, interleaved in time; with silentThread,
      // thread 4 writes one early event and then nothing until the end.
      uint64_t thread = (i / 256) % 4;
      SortItem item;
      item.timestamp = 1000 + 4 * ((i / 1024) * 256 + i % 256) + thread;
      if (silentThread && (i == 10 || i + 1 == kEvents)) thread = 4, item.timestamp = i == 10 ? 1500 : 999;
      item.ordinal = i;
      all.push_back(item);
      sorter.Push(thread, item, false);
      maxPending = std::max(maxPending, sorter.pending());
    }
    sorter.EndRegion();
    CHECK(maxPending <= EventSorter::kMaxPending);
    CHECK(sorter.boundedReleases() > 0);
    REQUIRE(sink.items.size() == kEvents);
    std::vector<SortItem> got = sink.items;
    std::stable_sort(got.begin(), got.end(), SortedBefore<SortItem>);
    std::stable_sort(all.begin(), all.end(), SortedBefore<SortItem>);
    for (size_t i = 0; i < kEvents; ++i) REQUIRE(got[i].ordinal == all[i].ordinal);
    // Only the silent thread's last event can be late: the others were released in order.
    CHECK(sorter.lateEvents() == (silentThread ? 1u : 0u));
  }
}
