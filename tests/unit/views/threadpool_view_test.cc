// The thread pool view (analysis/views/threadpool_view.h) on net10-cpu-async-http, whose program
// blocks Environment.ProcessorCount + 2 work items until all run at once, so the pool must
// inject ≥ 2 workers through starvation (tests/data/dotnet10/MANIFEST.md, "threadpool").
// Compared with the events' own decoded payloads (EventJson, a path that does not go
// through the view).
#include <algorithm>
#include <cmath>

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
EventQuery Runtime(const char* name) {
  EventQuery q;
  q.provider = "Microsoft-Windows-DotNETRuntime", q.name = name;
  return q;
}
long long Micro(double ms) { return std::llround(ms * 1000.0); }  // both sides print 6 decimals of ms

TEST_CASE("threadpool view: adjustments and starvation injections equal the Adjustment events", "[views]") {
  const std::vector<uint8_t> file = test::ReadFile(test::DataPath("dotnet10/net10-cpu-async-http.nettrace"));
  auto session = test::LoadSession(file);
  const Json v = Parse(session->ThreadPoolView());
  const std::vector<Json> events = test::EventsOf(*session, file, Runtime("ThreadPoolWorkerThreadAdjustment/Adjustment"));
  REQUIRE(!events.empty());
  REQUIRE(v["adjustments"].array.size() == events.size());
  CHECK(v["events"]["adjustment"].number == static_cast<double>(events.size()));
  double starvation = 0, lastStarvationCount = 0;
  for (size_t i = 0; i < events.size(); ++i) {
    const Json& a = v["adjustments"][i];
    INFO(i);
    CHECK(Micro(a["timeMs"].number) == Micro(events[i]["timeMs"].number));
    CHECK(a["newWorkerThreadCount"].number == test::Field(events[i], "NewWorkerThreadCount")->number);
    CHECK(a["reasonCode"].number == test::Field(events[i], "Reason")->number);
    if (a["reason"].string == "Starvation") {
      CHECK(a["reasonCode"].number == 6);
      CHECK(a["starvation"].boolean);
      CHECK(a["newWorkerThreadCount"].number > lastStarvationCount);  // each one injects a thread
      lastStarvationCount = a["newWorkerThreadCount"].number;
      ++starvation;
    }
  }
  CHECK(starvation >= 2);  // MANIFEST: ≥ 2 injections through starvation
  CHECK(v["starvationAdjustments"].number == starvation);
  // The program's 4 blocked items ran at once: the pool reached ≥ 4 workers.
  CHECK(lastStarvationCount >= 4);
  CHECK(v["adjustments"][0]["reason"].string == "Initializing");

  const std::string csv = session->ThreadPoolView(true);
  CHECK(std::count(csv.begin(), csv.end(), '\n') == static_cast<long>(events.size() + 1));
}

TEST_CASE("threadpool view: the worker count series follows the events' ActiveWorkerThreadCount", "[views]") {
  const std::vector<uint8_t> file = test::ReadFile(test::DataPath("dotnet10/net10-cpu-async-http.nettrace"));
  auto session = test::LoadSession(file);
  const Json v = Parse(session->ThreadPoolView());
  // Start, Stop and Wait events in time order (file order is per-thread buffers); the series
  // keeps each change of (active, retired).
  std::vector<Json> all;
  for (const char* name : {"ThreadPoolWorkerThread/Start", "ThreadPoolWorkerThread/Stop", "ThreadPoolWorkerThread/Wait"})
    for (Json& e : test::EventsOf(*session, file, Runtime(name))) all.push_back(std::move(e));
  std::stable_sort(all.begin(), all.end(), [](const Json& a, const Json& b) { return a["timeMs"].number < b["timeMs"].number; });
  std::vector<std::pair<double, double>> changes;  // (active, retired)
  std::vector<long long> times;
  for (const Json& e : all) {
    const std::pair<double, double> c = {test::Field(e, "ActiveWorkerThreadCount")->number, test::Field(e, "RetiredWorkerThreadCount")->number};
    if (changes.empty() || changes.back() != c) changes.push_back(c), times.push_back(Micro(e["timeMs"].number));
  }
  REQUIRE(changes.size() >= 2);
  REQUIRE(v["workers"].array.size() == changes.size());
  double max = 0;
  for (size_t i = 0; i < changes.size(); ++i) {
    CHECK(v["workers"][i]["active"].number == changes[i].first);
    CHECK(v["workers"][i]["retired"].number == changes[i].second);
    CHECK(Micro(v["workers"][i]["timeMs"].number) == times[i]);
    max = std::max(max, changes[i].first);
  }
  CHECK(v["maxActiveWorkers"].number == max);
  CHECK(v["events"]["workerStart"].number == static_cast<double>(test::EventsOf(*session, file, Runtime("ThreadPoolWorkerThread/Start")).size()));
  // ThreadPoolMinMaxThreads: the limits as the event says them.
  const std::vector<Json> limits = test::EventsOf(*session, file, Runtime("ThreadPoolMinMaxThreads"));
  REQUIRE(v["minMax"].array.size() == limits.size());
  for (size_t i = 0; i < limits.size(); ++i) {
    CHECK(v["minMax"][i]["minWorkerThreads"].number == test::Field(limits[i], "MinWorkerThreads")->number);
    CHECK(v["minMax"][i]["maxWorkerThreads"].number == test::Field(limits[i], "MaxWorkerThreads")->number);
  }
}

}  // namespace
}  // namespace nettrace
