// The allocations view and the alloc-bytes / alloc-objects weights (analysis/views/allocation_view.h,
// analysis/runtime/allocation_samples.h) on recordings of known allocations: TraceScenarios'
// `allocations` scenario allocates a known number of objects of one size per call site and
// checks GC.GetAllocatedBytesForCurrentThread against it (tests/data/dotnet10/MANIFEST.md,
// net10-allocations*). Recorded twice at the runtime's default sampling rate, so each call
// site's estimate is a fixed draw: the true amount must lie in the view's 99 % interval, and
// the estimate too (an estimator off by the upscaling, e.g. one that counts samples × size
// or samples × 102,400, lands outside: the 100 KB objects are sampled 1.6 times per 100 KB).
#include <cmath>

#include "analysis/stacks/call_tree.h"
#include "analysis/stacks/flame_graph.h"
#include "unit/analysis/analysis_test_support.h"
#include "unit/stacks/stacks_test_support.h"

namespace nettrace {
namespace {

using test::Json;

Json Parse(const std::string& text) {
  Json j;
  REQUIRE(test::ParseJson(text, &j));
  return j;
}

const Json* Row(const Json& rows, const char* key, const std::string& name) {
  for (const Json& r : rows.array)
    if (r[key].string == name) return &r;
  return nullptr;
}

// One call site of the scenario (MANIFEST: "What the program does").
struct CallSite {
  const char* function;
  double objects, size;
};
constexpr CallSite kSites[] = {
    {"TraceScenarios!TraceScenarios.AllocationScenario.MakePoints", 4000000, 40},
    {"TraceScenarios!TraceScenarios.AllocationScenario.MakeSmallSamples", 104000, 984},
    {"TraceScenarios!TraceScenarios.AllocationScenario.MakeLargeSamples", 2000, 100024},
    {"TraceScenarios!TraceScenarios.AllocationScenario.MakeStrings", 500000, 224},
    {"TraceScenarios!TraceScenarios.AllocationScenario.MakeNodes", 300000, 32},
};
// Types only the scenario allocates, and their bytes in all.
struct TypeTotal {
  const char* type;
  double bytes;
};
constexpr TypeTotal kTypes[] = {
    {"TraceScenarios.Point3", 160000000},
    {"TraceScenarios.Sample16[]", 302384000},
    {"TraceScenarios.Node", 9600000},
};

const char* kRecordings[] = {"dotnet10/net10-allocations.nettrace", "dotnet10/net10-allocations-nettrace.nettrace"};

// A row's estimate and the true amount both inside its interval.
void CheckRow(const Json& row, double trueBytes) {
  INFO("samples " << row["samples"].number << ", estimate " << row["bytes"].number << ", interval ["
                  << row["bytesLow"].number << ", " << row["bytesHigh"].number << "], true " << trueBytes);
  CHECK(row["bytesLow"].number <= trueBytes);
  CHECK(trueBytes <= row["bytesHigh"].number);
  CHECK(row["bytesLow"].number <= row["bytes"].number);
  CHECK(row["bytes"].number <= row["bytesHigh"].number);
}

TEST_CASE("allocations view: each call site's and type's interval holds the known bytes and the estimate",
          "[views][allocations]") {
  for (const char* name : kRecordings) {
    INFO(name);
    const std::vector<uint8_t> file = test::ReadFile(test::DataPath(name));
    auto session = test::LoadSession(file);
    const Json v = Parse(session->AllocationsView());
    CHECK(v["source"].string == "AllocationSampled");
    CHECK(v["confidence"].number == 0.99);
    CHECK(v["bytesPerSample"].number == 102400);
    for (const CallSite& site : kSites) {
      INFO(site.function);
      const Json* row = Row(v["functions"], "name", site.function);
      REQUIRE(row);
      CheckRow(*row, site.objects * site.size);
      // One object size per call site: the objects estimate is the bytes one over the size,
      // and the count of objects lies in the bytes interval over that size.
      CHECK(std::fabs(row->object.at("objects").number * site.size - row->object.at("bytes").number) <= site.size);
      CHECK((*row)["bytesLow"].number / site.size <= site.objects);
      CHECK(site.objects <= (*row)["bytesHigh"].number / site.size);
    }
    for (const TypeTotal& t : kTypes) {
      INFO(t.type);
      const Json* row = Row(v["types"], "type", t.type);
      REQUIRE(row);
      CheckRow(*row, t.bytes);
    }
    // Every sample is one AllocationSampling event (oracle.sh checks their count against
    // TraceEvent's), and the total adds the types up.
    EventQuery q;
    q.provider = "Microsoft-Windows-DotNETRuntime", q.name = "AllocationSampling";
    q.limit = UINT64_MAX;
    const size_t events = session->QueryEvents(q, nullptr).size();
    CHECK(v["total"]["samples"].number == static_cast<double>(events));
    double samples = 0;
    for (const Json& t : v["types"].array) samples += t["samples"].number;
    CHECK(samples == static_cast<double>(events));
    const std::string csv = session->AllocationsView(true);
    CHECK(std::count(csv.begin(), csv.end(), '\n') == static_cast<long>(v["types"].array.size() + 1));
  }
}

TEST_CASE("alloc-bytes / alloc-objects weights: type frames, estimated totals, type as root", "[views][allocations]") {
  const std::vector<uint8_t> file = test::ReadFile(test::DataPath(kRecordings[0]));
  auto session = test::LoadSession(file);
  const Json v = Parse(session->AllocationsView());
  StackQuery q;
  q.weight = WeightKind::kAllocBytes;
  const Json bytes = Parse(session->TopFunctionsJson(q, 1000));
  CHECK(bytes["unit"].string == "bytes");
  q.weight = WeightKind::kAllocObjects;
  const Json objects = Parse(session->TopFunctionsJson(q, 1000));
  CHECK(objects["unit"].string == "objects");
  // Each type is a "Type <name>" leaf weighing its estimate (the fractions carried per type).
  for (const Json& t : v["types"].array) {
    INFO(t["type"].string);
    const Json* b = Row(bytes["functions"], "name", "Type " + t["type"].string);
    const Json* o = Row(objects["functions"], "name", "Type " + t["type"].string);
    REQUIRE(b);
    REQUIRE(o);
    CHECK(std::fabs((*b)["inclusive"].number - t["bytes"].number) <= 1);
    CHECK((*b)["exclusive"].number == (*b)["inclusive"].number);
    CHECK((*b)["inclusiveCount"].number == t["samples"].number);
    CHECK(std::fabs((*o)["inclusive"].number - t["objects"].number) <= 1);
  }
  CHECK(std::fabs(bytes["total"].number - v["total"]["bytes"].number) <= v["types"].array.size());
  const Json* site = Row(bytes["functions"], "name", kSites[2].function);
  REQUIRE(site);
  const Json* viewSite = Row(v["functions"], "name", kSites[2].function);
  REQUIRE(viewSite);
  CHECK(std::fabs((*site)["inclusive"].number - (*viewSite)["bytes"].number) <= 1);

  // Type as root: the flame graph's first level is the types.
  q.weight = WeightKind::kAllocBytes;
  q.typeAsRoot = true;
  const FlameGraph g = session->BuildFlameGraph(q);
  size_t roots = 0;
  for (size_t i = 0; i < g.depth.size(); ++i) {
    if (g.depth[i] != 1) continue;
    ++roots;
    CHECK(g.frameNames[g.frame[i]].rfind("Type ", 0) == 0);
  }
  CHECK(roots == v["types"].array.size());
}

TEST_CASE("allocations view: a GC/AllocationTick trace keeps TraceEvent's amounts, labelled, no interval",
          "[views][allocations]") {
  const std::vector<uint8_t> file = test::ReadFile(test::DataPath("dotnet10/net10-gc-verbose.nettrace"));
  auto session = test::LoadSession(file);
  const Json v = Parse(session->AllocationsView());
  CHECK(v["source"].string == "GC/AllocationTick");
  CHECK(v["total"]["objects"].kind == Json::kNull);
  CHECK(v["total"]["bytesLow"].kind == Json::kNull);
  // alloc-bytes weighs each tick as --weight bytes does (TraceEvent's GetAllocAmount), and
  // alloc-objects counts ticks.
  StackQuery q;
  q.weight = WeightKind::kBytes;
  q.provider = "Microsoft-Windows-DotNETRuntime", q.event = "GC/AllocationTick";
  const Json bytes = Parse(session->FlameGraphJson(q));
  StackQuery a;
  a.weight = WeightKind::kAllocBytes;
  const Json alloc = Parse(session->FlameGraphJson(a));
  CHECK(alloc["total"].number == bytes["total"].number);
  CHECK(v["total"]["bytes"].number == bytes["total"].number);
  a.weight = WeightKind::kAllocObjects;
  const Json ticks = Parse(session->FlameGraphJson(a));
  CHECK(ticks["unit"].string == "samples");
  CHECK(ticks["total"].number == v["total"]["samples"].number);
}

}  // namespace
}  // namespace nettrace
