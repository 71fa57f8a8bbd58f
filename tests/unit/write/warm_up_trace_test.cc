// The warm-up trace (write/warm_up_trace.h) runs what a first read of a profile runs: it is
// read without error, its samples' stacks are named by its rundown's methods, and its GCs,
// allocations and JIT events reach their statistics. WarmUpEngine reads it through the facade.
#include <catch2/catch.hpp>

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

  std::string warm;
  REQUIRE(WarmUpEngine(&warm).ok());
  CHECK(warm == summary);  // in 64 KiB chunks, the same as in one
}
