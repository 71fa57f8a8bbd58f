#include "analysis/query/event_query.h"

#include <algorithm>

#include "analysis/query/event_filter.h"
#include "analysis/query/event_index.h"

namespace nettrace {

namespace {

// The rows of the selected groups within the time range, one ascending run per group.
struct Run {
  const uint32_t* at;
  const uint32_t* end;
};

// The `offset`-th smallest row of the runs' union (runs are disjoint): the smallest row x
// with more than `offset` rows <= x, by a binary search over row numbers.
uint32_t NthRow(const std::vector<Run>& runs, uint64_t offset, RowRange rows, uint64_t* examined) {
  size_t lo = rows.begin, hi = rows.end - 1;
  while (lo < hi) {
    const size_t mid = lo + (hi - lo) / 2;
    uint64_t atOrBelow = 0;
    for (const Run& r : runs) atOrBelow += std::upper_bound(r.at, r.end, static_cast<uint32_t>(mid)) - r.at;
    *examined += runs.size();
    if (atOrBelow > offset) hi = mid;
    else lo = mid + 1;
  }
  return static_cast<uint32_t>(lo);
}

EventPage IndexedPage(const EventIndex& index, const std::vector<bool>& typeOk, const std::vector<bool>& threadOk,
                      RowRange rows, const EventQuery& q) {
  EventPage page;
  std::vector<Run> runs;
  for (const EventIndex::Group& g : index.groups()) {
    ++page.examined;
    if (!typeOk[g.type] || !threadOk[g.thread]) continue;
    const std::span<const uint32_t> all = index.Rows(g);
    const uint32_t* begin = std::lower_bound(all.data(), all.data() + all.size(), static_cast<uint32_t>(rows.begin));
    const uint32_t* end = std::lower_bound(begin, all.data() + all.size(), static_cast<uint32_t>(rows.end));
    if (begin == end) continue;
    runs.push_back({begin, end});
    page.totalMatches += static_cast<uint64_t>(end - begin);
  }
  if (q.offset >= page.totalMatches || q.limit == 0) return page;
  if (q.offset > 0) {
    const uint32_t first = NthRow(runs, q.offset, rows, &page.examined);
    for (Run& r : runs) r.at = std::lower_bound(r.at, r.end, first);
  }
  // Merge the runs from there: a min-heap of their heads.
  auto later = [](const Run& a, const Run& b) { return *a.at > *b.at; };
  std::erase_if(runs, [](const Run& r) { return r.at == r.end; });
  std::make_heap(runs.begin(), runs.end(), later);
  const uint64_t want = std::min<uint64_t>(q.limit, page.totalMatches - q.offset);
  while (page.rows.size() < want && !runs.empty()) {
    std::pop_heap(runs.begin(), runs.end(), later);
    Run& r = runs.back();
    page.rows.push_back(*r.at++);
    ++page.examined;
    if (r.at == r.end) runs.pop_back();
    else std::push_heap(runs.begin(), runs.end(), later);
  }
  return page;
}

}  // namespace

EventPage QueryEvents(const TraceModel& model, const EventQuery& q, const EventIndex* index) {
  const EventStore& store = model.store();
  const RowRange rows = RowsInTime(model, q.fromMs, q.toMs);
  EventPage page;
  if (q.provider.empty() && q.name.empty() && !q.thread) {
    // Every row in range matches: the page is a slice.
    page.totalMatches = rows.end - rows.begin;
    for (uint64_t k = q.offset; k < page.totalMatches && page.rows.size() < q.limit; ++k)
      page.rows.push_back(static_cast<uint32_t>(rows.begin + k));
    page.examined = page.rows.size();
    return page;
  }
  std::vector<bool> typeOk(model.types().size());
  for (size_t t = 0; t < typeOk.size(); ++t)
    typeOk[t] = TypeMatches(model.types()[EventTypeIndex(static_cast<uint16_t>(t))], q.provider, q.name);
  const std::vector<bool> threadOk = ThreadMask(model, q.thread);
  if (index && index->storeRows() == store.size()) return IndexedPage(*index, typeOk, threadOk, rows, q);
  for (size_t row = rows.begin; row < rows.end; ++row) {
    ++page.examined;
    if (!typeOk[store.type(row).value] || !threadOk[store.thread(row).value]) continue;
    if (page.totalMatches >= q.offset && page.rows.size() < q.limit) page.rows.push_back(static_cast<uint32_t>(row));
    ++page.totalMatches;
  }
  return page;
}

}  // namespace nettrace
