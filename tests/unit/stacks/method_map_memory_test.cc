// symbols/method_map.h: a trace that announces the same code again and again (a rundown at
// every rotation of a long session, a trace written several times back to back) holds about
// what its distinct code bodies need while it is read, not every announcement, and the map
// it ends in is the one a single announcement of each body would give.
#include <catch2/catch.hpp>

#include <algorithm>
#include <tuple>
#include <vector>

#include "symbols/method_map.h"
#include "symbols/symbol_collector.h"
#include "test_support.h"
#include "trace_session.h"

namespace nettrace {
namespace {

auto Key(const MethodRange& r) {
  return std::make_tuple(r.start, r.size, r.methodId, r.rejitId, r.loadTime, r.unloadTime, r.verbose);
}

}  // namespace

TEST_CASE("method map: HeartRateMonitor's ranges announced 12 times hold about one announcement's memory",
          "[stacks][memory]") {
  auto bytes = test::ReadFile(test::DataPath("HeartRateMonitor.10068.nettrace"));
  TraceSession session;
  REQUIRE(session.PushChunk(bytes.data(), bytes.size()).ok());
  REQUIRE(session.Finish().ok());
  // The trace's own ranges, names left out (names are refs into the session's pool).
  std::vector<MethodRange> real = session.symbols().methods().ranges();
  REQUIRE(real.size() > 20000);
  for (MethodRange& r : real) r.names = MethodNamesRef{}, r.verbose = false;

  constexpr int kTimes = 12;
  MethodMap repeated, once;
  size_t peak = 0;
  for (int round = 0; round < kTimes; ++round) {
    for (MethodRange r : real) {
      r.loadTime += static_cast<uint64_t>(round) * 1000;  // each announcement later than the last
      repeated.AddLoad(r);
    }
    // One range of this round's own, as new code would be: kept as well.
    MethodRange fresh;
    fresh.start = 0x10000000 + static_cast<uint64_t>(round) * 0x100, fresh.size = 0x80;
    fresh.methodId = 900000 + static_cast<uint64_t>(round), fresh.loadTime = 7;
    repeated.AddLoad(fresh);
    once.AddLoad(fresh);
    peak = std::max(peak, repeated.residentBytes());
  }
  for (const MethodRange& r : real) once.AddLoad(r);
  repeated.Finish();
  once.Finish();

  const size_t oneAnnouncement = real.size() * sizeof(MethodRange);
  WARN(real.size() << " ranges announced " << kTimes << " times: peak " << peak << " bytes held, "
                   << static_cast<double>(peak) / static_cast<double>(oneAnnouncement) << "x one announcement");
  // Every announcement kept until Finish would be kTimes x; merged as they come, the added
  // ranges stay below max(256 Ki ranges, twice the distinct ones) plus a block.
  CHECK(peak <= 5 * std::max<size_t>(oneAnnouncement, 65536 * sizeof(MethodRange)));

  REQUIRE(repeated.ranges().size() == once.ranges().size());
  for (size_t i = 0; i < once.ranges().size(); ++i) REQUIRE(Key(repeated.ranges()[i]) == Key(once.ranges()[i]));
}

}  // namespace nettrace
