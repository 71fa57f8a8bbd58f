// The event views (analysis/views/runtime_views.h) on the .NET 10 traces recorded
// from tests/apps/TraceScenarios, whose facts are exact (tests/data/dotnet10/MANIFEST.md),
// and against the events' own decoded payloads (EventJson, a path that does not go
// through the views).
#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "analysis/stacks/call_tree.h"
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

EventQuery Named(const char* provider, const char* name) {
  EventQuery q;
  q.provider = provider, q.name = name;
  return q;
}

// The traces whose program ran the `exceptions` scenario (MANIFEST.md).
const char* const kExceptionTraces[] = {"dotnet10/net10-eventsource.nettrace", "dotnet10/net10-startup-streaming.nettrace",
                                        "dotnet10/net10-startup-at-exit.nettrace", "dotnet10/net10-ipc.netperf"};
// ... and the `contention` scenario.
const char* const kContentionTraces[] = {"dotnet10/net10-eventsource.nettrace", "dotnet10/net10-startup-streaming.nettrace",
                                         "dotnet10/net10-startup-at-exit.nettrace"};

TEST_CASE("exceptions view: the 13 first-chance exceptions of the scenario, by type and throwing method", "[views]") {
  // Type → (count, the method whose throw statement raised it, as the flame graph names frames).
  const std::map<std::string, std::pair<double, std::string>> expected = {
      {"System.InvalidOperationException", {7, "TraceScenarios!TraceScenarios.ExceptionScenario.Level3"}},
      {"System.ArgumentException", {3, "TraceScenarios!TraceScenarios.ExceptionScenario.ArgumentInner"}},
      {"TraceScenarios.ScenarioException", {2, "TraceScenarios!TraceScenarios.ExceptionScenario.Deep4"}},
      {"System.FormatException", {1, "System.Private.CoreLib!System.Number.ThrowFormatException"}},
  };
  for (const char* name : kExceptionTraces) {
    SECTION(name) {
      const std::vector<uint8_t> file = test::ReadFile(test::DataPath(name));
      auto session = test::LoadSession(file);
      const Json v = Parse(session->ExceptionsView());
      CHECK(v["count"].number == 13);
      CHECK(v["caught"].number == 13);  // all caught, none rethrown
      REQUIRE(v["types"].array.size() == 4);
      // Messages: the first distinct ones of each type, in order, as the events carry them.
      std::map<std::string, std::vector<std::string>> messages;
      for (const Json& e : test::EventsOf(*session, file, Named("Microsoft-Windows-DotNETRuntime", "Exception/Start"))) {
        std::vector<std::string>& m = messages[test::Field(e, "ExceptionType")->string];
        const std::string& text = test::Field(e, "ExceptionMessage")->string;
        if (m.size() < 5 && std::find(m.begin(), m.end(), text) == m.end()) m.push_back(text);
      }
      for (const Json& t : v["types"].array) {
        INFO(t["type"].string);
        REQUIRE(expected.count(t["type"].string));
        const auto& [count, method] = expected.at(t["type"].string);
        CHECK(t["count"].number == count);
        CHECK(t["caught"].number == count);
        REQUIRE(t["throwingMethods"].array.size() == 1);
        CHECK(t["throwingMethods"][0]["method"].string == method);
        CHECK(t["throwingMethods"][0]["count"].number == count);
        // Every one is caught in ExceptionScenario.Run (the `when` filter, the finally and
        // int.Parse's caller all sit below it).
        REQUIRE(t["catchingMethods"].array.size() == 1);
        CHECK(t["catchingMethods"][0]["method"].string == "void [TraceScenarios] TraceScenarios.ExceptionScenario::Run()");
        std::vector<std::string> shown;
        for (const Json& m : t["messages"].array) shown.push_back(m.string);
        CHECK(shown == messages[t["type"].string]);
        // The throwing stacks of one type: the flame graph of Exception/Start narrowed to it.
        StackQuery q;
        q.event = "Exception/Start", q.exceptionType = t["type"].string;
        const Json flame = Parse(session->FlameGraphJson(q));
        CHECK(flame["total"].number == count);
        CHECK(std::any_of(flame["frames"].array.begin(), flame["frames"].array.end(),
                          [&](const Json& f) { return f.string == method; }));
        const Json top = Parse(session->TopFunctionsJson(q, 1));
        CHECK(top["total"].number == count);
      }
    }
  }
}

