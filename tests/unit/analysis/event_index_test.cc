// The event table's pages filtered by type or thread, taken from the (type, thread) index:
// the same rows and totals as a pass over the store, at the start, middle and end of real
// traces, and a cost that does not depend on where the page is.
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>

#include "analysis/query/event_index.h"
#include "analysis/query/event_query.h"
#include "unit/stacks/stacks_test_support.h"

namespace nettrace {
namespace {

// The busiest type and thread of a store (by rows), the queries are built from them.
struct Busiest {
  uint16_t type = 0, thread = 0;
};

Busiest BusiestOf(const EventStore& store) {
  std::map<uint16_t, size_t> types, threads;
  for (size_t row = 0; row < store.size(); ++row) ++types[store.type(row).value], ++threads[store.thread(row).value];
  auto most = [](const std::map<uint16_t, size_t>& m) {
    return std::max_element(m.begin(), m.end(), [](auto& a, auto& b) { return a.second < b.second; })->first;
  };
  return {most(types), most(threads)};
}

std::vector<EventQuery> FilteredQueries(const TraceModel& model) {
  const Busiest b = BusiestOf(model.store());
  const EventType& type = model.types()[EventTypeIndex(b.type)];
  const ThreadEntry& thread = model.threads()[ThreadIndex(b.thread)];
  const uint64_t os = thread.osThreadId.value_or(thread.key);
  const double mid = TicksToMs(model.info(), model.store().timestamp(model.store().size() / 2));
  std::vector<EventQuery> out(6);
  out[0].name = type.name;
  out[1].provider = type.metadata.providerName;
  out[2].thread = os;
  out[3].provider = type.metadata.providerName, out[3].thread = os;
  out[4].name = type.name, out[4].fromMs = mid;
  out[5].thread = os, out[5].toMs = mid;
  return out;
}

EventPage Page(const TraceModel& model, EventQuery q, uint64_t offset, const EventIndex* index) {
  q.offset = offset, q.limit = 200;
  return QueryEvents(model, q, index);
}

TEST_CASE("Filtered event pages from the index equal the scan's", "[analysis][event-index]") {
  for (const char* name : {"eventpipe-dotnetcore3.0-win-x64-objver4.nettrace", "dotnet10/net10-web-exceptions.nettrace",
                           "sentry-net6-profile-with-task.nettrace"}) {
    INFO(name);
    auto session = test::LoadCorpus(name);
    const TraceModel& model = session->model();
    const EventIndex index(model.store(), model.types().size(), model.threads().size());
    // Counts too large for the table of every (type, thread): the groups come from the map.
    const EventIndex mapped(model.store(), 65536, 65536);
    for (const EventQuery& q : FilteredQueries(model)) {
      const uint64_t total = Page(model, q, 0, nullptr).totalMatches;
      REQUIRE(total > 0);
      for (uint64_t offset : {uint64_t{0}, total / 2, total > 50 ? total - 50 : 0, total, total + 7}) {
        INFO("provider " << q.provider << " name " << q.name << " thread " << q.thread.value_or(0) << " offset " << offset);
        const EventPage scan = Page(model, q, offset, nullptr);
        const EventPage indexed = Page(model, q, offset, &index);
        CHECK(indexed.totalMatches == scan.totalMatches);
        CHECK(indexed.rows == scan.rows);
        const EventPage fromMap = Page(model, q, offset, &mapped);
        CHECK(fromMap.totalMatches == scan.totalMatches);
        CHECK(fromMap.rows == scan.rows);
        // The session builds its own index on the first filtered page.
        EventQuery paged = q;
        paged.offset = offset, paged.limit = 200;
        uint64_t sessionTotal = 0;
        CHECK(session->QueryEvents(paged, &sessionTotal) == scan.rows);
        CHECK(sessionTotal == scan.totalMatches);
      }
    }
  }
}

TEST_CASE("An event page costs the same wherever it is", "[analysis][event-index]") {
  auto session = test::LoadCorpus("HeartRateMonitor.10068.nettrace");
  const TraceModel& model = session->model();
  const size_t rows = model.store().size();
  REQUIRE(rows > 100'000);
  const EventIndex index(model.store(), model.types().size(), model.threads().size());
  std::vector<EventQuery> queries = FilteredQueries(model);
  queries.push_back(EventQuery{});  // unfiltered
  for (const EventQuery& q : queries) {
    const uint64_t total = Page(model, q, 0, &index).totalMatches;
    const EventPage start = Page(model, q, 0, &index);
    const EventPage middle = Page(model, q, total / 2, &index);
    const EventPage end = Page(model, q, total > 200 ? total - 200 : 0, &index);
    INFO("provider " << q.provider << " name " << q.name << " thread " << q.thread.value_or(0) << " matches " << total
                     << " examined " << start.examined << " / " << middle.examined << " / " << end.examined);
    // The groups, a binary search and the page: a few thousand at most, not the rows in range.
    CHECK(std::max({start.examined, middle.examined, end.examined}) < rows / 50);
    CHECK(middle.examined <= 2 * start.examined + 2'000);
    CHECK(end.examined <= 2 * start.examined + 2'000);
  }
}

}  // namespace
}  // namespace nettrace
