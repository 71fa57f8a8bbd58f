// Histograms (event counts over time buckets): totals agree with the event query, the
// buckets partition the range, and grouping splits the same counts into series.
#include <catch2/catch.hpp>

#include <numeric>

#include "analysis/query/event_query.h"
#include "analysis/query/histogram.h"
#include "test_support.h"
#include "trace_session.h"

using namespace nettrace;

namespace {
double Sum(const std::vector<double>& v) { return std::accumulate(v.begin(), v.end(), 0.0); }

void Load(TraceSession& session, const std::string& name) {
  std::vector<uint8_t> bytes = test::ReadFile(test::DataPath(name));
  REQUIRE(!bytes.empty());
  REQUIRE(session.PushChunk(bytes.data(), bytes.size()).ok());
  REQUIRE(session.Finish().ok());
}
}  // namespace

TEST_CASE("histogram totals equal the event query's matches, for every corpus trace", "[histogram]") {
  for (const std::string& name : test::CorpusTraces()) {
    INFO(name);
    TraceSession session;
    Load(session, name);
    HistogramQuery hq;
    hq.buckets = 37;
    Histogram all = session.BuildHistogram(hq);
    uint64_t total = 0;
    session.QueryEvents(EventQuery{}, &total);
    CHECK(all.total == total);
    CHECK(all.buckets == 37);
    REQUIRE(all.series.size() == 1);
    CHECK(all.counts.size() == 37);
    CHECK(Sum(all.counts) == static_cast<double>(total));
    CHECK(all.toMs >= all.fromMs);

    hq.groupBy = HistogramGroup::kProvider;
    Histogram byProvider = session.BuildHistogram(hq);
    CHECK(byProvider.total == total);
    CHECK(byProvider.counts.size() == byProvider.series.size() * 37);
    CHECK(std::is_sorted(byProvider.series.begin(), byProvider.series.end()));
    // Per bucket, the series add up to the ungrouped count.
    for (uint32_t b = 0; b < 37; ++b) {
      double s = 0;
      for (size_t k = 0; k < byProvider.series.size(); ++k) s += byProvider.counts[k * 37 + b];
      CHECK(s == all.counts[b]);
    }
    // A provider's series equals the histogram filtered to that provider.
    for (size_t k = 0; k < byProvider.series.size(); ++k) {
      HistogramQuery one;
      one.buckets = 37;
      one.filter.provider = byProvider.series[k];
      Histogram h = session.BuildHistogram(one);
      std::vector<double> expected(byProvider.counts.begin() + static_cast<long>(k * 37),
                                   byProvider.counts.begin() + static_cast<long>((k + 1) * 37));
      CHECK(h.counts == expected);
    }

    hq.groupBy = HistogramGroup::kEventType;
    CHECK(session.BuildHistogram(hq).total == total);

    // One series per OS thread id, ascending, each equal to the histogram filtered to that
    // thread; with a name filter too (the flame graph's thread picker).
    for (const std::string& name : {std::string(), std::string("Thread/Sample")}) {
      HistogramQuery threads;
      threads.buckets = 5;
      threads.groupBy = HistogramGroup::kThread;
      threads.filter.name = name;
      const Histogram byThread = session.BuildHistogram(threads);
      CHECK(byThread.counts.size() == byThread.series.size() * 5);
      std::vector<uint64_t> ids;
      for (const std::string& id : byThread.series) ids.push_back(std::stoull(id));
      CHECK(std::is_sorted(ids.begin(), ids.end()));
      CHECK(std::adjacent_find(ids.begin(), ids.end()) == ids.end());
      double sum = 0;
      for (size_t k = 0; k < ids.size(); ++k) {
        HistogramQuery one;
        one.buckets = 5;
        one.filter.name = name;
        one.filter.thread = ids[k];
        const Histogram h = session.BuildHistogram(one);
        const std::vector<double> expected(byThread.counts.begin() + static_cast<long>(k * 5),
                                           byThread.counts.begin() + static_cast<long>((k + 1) * 5));
        CHECK(h.counts == expected);
        sum += Sum(h.counts);
      }
      CHECK(sum == static_cast<double>(byThread.total));
      if (name.empty()) CHECK(byThread.total == total);
    }
  }
}

TEST_CASE("histogram over a time window counts what the query finds there", "[histogram]") {
  TraceSession session;
  Load(session, "HeartRateMonitor.10068.nettrace");
  HistogramQuery whole;
  Histogram h = session.BuildHistogram(whole);
  REQUIRE(h.toMs > h.fromMs);
  EventQuery window;
  window.fromMs = h.fromMs + (h.toMs - h.fromMs) / 4;
  window.toMs = h.fromMs + (h.toMs - h.fromMs) / 2;
  uint64_t expected = 0;
  session.QueryEvents(window, &expected);
  HistogramQuery hq;
  hq.filter = window;
  hq.buckets = 10;
  Histogram w = session.BuildHistogram(hq);
  CHECK(w.total == expected);
  CHECK(w.fromMs == *window.fromMs);
  CHECK(w.toMs == *window.toMs);
  CHECK(w.bucketMs == Approx((*window.toMs - *window.fromMs) / 10));

  HistogramQuery none;
  none.filter.provider = "No-Such-Provider";
  Histogram empty = session.BuildHistogram(none);
  CHECK(empty.total == 0);
  CHECK(empty.series.size() == 1);
  CHECK(Sum(empty.counts) == 0);
  none.buckets = 0;  // clamped to one bucket
  CHECK(session.BuildHistogram(none).buckets == 1);
}
