// One event type and one thread table (the resolver stage): the summary counts events by
// the resolver's type and thread, the same ids the store's rows carry. So the summary's type
// rows are the store's type column grouped by (provider, name), and each summary thread's
// event count is the store's thread column grouped by the thread's key — on every corpus
// trace, and on its v6 conversion (thread blocks, label lists, sequence-point flushes). Its
// "withStacks" of a type are the type's rows whose stack in the store has frames.
#include <catch2/catch.hpp>

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "unit/convert/convert_support.h"
#include "unit/stacks/mini_json.h"
#include "unit/stacks/stacks_test_support.h"

namespace nettrace {

namespace {

using TypeCounts = std::map<std::pair<std::string, std::string>, uint64_t>;
using ThreadCounts = std::map<uint64_t, uint64_t>;

void CountStore(const TraceSession& session, TypeCounts* types, ThreadCounts* threads, TypeCounts* withFrames) {
  const TraceModel& m = session.model();
  for (size_t row = 0; row < m.store().size(); ++row) {
    const EventType& t = m.types()[m.store().type(row)];
    ++(*types)[{t.metadata.providerName, t.name}];
    const StackIndex stack = m.store().stack(row);
    if (stack.value != 0 && !m.stacks().Bytes(stack).empty()) ++(*withFrames)[{t.metadata.providerName, t.name}];
    ++(*threads)[m.threads()[m.store().thread(row)].key];
  }
}

void CountSummary(const TraceSession& session, TypeCounts* types, ThreadCounts* threads, TypeCounts* withFrames) {
  test::Json summary;
  REQUIRE(test::ParseJson(session.SummaryJson(), &summary));
  const bool v6 = summary["format"]["major"].number >= 6;
  for (const test::Json& t : summary["types"].array) {
    (*types)[{t["provider"].string, t["name"].string}] += static_cast<uint64_t>(t["count"].number);
    if (t["withStacks"].number > 0)
      (*withFrames)[{t["provider"].string, t["name"].string}] += static_cast<uint64_t>(t["withStacks"].number);
  }
  for (const test::Json& t : summary["threads"].array)
    if (t["eventCount"].number > 0)
      (*threads)[static_cast<uint64_t>(t[v6 ? "index" : "threadId"].number)] += static_cast<uint64_t>(t["eventCount"].number);
}

}  // namespace

TEST_CASE("the summary's types and threads are the store's, grouped", "[resolve][corpus]") {
  for (const std::string& name : test::CorpusTraces()) {
    const std::vector<uint8_t> bytes = test::ReadFile(test::DataPath(name));
    std::vector<uint8_t> v6;
    REQUIRE(test::ConvertToV6(bytes, &v6).ok());
    for (const auto& [label, input] : {std::pair{"original", &bytes}, std::pair{"v6", static_cast<const std::vector<uint8_t>*>(&v6)}}) {
      INFO(name << " (" << label << ")");
      auto session = test::LoadSession(*input, input->size());
      TypeCounts storeTypes, summaryTypes, storeFrames, summaryFrames;
      ThreadCounts storeThreads, summaryThreads;
      CountStore(*session, &storeTypes, &storeThreads, &storeFrames);
      CountSummary(*session, &summaryTypes, &summaryThreads, &summaryFrames);
      REQUIRE(!storeTypes.empty());
      CHECK(summaryTypes == storeTypes);
      CHECK(summaryThreads == storeThreads);
      CHECK(summaryFrames == storeFrames);
    }
  }
}

}  // namespace nettrace