TEST_CASE("exceptions view: CSV rows are the JSON's (type, throwing method) counts", "[views]") {
  auto session = test::LoadCorpus("dotnet10/net10-startup-at-exit.nettrace");
  CHECK(session->ExceptionsView(true) ==
        "type,throwingMethod,count\n"
        "System.InvalidOperationException,TraceScenarios!TraceScenarios.ExceptionScenario.Level3,7\n"
        "System.ArgumentException,TraceScenarios!TraceScenarios.ExceptionScenario.ArgumentInner,3\n"
        "TraceScenarios.ScenarioException,TraceScenarios!TraceScenarios.ExceptionScenario.Deep4,2\n"
        "System.FormatException,System.Private.CoreLib!System.Number.ThrowFormatException,1\n");
}

TEST_CASE("contention view: 12 contended acquisitions, 8 Monitor + 4 Lock, by one thread, durations from DurationNs", "[views]") {
  for (const char* name : kContentionTraces) {
    SECTION(name) {
      const std::vector<uint8_t> file = test::ReadFile(test::DataPath(name));
      auto session = test::LoadSession(file);
      const Json v = Parse(session->ContentionView());
      const Json& lock = v["lock"];
      CHECK(lock["starts"].number == 12);
      CHECK(lock["waits"].number == 12);
      CHECK(lock["unpairedStarts"].number == 0);
      CHECK(lock["unpairedStops"].number == 0);
      CHECK(v["waitHandle"]["waits"].number == 0);
      // One waiting thread (the `contender`), one owner (the thread holding the lock).
      REQUIRE(lock["byThread"].array.size() == 1);
      CHECK(lock["byThread"][0]["count"].number == 12);
      REQUIRE(lock["byOwner"].array.size() == 1);
      CHECK(lock["byOwner"][0]["count"].number == 12);
      CHECK(lock["byOwner"][0]["owner"].number != lock["byThread"][0]["thread"].number);
      // Two locks: the Monitor's (8) and the System.Threading.Lock's (4).
      std::multiset<double> perLock;
      for (const Json& l : lock["byLock"].array) perLock.insert(l["count"].number);
      CHECK(perLock == std::multiset<double>{4, 8});
      // Each wait is the Stop's DurationNs (rounded to the ns), in time order; the total adds them.
      const std::vector<Json> stops = test::EventsOf(*session, file, Named("Microsoft-Windows-DotNETRuntime", "Contention/Stop"));
      const std::vector<Json> starts = test::EventsOf(*session, file, Named("Microsoft-Windows-DotNETRuntime", "Contention/Start"));
      REQUIRE(stops.size() == 12);
      REQUIRE(v["list"].array.size() == 12);
      double total = 0;
      for (size_t i = 0; i < 12; ++i) {
        const Json& w = v["list"][i];
        CHECK(w["measured"].boolean);
        CHECK(w["durationNs"].number == std::llround(test::Field(stops[i], "DurationNs")->number));
        CHECK(w["timeMs"].number == Approx(starts[i]["timeMs"].number).margin(1e-6));
        CHECK(w["owner"].number == test::Field(starts[i], "LockOwnerThreadID")->number);
        total += w["durationNs"].number;
      }
      CHECK(lock["totalNs"].number == total);
      // The contention stacks weighed by time waited.
      StackQuery q;
      q.event = "Contention/Start", q.weight = WeightKind::kWaitTime;
      const Json flame = Parse(session->FlameGraphJson(q));
      CHECK(flame["unit"].string == "nanoseconds");
      CHECK(flame["total"].number == total);
    }
  }
}

