// Free-text event search (reread/text_search.h, TraceSession::SearchText): the matches
// must equal a brute-force filter over every event's parsed EventJson (provider, name,
// thread id and name, label values, payload field values at any depth), on the corpus and
// on a written trace where a word occurs only in one exception's message.
#include <algorithm>

#include "reread/text_search.h"
#include "unit/analysis/analysis_test_support.h"
#include "unit/stacks/stacks_test_support.h"

namespace nettrace {
namespace {

using test::Json;

bool Has(const std::string& s, const std::string& lowerNeedle) { return LowerAscii(s).find(lowerNeedle) != std::string::npos; }

// Any string value (at any depth) contains the needle. Numbers are not looked at: the
// needles below are not numeric.
bool AnyString(const Json& v, const std::string& needle) {
  switch (v.kind) {
    case Json::kString: return Has(v.string, needle);
    case Json::kArray: return std::any_of(v.array.begin(), v.array.end(), [&](const Json& i) { return AnyString(i, needle); });
    case Json::kObject:
      return std::any_of(v.object.begin(), v.object.end(), [&](const auto& kv) { return AnyString(kv.second, needle); });
    default: return false;
  }
}

bool BruteMatch(const Json& e, const std::string& needle) {
  if (Has(e["provider"].string, needle) || Has(e["name"].string, needle)) return true;
  if (e.Has("threadName") && Has(e["threadName"].string, needle)) return true;
  if (AnyString(e["labels"], needle)) return true;
  for (const Json& f : e["payload"]["fields"].array)
    if (AnyString(f["value"], needle)) return true;
  return false;
}

std::vector<uint32_t> Search(TraceSession& s, const std::vector<uint8_t>& file, EventQuery q, uint64_t step = 32768) {
  std::vector<uint32_t> rows;
  Status st = s.SearchText(q, [&](uint64_t offset, uint64_t size, std::vector<uint8_t>* out) {
    if (offset + size > file.size()) return false;
    out->assign(file.begin() + static_cast<std::ptrdiff_t>(offset), file.begin() + static_cast<std::ptrdiff_t>(offset + size));
    return true;
  }, &rows, step);
  REQUIRE(st.ok());
  return rows;
}

}  // namespace

TEST_CASE("text search: corpus matches equal a brute-force filter over every event's JSON", "[analysis][corpus]") {
  for (const std::string& name : {std::string("eventpipe-dotnetcore3.0-win-x64-objver4.nettrace"),
                                  std::string("sentry-net6-profile-with-task.nettrace")}) {
    INFO(name);
    const std::vector<uint8_t> file = test::ReadFile(test::DataPath(name));
    auto session = test::LoadSession(file);
    const std::vector<Json> all = test::EventsOf(*session, file, EventQuery{});
    REQUIRE(all.size() == session->model().store().size());
    for (const char* text : {"Char[]", "system.private", "Sample", "AssemblyLoader", "ThreadPool", "no-such-text!"}) {
      INFO(text);
      const std::string needle = LowerAscii(text);
      std::vector<uint32_t> expected;
      for (const Json& e : all)
        if (BruteMatch(e, needle)) expected.push_back(static_cast<uint32_t>(e["index"].number));
      EventQuery q;
      q.text = text;
      // Small steps too: many steps, each bounded by its block count.
      CHECK(Search(*session, file, q) == expected);
      CHECK(Search(*session, file, q, 1000) == expected);
      CHECK(expected.size() < all.size());
    }
    // With the other filters: a type and a time window.
    EventQuery q;
    q.text = "char", q.name = "GC/AllocationTick", q.fromMs = 0, q.toMs = 1e12;
    std::vector<uint32_t> expected;
    for (const Json& e : all)
      if (e["name"].string == "GC/AllocationTick" && BruteMatch(e, "char")) expected.push_back(static_cast<uint32_t>(e["index"].number));
    CHECK(Search(*session, file, q) == expected);
  }
}

TEST_CASE("text search: a word only in an exception message is found; cheap fields need no payload", "[analysis]") {
  const std::vector<uint8_t> file = WriteRuntimeTrace();
  auto session = test::LoadSession(file);
  EventQuery q;
  q.text = "XYZZY";
  const std::vector<uint32_t> rows = Search(*session, file, q);
  REQUIRE(rows.size() == 1);
  Json e;
  REQUIRE(test::ParseJson(session->EventJson(rows[0]), &e));
  CHECK(test::Field(e, "ExceptionType")->string == "System.IO.IOException");

  // The type name of allocation ticks.
  q.text = "system.string";
  CHECK(Search(*session, file, q).size() == 2);

  // A thread name matches without any payload: the scan asks for none.
  q.text = "sampler";
  TextScanStep step = session->ScanText(q, 0, 1000);
  CHECK(step.next == step.end);
  CHECK(step.matches.size() == 5);  // thread 200's events
  q.text = "exception";  // the type name: every Exception/Start without payloads
  step = session->ScanText(q, 0, 1000);
  CHECK(step.matches.size() == 4);

  // Without its block, a payload-only match cannot be seen.
  TraceSession fresh;
  REQUIRE(fresh.PushChunk(file.data(), file.size()).ok());
  REQUIRE(fresh.Finish().ok());
  q.text = "xyzzy";
  step = fresh.ScanText(q, 0, 1000);
  CHECK(step.matches.empty());
  CHECK(fresh.MatchPayloadText(step.needPayload, q.text).empty());
  test::ProvideRows(fresh, file, step.needPayload);
  CHECK(fresh.MatchPayloadText(step.needPayload, q.text) == rows);
}

}  // namespace nettrace

namespace nettrace {

// A block the caller still needs is not evicted by providing the others of the same request:
// BlocksNeeded moves cached blocks it skips to the back of the eviction order. Without that,
// a text-search step whose oldest cached block is among its own would lose its payloads.
TEST_CASE("text search: blocks still needed survive the providing of a step's other blocks", "[analysis][corpus]") {
  const std::vector<uint8_t> file = test::ReadFile(test::DataPath("HeartRateMonitor.10068.nettrace"));
  auto session = test::LoadSession(file);
  const EventStore& store = session->model().store();
  // One row per distinct block, in row order.
  std::vector<uint32_t> perBlock;
  std::vector<uint64_t> seen;
  for (uint32_t row = 0; row < store.size() && perBlock.size() < 64 + kMaxBlocksPerStep; ++row) {
    const uint64_t b = store.Locate(row).blockOffset;
    if (std::find(seen.begin(), seen.end(), b) != seen.end()) continue;
    seen.push_back(b), perBlock.push_back(row);
  }
  REQUIRE(perBlock.size() == 64 + kMaxBlocksPerStep);
  // Fill the cache with the first 64 blocks, oldest first.
  for (size_t i = 0; i < 64; ++i) test::ProvideRows(*session, file, {perBlock[i]});
  // A request for the oldest cached block and kMaxBlocksPerStep - 1 new ones.
  std::vector<uint32_t> request = {perBlock[0]};
  for (size_t i = 64; i < 64 + kMaxBlocksPerStep - 1; ++i) request.push_back(perBlock[i]);
  CHECK(session->BlocksNeeded(request).size() == kMaxBlocksPerStep - 1);
  test::ProvideRows(*session, file, request);
  for (uint32_t row : request) {
    Json e;
    REQUIRE(test::ParseJson(session->EventJson(row), &e));
    CHECK(e["detail"].boolean);
  }
}

}  // namespace nettrace
