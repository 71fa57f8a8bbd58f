// The warm-up trace (write/warm_up_trace.h) runs what a first read of a profile runs: it is
// read without error, its samples' stacks are named by its rundown's methods, and its GCs,
// allocations and JIT events reach their statistics, read whole or in the 64 KiB chunks the
// engine worker's warm-up reads it in (web/src/engine/engine_warm_up.ts).
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "analysis/stacks/call_tree.h"
#include "trace_session.h"
#include "write/warm_up_trace.h"

using namespace nettrace;

TEST_CASE("the warm-up trace exercises reading, symbols, GC and JIT statistics", "[write]") {
  std::vector<uint8_t> bytes;
  REQUIRE(WriteWarmUpTrace(&bytes).ok());
  TraceSession session;
  REQUIRE(session.PushChunk(bytes.data(), bytes.size()).ok());
  REQUIRE(session.Finish().ok());
  // 4 threads x 2,000 samples, 500 AllocationTicks, 10 GCs of 5 events, 300 JIT loads, 600
  // rundown methods.
  CHECK(session.eventCount() == 9450);
  const std::string summary = session.SummaryJson();
  CHECK(summary.find("\"GC/AllocationTick\"") != std::string::npos);
  // Every sampled frame lies in a rundown method: named, none left as an address.
  const std::string flame = session.FlameGraphJson(StackQuery{});
  CHECK(flame.find("WarmUp.Program.Method") != std::string::npos);
  CHECK(flame.find("0x7ff") == std::string::npos);
  CHECK(session.GcJson().find("\"count\":10") != std::string::npos);
  CHECK(session.JitJson().find("WarmUp.Program.Method299") != std::string::npos);

  // In 64 KiB chunks (blocks then straddle chunks), the same as in one.
  TraceSession chunked;
  constexpr size_t kChunk = size_t{64} << 10;
  for (size_t at = 0; at < bytes.size(); at += kChunk)
    REQUIRE(chunked.PushChunk(bytes.data() + at, std::min(kChunk, bytes.size() - at)).ok());
  REQUIRE(chunked.Finish().ok());
  CHECK(chunked.SummaryJson() == summary);
}