TEST_CASE("activities view: 4 requests, 8 phases, 16 steps nested by activity id across threads", "[views]") {
  const std::vector<uint8_t> file = test::ReadFile(test::DataPath("dotnet10/net10-eventsource.nettrace"));
  auto session = test::LoadSession(file);
  const Json v = Parse(session->ActivitiesView());
  std::map<std::string, const Json*> names;
  for (const Json& n : v["names"].array)
    if (n["provider"].string == "TraceScenarios-Activities") names[n["name"].string] = &n;
  REQUIRE(names.size() == 3);
  CHECK((*names["Request"])["count"].number == 4);
  CHECK((*names["Request"])["finished"].number == 4);
  CHECK((*names["Phase"])["finished"].number == 8);
  CHECK((*names["Step"])["finished"].number == 16);
  CHECK(v["unmatchedStops"].number == 0);
  // Nesting: each request has 2 phases, each phase 2 steps; steps (awaiting Task.Delay)
  // end on other threads than they began on in some cases.
  const auto& list = v["activities"].array;
  std::map<size_t, int> children;
  bool crossThread = false;
  for (size_t i = 0; i < list.size(); ++i) {
    const Json& a = list[i];
    if (a["provider"].string != "TraceScenarios-Activities") continue;
    crossThread |= a["startThread"].number != a["stopThread"].number;
    const std::string& name = a["name"].string;
    if (name == "Request") {
      REQUIRE(a["parent"].kind == Json::kNumber);
      CHECK(list[static_cast<size_t>(a["parent"].number)]["name"].string == "Scenario");
      continue;
    }
    REQUIRE(a["parent"].kind == Json::kNumber);
    const Json& parent = list[static_cast<size_t>(a["parent"].number)];
    CHECK(parent["name"].string == (name == "Phase" ? "Request" : "Phase"));
    CHECK(a["depth"].number == parent["depth"].number + 1);
    CHECK(a["relatedId"].string == parent["id"].string);
    // A child lies within its parent.
    CHECK(a["startMs"].number >= parent["startMs"].number);
    CHECK(a["startMs"].number + a["durationMs"].number <= parent["startMs"].number + parent["durationMs"].number + 1e-6);
    ++children[static_cast<size_t>(a["parent"].number)];
  }
  CHECK(crossThread);
  CHECK(children.size() == 4 + 8);
  for (const auto& [parent, n] : children) CHECK(n == 2);
  // Ids and related ids are the Start events' own labels, in time order.
  const std::vector<Json> starts = test::EventsOf(*session, file, Named("TraceScenarios-Activities", "Request/Start"));
  REQUIRE(starts.size() == 4);
  size_t k = 0;
  for (const Json& a : list)
    if (a["name"].string == "Request") {
      CHECK(a["id"].string == starts[k]["labels"]["activityId"].string);
      CHECK(a["relatedId"].string == starts[k]["labels"]["relatedActivityId"].string);
      CHECK(a["startMs"].number == Approx(starts[k]["timeMs"].number).margin(1e-6));
      ++k;
    }
}

TEST_CASE("activities view: HttpClient requests, 5 sequential and 3 concurrent under one activity id", "[views]") {
  // net10-cpu-async-http: the 3 concurrent requests reach the trace with the same activity id,
  // which System.Net.Sockets' Accept of each loopback connection shares. TraceEvent keys live
  // activities by id alone (tests/node/activities_oracle.test.mjs: the same pairs): a Stop ends
  // whatever began last under its id, so 2 Stops end another provider's activity (ambiguous),
  // 4 find nothing left under theirs (2 Request/Stop, 2 Accept/Stop), and the HTTP phases whose
  // Request was ended that way nest under the live activity of their thread's task, a Scenario.
  auto session = test::LoadCorpus("dotnet10/net10-cpu-async-http.nettrace");
  const Json v = Parse(session->ActivitiesView());
  std::map<std::string, std::pair<double, double>> names;  // provider/name → (count, finished)
  for (const Json& n : v["names"].array) names[n["provider"].string + "/" + n["name"].string] = {n["count"].number, n["finished"].number};
  CHECK(names["System.Net.Http/Request"] == std::make_pair(8.0, 6.0));
  CHECK(names["System.Net.Sockets/Accept"] == std::make_pair(4.0, 2.0));
  CHECK(names["System.Net.Http/RequestHeaders"] == std::make_pair(8.0, 8.0));
  CHECK(names["System.Net.Http/ResponseContent"] == std::make_pair(8.0, 8.0));
  CHECK(names["TraceScenarios-Activities/Step"] == std::make_pair(16.0, 16.0));
  CHECK(v["unmatchedStops"].number == 4);
  CHECK(v["ambiguousStops"].number == 2);
  std::map<std::string, int> parents;  // of the HTTP phases
  for (const Json& a : v["activities"].array) {
    const std::string& name = a["name"].string;
    if (name != "RequestHeaders" && name != "ResponseHeaders" && name != "ResponseContent") continue;
    REQUIRE(a["parent"].kind == Json::kNumber);
    ++parents[v["activities"][static_cast<size_t>(a["parent"].number)]["name"].string];
  }
  CHECK(parents == std::map<std::string, int>{{"Request", 18}, {"Scenario", 6}});
}

