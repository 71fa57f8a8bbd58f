// Inputs the fuzzer found (tests/fuzz/regressions/, see its README): each must read, give
// a clear result, and, where the reader accepts it, convert to v6 and read back the same.
// The late-event reproducers are checked in unit/model/late_events_test.cc.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <string>

#include "analysis/stacks/call_tree.h"
#include "analysis/stacks/flame_graph.h"
#include "analysis/query/utc_time.h"
#include "test_support.h"
#include "trace_session.h"
#include "unit/convert/convert_support.h"

using namespace nettrace;

namespace {

std::vector<uint8_t> Regression(const std::string& name) {
  return test::ReadFile(test::RegressionPath(name));
}

bool HasStat(const std::string& summary, const std::string& name) {
  return summary.find("{\"name\":\"" + name + "\"") != std::string::npos;
}

}  // namespace

TEST_CASE("fuzz reproducer: an out-of-range sync time is reported, never converted with UB", "[fuzz-regressions]") {
  test::RunResult r = test::RunTrace(Regression("sync-time-out-of-range.nettrace"), 4096);
  CHECK(r.summary.find("\"syncTimeUtc\":null") != std::string::npos);
  CHECK(HasStat(r.summary, "syncTimeInvalid"));
}

TEST_CASE("IsoUtc refuses times outside years 1-9999 and formats the edges", "[fuzz-regressions]") {
  CHECK(IsoUtc(0.0) == "1970-01-01T00:00:00.000000Z");
  CHECK(IsoUtc(-62135596800000.0) == "0001-01-01T00:00:00.000000Z");
  CHECK(IsoUtc(253402300799000.0) == "9999-12-31T23:59:59.000000Z");
  CHECK(IsoUtc(1590127898687.5) == "2020-05-22T06:11:38.687500Z");
  for (double bad : {-62135596800000.5, 253402300800000.0, 1e300, -1e300, std::numeric_limits<double>::infinity(),
                     -std::numeric_limits<double>::infinity(), std::numeric_limits<double>::quiet_NaN()}) {
    INFO(bad);
    CHECK_FALSE(IsoUtc(bad).has_value());
  }
  SystemTime notADate{2021, 13, 0, 40, 25, 61, 61, 1000};
  CHECK(std::isnan(SyncUnixMs(notADate)));
  SystemTime leapDay{2024, 2, 0, 29, 23, 59, 59, 999};
  CHECK(IsoUtc(SyncUnixMs(leapDay)) == "2024-02-29T23:59:59.999000Z");
}

TEST_CASE("fuzz reproducers: what summary accepts converts to v6 and reads back with the same events",
          "[fuzz-regressions]") {
  struct Case {
    const char* file;
    const char* stat;  // the anomaly the reader reports for the shape v6 cannot express (or none)
  };
  for (const Case& c : {Case{"convert-refuses-empty-label-list.nettrace", "emptyLabelLists"},
                        Case{"convert-refuses-partial-stack.nettrace", "partialStackIps"},
                        Case{"convert-refuses-metadata-version-over-255.nettrace", "metadataByteFieldsTruncated"},
                        Case{"convert-refuses-metadata-id-of-32-bits.nettrace", "metadataIdsOutOfRange"},
                        Case{"convert-refuses-undefined-type-code.nettrace", "metadataFieldsCut"},
                        // "ProcessId" = "0058": the field reads as 58, the key keeps its spelling.
                        Case{"convert-refuses-process-id-key-spelling.nettrace", nullptr}}) {
    INFO(c.file);
    const auto bytes = Regression(c.file);
    test::RunResult original = test::RunTrace(bytes, bytes.size());
    REQUIRE(original.status.ok());
    if (c.stat) CHECK(HasStat(original.summary, c.stat));
    std::vector<uint8_t> v6;
    Status converted = test::ConvertToV6(bytes, &v6);
    INFO(converted.ToString());
    REQUIRE(converted.ok());
    test::RunResult back = test::RunTrace(v6, 4096);
    REQUIRE(back.status.ok());
    CHECK(back.events == original.events);
    CHECK(back.counts == original.counts);
    if (c.stat) CHECK_FALSE(HasStat(back.summary, c.stat));  // the converted file is a valid equivalent
  }
}

TEST_CASE("fuzz reproducer: stack weights whose sum overflows uint64 saturate, layouts stay nested",
          "[fuzz-regressions]") {
  // Thread time over hostile gaps: each sample weighs up to UINT64_MAX ns, so the sums wrapped
  // and flame-graph children came out of their parents.
  const auto bytes = Regression("flame-weight-sum-overflow.nettrace");
  TraceSession session;
  if (session.PushChunk(bytes.data(), bytes.size()).ok()) (void)session.Finish();  // damaged: partial read
  REQUIRE(session.eventCount() > 0);
  for (WeightKind weight : {WeightKind::kThreadTime, WeightKind::kManagedThreadTime}) {
    for (bool inverted : {false, true}) {
      StackQuery q;
      q.weight = weight, q.inverted = inverted, q.groupByThread = inverted;
      const FlameGraph g = session.BuildFlameGraph(q);
      REQUIRE(g.size() > 1);
      CHECK(g.total == UINT64_MAX);
      CHECK(g.end[0] == g.total);
      for (size_t i = 1; i < g.size(); ++i) {
        const uint32_t p = g.parent[i];
        CHECK((g.start[p] <= g.start[i] && g.end[i] <= g.end[p]));
        CHECK(g.self[i] <= g.end[i] - g.start[i]);
      }
    }
  }
}
