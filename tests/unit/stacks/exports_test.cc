// Exports other tools open. speedscope: the schema's required fields
// (https://www.speedscope.app/file-format-schema.json: $schema, shared.frames, profiles;
// a sampled profile's type, name, unit, startValue, endValue, samples, weights) with the
// selection's total weight; Chrome trace: valid JSON with one event per trace event;
// CSV: one row per event. And pyroscope's folded oracle for the same trace's stacks.
#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <sstream>

#include "unit/stacks/mini_json.h"
#include "unit/stacks/stacks_test_support.h"

namespace nettrace {
namespace {

void CheckSpeedscope(const std::string& text, uint64_t expectedTotal) {
  test::Json doc;
  REQUIRE(test::ParseJson(text, &doc));
  REQUIRE(doc.kind == test::Json::kObject);
  CHECK(doc["$schema"].string == "https://www.speedscope.app/file-format-schema.json");
  REQUIRE(doc.Has("shared"));
  const test::Json& frames = doc["shared"]["frames"];
  REQUIRE(frames.kind == test::Json::kArray);
  for (const test::Json& f : frames.array) CHECK(f["name"].kind == test::Json::kString);
  const test::Json& profiles = doc["profiles"];
  REQUIRE(profiles.kind == test::Json::kArray);
  REQUIRE(!profiles.array.empty());
  CHECK(doc["activeProfileIndex"].number < profiles.array.size());
  CHECK(doc["exporter"].kind == test::Json::kString);
  CHECK(doc["name"].kind == test::Json::kString);
  const std::set<std::string> units = {"none", "nanoseconds", "microseconds", "milliseconds", "seconds", "bytes"};
  double total = 0;
  for (const test::Json& p : profiles.array) {
    CHECK(p["type"].string == "sampled");
    CHECK(p["name"].kind == test::Json::kString);
    CHECK(units.count(p["unit"].string) == 1);
    const test::Json& samples = p["samples"];
    const test::Json& weights = p["weights"];
    REQUIRE(samples.array.size() == weights.array.size());
    double sum = 0;
    size_t badIndex = 0;
    for (size_t i = 0; i < samples.array.size(); ++i) {
      for (const test::Json& idx : samples[i].array)
        if (idx.kind != test::Json::kNumber || idx.number < 0 || idx.number >= frames.array.size()) ++badIndex;
      sum += weights[i].number;
    }
    CHECK(badIndex == 0);
    CHECK(p["endValue"].number - p["startValue"].number == sum);
    total += sum;
  }
  CHECK(total == static_cast<double>(expectedTotal));
}

TEST_CASE("stacks: speedscope export has the schema's required fields and the total weight", "[stacks]") {
  for (const char* name : {"pyroscope-net5-single-thread.nettrace", "sentry-net6-profile-with-task.nettrace",
                           "HeartRateMonitor.10068.nettrace"}) {
    INFO(name);
    auto session = test::LoadCorpus(name);
    StackResolver resolver(session->model(), session->symbols());
    const uint64_t total = SelectStacks(session->model(), session->symbols(), &resolver, StackQuery{}).totalWeight;
    CHECK(total > 0);
    CheckSpeedscope(session->ExportSpeedscope(StackQuery{}, name), total);
  }
}

TEST_CASE("stacks: Chrome trace export is valid JSON with one event per trace event", "[stacks]") {
  for (const char* name : {"sentry-net6-profile-with-task.nettrace", "HeartRateMonitor.10068.nettrace"}) {
    INFO(name);
    auto session = test::LoadCorpus(name);
    test::Json doc;
    REQUIRE(test::ParseJson(session->ExportChromeTrace(), &doc));
    const test::Json& events = doc["traceEvents"];
    size_t instants = 0, missingFrames = 0;
    for (const test::Json& e : events.array) {
      // Metadata, and the durations of activities and GCs (tests/node/exports_analysis).
      if (e["ph"].string == "M" || e["ph"].string == "X") continue;
      ++instants;
      CHECK(e["ph"].string == "i");
      if (e.Has("sf") && !doc["stackFrames"].Has(std::to_string(static_cast<uint64_t>(e["sf"].number)))) ++missingFrames;
    }
    CHECK(instants == session->model().store().size());
    CHECK(missingFrames == 0);
    for (const auto& [id, frame] : doc["stackFrames"].object)
      if (frame.Has("parent")) CHECK(doc["stackFrames"].Has(frame["parent"].string));
  }
}

// The last field of a CSV line (quotes undone); our fields hold no line breaks.
std::string LastCsvField(const std::string& line) {
  if (line.empty() || line.back() != '"') return line.substr(line.rfind(',') + 1);
  size_t open = line.size() - 1;
  while (true) {
    open = line.rfind('"', open - 1);
    if (open == 0 || line[open - 1] == ',') break;
    --open;  // a doubled quote inside the field
  }
  std::string field;
  for (size_t i = open + 1; i + 1 < line.size(); ++i) {
    field += line[i];
    if (line[i] == '"') ++i;
  }
  return field;
}

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> out;
  for (size_t at = 0; at < text.size();) {
    const size_t end = text.find('\n', at);
    out.push_back(text.substr(at, end - at));
    at = end + 1;
  }
  return out;
}

TEST_CASE("stacks: CSV export: one row per event with its stack id, the stacks once in their own CSV", "[stacks]") {
  auto session = test::LoadCorpus("HeartRateMonitor.10068.nettrace");
  const std::string csv = session->ExportEventsCsv();
  const std::vector<std::string> rows = Lines(csv);
  REQUIRE(rows.size() == session->model().store().size() + 1);
  CHECK(rows[0] == "TimeMs,Provider,Event,ThreadId,StackId");
  // Stack text once per distinct stack, not per row: the CSV stays near the trace's size
  // (every row repeating its frames made a 48 MB CSV of a 3.4 MB trace).
  CHECK(csv.size() < 2 * test::ReadFile(test::DataPath("HeartRateMonitor.10068.nettrace")).size());

  std::map<std::string, std::string> stackById;
  const std::vector<std::string> stacks = Lines(session->ExportStacksCsv());
  REQUIRE(stacks.size() > 100);
  CHECK(stacks[0] == "StackId,Depth,Stack");
  for (size_t i = 1; i < stacks.size(); ++i)
    stackById[stacks[i].substr(0, stacks[i].find(','))] = LastCsvField(stacks[i]);
  CHECK(stackById.size() == stacks.size() - 1);

  // On request each row carries its stack's text as well: the same text the id names.
  const std::vector<std::string> withText = Lines(session->ExportEventsCsv(/*stackText=*/true));
  REQUIRE(withText.size() == rows.size());
  CHECK(withText[0] == "TimeMs,Provider,Event,ThreadId,StackId,Stack");
  size_t withStack = 0;
  for (size_t i = 1; i < rows.size(); ++i) {
    const std::string id = LastCsvField(rows[i]);
    REQUIRE(withText[i].rfind(rows[i] + ",", 0) == 0);
    const std::string text = LastCsvField(withText[i]);
    if (id.empty()) {
      CHECK(text.empty());
      continue;
    }
    ++withStack;
    REQUIRE(stackById.count(id) == 1);
    CHECK(stackById[id] == text);
  }
  CHECK(withStack > 900);  // 921 samples and other events with stacks
}

// pyroscope's folded oracle (corpus MANIFEST "Other expected outputs"): frames with
// signatures, no UNMANAGED_CODE_TIME leaf, weights in thread time (ns since the thread's
// previous sample). Our stacks must be the same, and in thread-time weight the same
// numbers exactly, once signatures are dropped and external leaves merged into their parent.
std::map<std::string, uint64_t> ReadOracle(const std::string& file) {
  const std::vector<uint8_t> bytes = test::ReadFile(test::DataPath(file));
  std::istringstream in(std::string(bytes.begin(), bytes.end()));
  std::map<std::string, uint64_t> out;
  for (std::string line; std::getline(in, line);) {
    if (line.empty()) continue;
    std::string stack = line.substr(0, line.rfind(' ')), stripped;
    int depth = 0;  // drop each frame's "(signature)"
    for (char c : stack) {
      if (c == '(') ++depth;
      if (depth == 0) stripped += c;
      if (c == ')') --depth;
    }
    out[stripped] += std::stoull(line.substr(line.rfind(' ') + 1));
  }
  return out;
}

std::map<std::string, uint64_t> OursMerged(const TraceSession& session, WeightKind weight) {
  StackQuery q;
  q.weight = weight;
  std::istringstream in(session.FoldedStacks(q));
  std::map<std::string, uint64_t> out;
  const std::string external = std::string(";") + kExternalFrameName;
  for (std::string line; std::getline(in, line);) {
    std::string stack = line.substr(0, line.rfind(' '));
    if (stack.size() > external.size() && stack.compare(stack.size() - external.size(), external.size(), external) == 0)
      stack.resize(stack.size() - external.size());
    out[stack] += std::stoull(line.substr(line.rfind(' ') + 1));
  }
  return out;
}

TEST_CASE("stacks: thread-time folded stacks equal pyroscope's oracle exactly", "[stacks]") {
  auto session = test::LoadCorpus("pyroscope-net5-single-thread.nettrace");
  const auto oracle = ReadOracle("pyroscope-net5-single-thread.pyroscope-folded.txt");
  REQUIRE(oracle.size() == 4);
  CHECK(OursMerged(*session, WeightKind::kThreadTime) == oracle);
  CHECK(OursMerged(*session, WeightKind::kManagedThreadTime) ==
        ReadOracle("pyroscope-net5-single-thread.pyroscope-folded-managed-only.txt"));
}

TEST_CASE("stacks: sample counts share out like pyroscope's thread time", "[stacks]") {
  // Samples come every ~1 ms, so each stack's share of the samples is close to its share
  // of the time.
  auto session = test::LoadCorpus("pyroscope-net5-single-thread.nettrace");
  const auto oracle = ReadOracle("pyroscope-net5-single-thread.pyroscope-folded.txt");
  const auto ours = OursMerged(*session, WeightKind::kCount);
  REQUIRE(ours.size() == oracle.size());
  double ourTotal = 0, oracleTotal = 0;
  for (const auto& [s, w] : ours) ourTotal += static_cast<double>(w);
  for (const auto& [s, w] : oracle) oracleTotal += static_cast<double>(w);
  for (const auto& [stack, weight] : oracle) {
    INFO(stack);
    REQUIRE(ours.count(stack) == 1);
    CHECK(std::abs(static_cast<double>(ours.at(stack)) / ourTotal - static_cast<double>(weight) / oracleTotal) < 0.01);
  }
}

}  // namespace
}  // namespace nettrace