TEST_CASE("counters view: the program's EventCounters and Metrics with names, units and totals", "[views]") {
  const std::vector<uint8_t> file = test::ReadFile(test::DataPath("dotnet10/net10-counters.nettrace"));
  auto session = test::LoadSession(file);
  const Json v = Parse(session->CountersView());
  std::map<std::string, const Json*> series;  // "provider/name[tags]"
  for (const Json& s : v["series"].array) series[s["provider"].string + "/" + s["name"].string + "[" + s["tags"].string + "]"] = &s;
  auto get = [&](const std::string& key) -> const Json& {
    INFO(key);
    REQUIRE(series.count(key));
    return *series.at(key);
  };
  CHECK(get("TraceScenarios-Counters/requests[]")["kind"].string == "sum");
  CHECK(get("TraceScenarios-Counters/requests[]")["total"].number == 25);
  CHECK(get("TraceScenarios-Counters/bytes[]")["total"].number == 32500);
  CHECK(get("TraceScenarios-Counters/bytes[]")["units"].string == "B");
  CHECK(get("TraceScenarios-Counters/latency-ms[]")["kind"].string == "mean");
  CHECK(get("TraceScenarios-Counters/latency-ms[]")["units"].string == "ms");
  CHECK(get("TraceScenarios-Counters/queue-length[]")["displayName"].string == "Queue length");
  CHECK(get("TraceScenarios.Metrics/orders[region=eu]")["total"].number == 13);
  CHECK(get("TraceScenarios.Metrics/orders[region=us]")["total"].number == 12);
  CHECK(get("TraceScenarios.Metrics/orders[region=eu]")["units"].string == "{order}");
  const Json& active = get("TraceScenarios.Metrics/active-orders[]");
  CHECK(active["kind"].string == "updown");
  CHECK(active["samples"].array.back()["value"].number == 17);  // ends at 17
  const Json& latency = get("TraceScenarios.Metrics/order-latency[]");
  CHECK(latency["kind"].string == "histogram");
  double histogramCount = 0;
  for (const Json& s : latency["samples"].array) histogramCount += s["count"].number;
  CHECK(histogramCount == 25);  // one recording per tick
  CHECK(get("TraceScenarios.Metrics/queue-depth[]")["kind"].string == "gauge");

  // Every sample equals its event's decoded payload.
  const std::vector<Json> counters = test::EventsOf(*session, file, Named("TraceScenarios-Counters", "EventCounters"));
  std::map<std::string, std::vector<const Json*>> byName;
  for (const Json& e : counters) {
    const Json& payload = e["payload"]["fields"][0]["value"]["Payload"];
    byName[payload["Name"].string].push_back(&payload);
  }
  for (const char* name : {"requests", "bytes", "latency-ms", "queue-length"}) {
    const Json& s = get(std::string("TraceScenarios-Counters/") + name + "[]");
    REQUIRE(s["samples"].array.size() == byName[name].size());
    for (size_t i = 0; i < byName[name].size(); ++i) {
      const Json& p = *byName[name][i];
      const Json& x = s["samples"][i];
      if (p.Has("Increment")) CHECK(x["increment"].number == Approx(p["Increment"].number));
      else CHECK(x["mean"].number == Approx(p["Mean"].number));
      CHECK(x["intervalSec"].number == Approx(p["IntervalSec"].number));
    }
  }
  const std::vector<Json> rates =
      test::EventsOf(*session, file, Named("System.Diagnostics.Metrics", "CounterRateValuePublished"));
  std::map<std::string, std::vector<std::pair<double, double>>> fromEvents;  // tags → (rate, value)
  for (const Json& e : rates)
    if (test::Field(e, "instrumentName")->string == "orders")
      fromEvents[test::Field(e, "tags")->string].emplace_back(std::stod(test::Field(e, "rate")->string),
                                                              std::stod(test::Field(e, "value")->string));
  for (const char* tags : {"region=eu", "region=us"}) {
    const Json& s = get(std::string("TraceScenarios.Metrics/orders[") + tags + "]");
    REQUIRE(s["samples"].array.size() == fromEvents[tags].size());
    for (size_t i = 0; i < fromEvents[tags].size(); ++i) {
      CHECK(s["samples"][i]["rate"].number == fromEvents[tags][i].first);
      CHECK(s["samples"][i]["value"].number == fromEvents[tags][i].second);
    }
  }
}

TEST_CASE("event views: the same at every chunk size", "[views]") {
  const std::vector<uint8_t> file = test::ReadFile(test::DataPath("dotnet10/net10-eventsource.nettrace"));
  auto whole = test::LoadSession(file, file.size());
  for (size_t chunk : {size_t{7}, size_t{4096}}) {
    auto s = test::LoadSession(file, chunk);
    CHECK(s->ExceptionsView() == whole->ExceptionsView());
    CHECK(s->ContentionView() == whole->ContentionView());
    CHECK(s->ActivitiesView(true) == whole->ActivitiesView(true));
    CHECK(s->CountersView() == whole->CountersView());
  }
}

}  // namespace
}  // namespace nettrace
