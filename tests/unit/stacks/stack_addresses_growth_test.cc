// Every distinct stack's addresses appended into one buffer (what the in-source method names
// read before a flame graph or a call tree): the copying must grow linearly with the number of
// stacks. A buffer sized exactly for each stack in turn is reallocated, and its whole content
// copied, once per stack: quadratic in distinct stacks.
#include <catch2/catch.hpp>

#include "analysis/stacks/stack_frames.h"
#include "shapes/trace_parts.h"
#include "unit/stacks/stacks_test_support.h"
#include "write/nettrace_writer.h"

namespace nettrace {
namespace {

// A v6 trace with `stacks` distinct 4-frame stacks, each sampled once.
std::vector<uint8_t> DistinctStacks(uint32_t stacks) {
  NetTraceV6Writer w;
  TraceInfo info;
  info.syncTimeUtc = {2025, 2, 1, 3, 4, 5, 6, 0};
  info.tickFrequency = 1000;
  info.pointerSize = 8;
  info.processId = 42;
  REQUIRE(w.WriteTraceBlock(info).ok());
  EventMetadata sample;
  sample.id = 1, sample.providerName = "Microsoft-DotNETCore-SampleProfiler", sample.eventName = "ThreadSample";
  REQUIRE(w.WriteMetadataBlock(std::vector<EventMetadata>{sample}).ok());
  ThreadInfo t;
  t.index = 1, t.osThreadId = 100, t.osProcessId = 42;
  REQUIRE(w.WriteThreadBlock(std::vector<ThreadInfo>{t}).ok());
  std::vector<std::vector<uint8_t>> bytes;
  for (uint32_t s = 0; s < stacks; ++s) {
    const uint64_t ips[] = {0x10000 + s, 0x2000 + s % 7, 0x1100, 0x1000};
    bytes.push_back(shapes::StackBytes(ips, 8));
  }
  REQUIRE(w.WriteStackBlock(1, bytes).ok());
  static const uint8_t kManaged[] = {2, 0, 0, 0};
  std::vector<EventRecord> events(stacks);
  for (uint32_t s = 0; s < stacks; ++s) {
    EventRecord& e = events[s];
    e.metadataId = 1, e.timestamp = 10 + s, e.thread = 1, e.captureThread = 1;
    e.sequenceNumber = s + 1, e.stackId = s + 1, e.payload = kManaged;
  }
  REQUIRE(w.WriteEvents(events, /*compressed=*/true).ok());
  REQUIRE(w.WriteEndOfStream().ok());
  return w.TakeBytes();
}

struct Copying {
  size_t reallocations = 0;
  size_t elementsMoved = 0;  // elements copied into a new buffer by the reallocations
  size_t elements = 0;
};

Copying AppendAll(const TraceModel& model) {
  Copying c;
  std::vector<uint64_t> out;
  for (uint32_t i = 1; i < model.stacks().size(); ++i) {
    const uint64_t* before = out.data();
    const size_t size = out.size();
    AppendStackAddresses(model, StackIndex(i), &out);
    if (out.data() != before) {
      ++c.reallocations;
      c.elementsMoved += size;
    }
  }
  c.elements = out.size();
  return c;
}

TEST_CASE("Appending 100k distinct stacks' addresses copies linearly", "[stacks][linear]") {
  auto small = test::LoadSession(DistinctStacks(25'000));
  auto large = test::LoadSession(DistinctStacks(100'000));
  const Copying a = AppendAll(small->model());
  const Copying b = AppendAll(large->model());
  REQUIRE(a.elements == 25'000u * 4);
  REQUIRE(b.elements == 100'000u * 4);
  // Geometric growth: fewer elements moved in all than twice the final count (the last doubling
  // may move just under twice what is finally kept), a few dozen reallocations.
  CHECK(b.elementsMoved <= 2 * b.elements);
  CHECK(b.reallocations <= 64);
  // Four times the stacks, about four times the copying (quadratic would be sixteen).
  CHECK(b.elementsMoved <= 5 * std::max<size_t>(a.elementsMoved, 1));
}

}  // namespace
}  // namespace nettrace
