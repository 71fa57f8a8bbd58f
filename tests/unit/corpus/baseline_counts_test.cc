// For every real trace (NetTrace or NetPerf) with a TraceEvent baseline: our per-type counts, with
// TraceLog's bookkeeping events removed, equal TraceEvent's — same names, same counts,
// no extra or missing types (traceevent-baselines.md explains the rules).
#include <catch2/catch.hpp>

#include <map>
#include <sstream>

#include "test_support.h"

using namespace nettrace;

namespace {

// Baseline lines: "<key>, <count>, <sample>"; UTF-8 BOM, LF or CRLF.
std::map<std::string, uint64_t> ParseBaseline(std::string text) {
  if (text.rfind("\xEF\xBB\xBF", 0) == 0) text.erase(0, 3);
  std::map<std::string, uint64_t> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) continue;
    size_t a = line.find(", ");
    REQUIRE(a != std::string::npos);
    size_t b = line.find(',', a + 2);
    out[line.substr(0, a)] = std::stoull(line.substr(a + 2, b - (a + 2)));
  }
  return out;
}

// The original baselines were made by TraceEvent on Windows, where the runtime's manifest was
// registered: runtime events 200 and 201 (IncreaseMemoryPressure, DecreaseMemoryPressure), which
// have no TraceEvent template, were named after their task, "GC". TraceEvent 4.0.0 reading the
// trace itself names them EventID(200) and EventID(201) (tests/data/clr-names), as we do: our
// counts of those two are compared with the original's "GC".
std::map<std::string, uint64_t> ParseCounts(const std::string& text) {
  std::map<std::string, uint64_t> counts = ParseBaseline(text);
  for (const char* id : {"EventID(200)", "EventID(201)"}) {
    const std::string key = std::string("Microsoft-Windows-DotNETRuntime/") + id;
    if (auto it = counts.find(key); it != counts.end()) {
      counts["Microsoft-Windows-DotNETRuntime/GC"] += it->second;
      counts.erase(it);
    }
  }
  return counts;
}

}  // namespace

TEST_CASE("per-type counts equal TraceEvent's baselines", "[corpus][baseline]") {
  const char* withBaselines[] = {
      "eventpipe-dotnetcore2.1-linux-x64-objver3.netperf",
      "eventpipe-dotnetcore2.1-linux-x64-tracelogging.netperf",
      "eventpipe-dotnetcore3.0-win-x64-objver4.nettrace",
      "eventpipe-dotnetcore5.0-win-x64-arraytypes.nettrace",
      "eventpipe-dotnetcore6.0-win-x64-executioncheckpoints.nettrace",
  };
  for (const char* name : withBaselines) {
    INFO(name);
    auto bytes = test::ReadFile(test::DataPath(name));
    REQUIRE(!bytes.empty());
    auto baselineBytes = test::ReadFile(test::DataPath(std::string(name) + ".baseline.txt"));
    REQUIRE(!baselineBytes.empty());
    auto expected = ParseBaseline(std::string(baselineBytes.begin(), baselineBytes.end()));
    test::RunResult r = test::RunTrace(bytes, 1 << 20);
    REQUIRE(r.status.ok());
    auto actual = ParseCounts(r.counts);
    for (const auto& [key, count] : expected) {
      INFO("baseline type " << key);
      REQUIRE(actual.count(key) == 1);
      CHECK(actual[key] == count);
    }
    for (const auto& [key, count] : actual) {
      INFO("our type " << key << " (" << count << ")");
      CHECK(expected.count(key) == 1);
    }
  }
}

TEST_CASE("every corpus trace reads to its end marker without error", "[corpus]") {
  for (const auto& name : test::CorpusTraces()) {
    INFO(name);
    auto bytes = test::ReadFile(test::DataPath(name));
    REQUIRE(!bytes.empty());
    test::RunResult r = test::RunTrace(bytes, 1 << 20);
    INFO(r.status.ToString());
    CHECK(r.status.ok());
    CHECK(r.summary.find("\"complete\":true") != std::string::npos);
    CHECK(r.events > 0);
  }
}

TEST_CASE("summary facts of real traces", "[corpus]") {
  // Values read by TraceEvent's own tests and the corpus manifest (traceevent-baselines.md §4).
  auto r = test::RunTrace(test::ReadFile(test::DataPath("eventpipe-dotnetcore3.0-win-x64-objver4.nettrace")), 1 << 20);
  REQUIRE(r.status.ok());
  CHECK(r.summary.find("\"pointerSize\":8,\"processId\":10064,\"numberOfProcessors\":4") != std::string::npos);
  CHECK(r.summary.find("\"syncTimeTicks\":100935252313,\"tickFrequency\":3124099") != std::string::npos);
  CHECK(r.summary.find("\"eventCount\":105540,") != std::string::npos);
  CHECK(r.summary.find("\"processors\":4,") != std::string::npos);  // events on each of the 4 CPUs
  CHECK(r.summary.find("\"major\":4,") != std::string::npos);

  auto hr = test::RunTrace(test::ReadFile(test::DataPath("HeartRateMonitor.10068.nettrace")), 1 << 20);
  REQUIRE(hr.status.ok());
  CHECK(hr.summary.find("\"pointerSize\":4,\"processId\":10068") != std::string::npos);
  CHECK(hr.summary.find("\"eventCount\":114565,") != std::string::npos);
  CHECK(hr.summary.find("\"blocks\":{\"Event\":319,\"Metadata\":7,\"SequencePoint\":9,\"Stack\":17,\"Trace\":1}") !=
        std::string::npos);
  CHECK(hr.summary.find("\"tables\":{\"metadata\":34,\"stacks\":238,\"labelLists\":0,\"sequencePoints\":9}") !=
        std::string::npos);

  // v5 is recognisable only by its metadata tags (format-pitfalls.md §7).
  auto v5 = test::RunTrace(test::ReadFile(test::DataPath("eventpipe-dotnetcore5.0-win-x64-arraytypes.nettrace")), 4096);
  REQUIRE(v5.status.ok());
  CHECK(v5.summary.find("\"major\":5,") != std::string::npos);
}

TEST_CASE("chunk independence: 1, 7, 4096 and 1 MiB chunks give identical results", "[corpus][chunks]") {
  for (const auto& name : test::CorpusTraces()) {
    INFO(name);
    auto bytes = test::ReadFile(test::DataPath(name));
    test::RunResult whole = test::RunTrace(bytes, bytes.size());
    REQUIRE(whole.status.ok());
    for (size_t chunk : {size_t{1}, size_t{7}, size_t{4096}, size_t{1} << 20}) {
      INFO("chunk size " << chunk);
      test::RunResult r = test::RunTrace(bytes, chunk);
      CHECK(r.status.ok());
      CHECK(r.summary == whole.summary);
      CHECK(r.counts == whole.counts);
    }
  }
}
