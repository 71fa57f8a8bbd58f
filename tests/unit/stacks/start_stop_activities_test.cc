// Start-stop activity group frames (core/analysis/stacks/start_stop_activities.h) on the committed
// trace whose main thread runs four TraceScenarios-Control Scenario activities one after
// another (net10-startup-streaming: jit, loader, exceptions, contention). Each thread-time
// interval that begins inside an activity lies under "(Activities)" and that activity's
// frame, named as TraceEvent names it, and nothing else does: the weight under each activity
// frame is exactly the un-grouped weight of the thread between its Start and Stop (the
// activities view's times). Exact equality with dotnet-trace is tests/node/thread_time.test.mjs.
#include <map>
#include <sstream>

#include "analysis/stacks/start_stop_activities.h"
#include "unit/stacks/stacks_test_support.h"

namespace nettrace {
namespace {


// A GUID from its text (the first three groups little-endian in memory, as .NET keeps them).
Guid GuidOf(const std::string& text) {
  std::string hex;
  for (char c : text)
    if (c != '-') hex += c;
  Guid g;
  for (size_t i = 0; i < 16; ++i) g.bytes[i] = static_cast<uint8_t>(std::stoul(hex.substr(2 * i, 2), nullptr, 16));
  std::reverse(g.bytes.begin(), g.bytes.begin() + 4);
  std::reverse(g.bytes.begin() + 4, g.bytes.begin() + 6);
  std::reverse(g.bytes.begin() + 6, g.bytes.begin() + 8);
  return g;
}

// Folded weight per first frame below the thread frame ("(Activities);Activity …" or the rest).
std::map<std::string, uint64_t> WeightByActivity(const std::string& folded) {
  std::map<std::string, uint64_t> out;
  std::istringstream in(folded);
  for (std::string line; std::getline(in, line);) {
    const size_t space = line.rfind(' ');
    const uint64_t weight = std::stoull(line.substr(space + 1));
    const std::string stack = line.substr(0, space);
    const std::string prefix = "Thread (14404);(Activities);";
    std::string key = "other threads";
    if (stack.rfind(prefix, 0) == 0) key = stack.substr(prefix.size(), stack.find(';', prefix.size()) - prefix.size());
    else if (stack.rfind("Thread (14404);", 0) == 0) key = "no activity";
    out[key] += weight;
  }
  return out;
}

TEST_CASE("start-stop activities: TraceEvent's activity path names", "[stacks]") {
  // The four Scenario activity ids of net10-startup-streaming (process 14404).
  CHECK(ActivityPathString(GuidOf("00000f1c-0000-0000-0000-00008d909d59"), 14404) == "/#14404/1/15/");
  CHECK(ActivityPathString(GuidOf("0000121c-0000-0000-0000-00008d939d59"), 14404) == "/#14404/1/18/");
  CHECK(ActivityPathString(GuidOf("0000141c-0000-0000-0000-00008d959d59"), 14404) == "/#14404/1/20/");
  // System.Net.Http's Request inside Scenario 18 of net10-cpu-async-http (process 13891).
  CHECK(ActivityPathString(GuidOf("00c0121c-0000-0000-0000-00008a9d5d5a"), 13891) == "/#13891/1/18/0/");
  // Not an activity path of another process, nor a random GUID.
  CHECK_FALSE(ActivityPathString(GuidOf("00000f1c-0000-0000-0000-00008d909d59"), 14405));
  CHECK_FALSE(ActivityPathString(GuidOf("2e5dba47-a3d2-4d16-8ee0-6671ffdcd7b5"), 14404));
}

TEST_CASE("start-stop activities: an id in an activity's name, as StartStopActivity.Name writes it", "[stacks]") {
  CHECK(ActivityIdText(GuidOf("00000f1c-0000-0000-0000-00008d909d59"), 14404) == "/#14404/1/15/");
  // The runtime's ExceptionCatch/Start outside any activity: the GUID of zeros, as a GUID.
  CHECK(ActivityIdText(Guid(), 14404) == "00000000-0000-0000-0000-000000000000");
  // TraceEvent's well-known patterns: FrameworkEventSource's HTTP and ADO.NET's SQL command ids.
  CHECK(ActivityIdText(GuidOf("0000abcd-0000-0000-0607-08090a0b0c0d"), 14404) == "HTTP/Id=0000abcd");
  CHECK(ActivityIdText(GuidOf("12345678-04d2-0005-0707-08090a0b0c0d"), 14404) == "SQL/Id=12345678");
  CHECK(ActivityIdText(GuidOf("2e5dba47-a3d2-4d16-8ee0-6671ffdcd7b5"), 14404) == "2e5dba47-a3d2-4d16-8ee0-6671ffdcd7b5");
}

TEST_CASE("start-stop activities: net10-startup-streaming's Scenario activities group the main thread", "[stacks]") {
  auto session = test::LoadCorpus("dotnet10/net10-startup-streaming.nettrace");
  const std::map<std::string, uint64_t> on = WeightByActivity(session->FoldedStacks(test::TraceEventThreadTime(true)));
  const std::map<std::string, uint64_t> off = WeightByActivity(session->FoldedStacks(test::TraceEventThreadTime(false)));
  CHECK(off.count("(Activities)") == 0);
  CHECK(off.size() == 2);  // 14404 without activity frames, and the other thread
  CHECK(on.at("other threads") == off.at("other threads"));

  // Start time and duration (ms) of each Scenario (`nettrace activities`), by name.
  const std::vector<std::tuple<std::string, double, double>> scenarios = {
      {"Activity Scenario(/#14404/1/15/,/name=jit)", 385.400908, 586.539635},
      {"Activity Scenario(/#14404/1/18/,/name=loader)", 984.374986, 35.711672},
      {"Activity Scenario(/#14404/1/19/,/name=exceptions)", 1020.164507, 13.151706},
      {"Activity Scenario(/#14404/1/20/,/name=contention)", 1033.359466, 99.596787},
  };
  CHECK(session->ActivitiesView(false).find("\"startMs\":385.400908,\"durationMs\":586.539635") != std::string::npos);
  uint64_t inside = 0;
  for (const auto& [frame, startMs, durationMs] : scenarios) {
    StackQuery q = test::TraceEventThreadTime(false);
    q.thread = 14404;
    q.fromMs = startMs;
    q.toMs = startMs + durationMs;
    const FlameGraph window = session->BuildFlameGraph(q);
    INFO(frame);
    REQUIRE(on.count(frame) == 1);
    CHECK(on.at(frame) == window.total);
    CHECK(window.total > 0);
    inside += on.at(frame);
  }
  CHECK(on.size() == scenarios.size() + 2);
  CHECK(on.at("no activity") + inside == off.at("no activity"));
}

// TraceEvent applies a Stop at the next event that asks for an activity: the await begun at
// 899.70 ms (TaskWait/Send, event 5272 of net10-cpu-async-http, on 13917) right after
// RequestHeaders/Stop inherits RequestHeaders, stopped before the await began, so its time
// (ended on 13911 at 913.08 ms) goes under the live activity then: Scenario, the Request having
// stopped at 908.34 ms. The await begun at 900.07 ms (event 5292), after another event applied
// the Stop of an earlier RequestHeaders, carries the Request, stopped after it began.
TEST_CASE("start-stop activities: a Stop takes effect after a task created right after it", "[stacks]") {
  auto session = test::LoadCorpus("dotnet10/net10-cpu-async-http.nettrace");
  auto awaitLine = [&](double fromMs, double toMs) {
    StackQuery q = test::TraceEventThreadTime(true);
    q.thread = 13911;  // an await's time is kept with the thread that ends it
    q.fromMs = fromMs, q.toMs = toMs;
    std::istringstream in(session->FoldedStacks(q));
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    REQUIRE(lines.size() == 1);
    CHECK(lines[0].find(";AWAIT_TIME ") != std::string::npos);
    return lines[0];
  };
  const std::string scenario = "(Activities);Activity Scenario(/#13891/1/18/,/name=http);";
  const std::string early = awaitLine(899.70, 899.705);
  CHECK(early.find(scenario) != std::string::npos);
  CHECK(early.find("Activity Request") == std::string::npos);
  CHECK(early.ends_with(" 13376677"));
  const std::string later = awaitLine(900.06, 900.07);
  CHECK(later.find(scenario + "Activity Request(/#13891/1/18/0/,/scheme=http);") != std::string::npos);
  CHECK(later.ends_with(" 12728727"));
}

}  // namespace
}  // namespace nettrace
