// GC/AllocationTick's bytes, one rule for the runtime signals' allocations by type and the
// bytes weight of stacks (format/payload/allocation_tick.h, TraceEvent's GetAllocAmount):
// AllocationAmount64, or the Int32 AllocationAmount where that is absent or 0, held to
// 90 KB..110 KB (small) or 90 KB..2 MB (other kinds) once a negative amount was seen.
// Before, both read AllocationAmount64 even when 0, and a V1 amount as unsigned. The amount
// and kind are read once per tick, by the type resolver (ResolvedEvent::allocationTick), for
// every reader.
#include <map>

#include "analysis/stacks/call_tree.h"
#include "base/stats.h"
#include "format/trace_reader.h"
#include "resolve/type_resolver.h"
#include "unit/analysis/analysis_test_support.h"
#include "unit/stacks/stacks_test_support.h"
#include "unit/write/runtime_trace_support.h"
#include "write/payload_builder.h"

namespace nettrace {
namespace {

using test::Json;

// GCAllocationTick_V2: AllocationAmount, AllocationKind, ClrInstanceID, AllocationAmount64,
// TypeID (pointer), TypeName, HeapIndex.
std::vector<uint8_t> TickV2(uint32_t amount, uint32_t kind, uint64_t amount64, const char* type) {
  PayloadBuilder b;
  b.AppendU32(amount).AppendU32(kind).AppendU16(7).AppendU64(amount64).AppendU64(0x1234);
  b.AppendNullTerminatedUtf16(std::string_view(type)).AppendU32(0);
  return b.bytes();
}
// GCAllocationTick_V1: AllocationAmount, AllocationKind, ClrInstanceID (no type name).
std::vector<uint8_t> TickV1(uint32_t amount, uint32_t kind) {
  return PayloadBuilder().AppendU32(amount).AppendU32(kind).AppendU16(7).bytes();
}

constexpr int64_t kKB = 1024;

const std::vector<EventMetadata> kTickMetadata = {test::RuntimeEventMetadata(1, 10, 2), test::RuntimeEventMetadata(2, 10, 1)};

std::vector<test::RuntimeTraceEvent> SixTicks() {
  return {
      {1, 1, 1000, TickV2(5000, 0, 0, "A"), 1},                 // AllocationAmount64 0: the Int32 one, 5000
      {1, 1, 1001, TickV2(300, 0, 300, "A"), 1},                // 300
      {1, 1, 1002, TickV2(0xFFFFFFF0u, 0, 0, "B"), 1},          // -16: a bad tick; held to 90 KB from here on
      {1, 1, 1003, TickV2(200000, 0, 200000, "B"), 1},          // small: 110 KB at most
      {1, 1, 1004, TickV2(3000000, 1, 3000000, "C"), 1},        // large: 2 MB at most
      {2, 1, 1005, TickV1(1000, 0), 1},                         // V1: 90 KB at least
  };
}

TEST_CASE("allocation ticks: the runtime signals and the bytes weight read one amount by TraceEvent's rule",
          "[analysis]") {
  const std::vector<EventMetadata>& meta = kTickMetadata;
  test::RuntimeTraceOptions options;
  options.stacks = {{1, 0, 0, 0, 0, 0, 0, 0}};  // 1: one frame
  const std::vector<test::RuntimeTraceEvent> events = SixTicks();
  const int64_t expected[] = {5000, 300, 90 * kKB, 110 * kKB, 2048 * kKB, 90 * kKB};
  int64_t total = 0;
  for (int64_t b : expected) total += b;
  const std::vector<uint8_t> bytes = test::WriteRuntimeEventsTrace(meta, {test::RuntimeThread(1, 100)}, events, options);
  for (size_t chunk : {size_t{5}, bytes.size()}) {
    INFO("chunk " << chunk);
    auto session = test::LoadSession(bytes, chunk);
    Json summary;
    REQUIRE(test::ParseJson(session->SummaryJson(), &summary));
    const Json& al = summary["runtime"]["allocations"];
    CHECK(al["ticks"].number == 6);
    CHECK(al["bytes"].number == static_cast<double>(total));
    std::map<std::string, double> byType;
    for (const Json& t : al["types"].array) byType[t["type"].string] = t["bytes"].number;
    CHECK(byType["A"] == 5300);
    CHECK(byType["B"] == static_cast<double>(200 * kKB));
    CHECK(byType["C"] == static_cast<double>(2048 * kKB));
    CHECK(byType[""] == static_cast<double>(90 * kKB));  // V1 has no TypeName

    StackResolver resolver(session->model(), session->symbols());
    StackQuery alloc;
    alloc.event = "GC/AllocationTick";
    const StackSelection sel = SelectStacks(session->model(), session->symbols(), &resolver, alloc);
    REQUIRE(sel.size() == 6);
    CHECK(sel.unit == WeightUnit::kBytes);
    for (size_t i = 0; i < sel.size(); ++i) {
      INFO("tick " << i);
      CHECK(sel.weights[i] == static_cast<uint64_t>(expected[i]));
    }
    CHECK(sel.totalWeight == static_cast<uint64_t>(total));
  }
}

// What the resolver hands every later stage for each event: its allocation tick as read.
struct TicksSeen : RecordSink {
  const TypeResolver* resolver = nullptr;
  std::vector<AllocationTickValue> ticks;
  Status OnEvent(const EventRecord&) override {
    REQUIRE(resolver->current().kind == EventKind::kGcAllocationTick);
    ticks.push_back(resolver->current().allocationTick);
    return Status::Ok();
  }
};

TEST_CASE("allocation ticks: the resolver reads each tick's amount and kind once, before any clamp", "[analysis]") {
  const std::vector<uint8_t> bytes =
      test::WriteRuntimeEventsTrace(kTickMetadata, {test::RuntimeThread(1, 100)}, SixTicks(), {});
  Stats stats;
  TicksSeen seen;
  TypeResolver resolver{&seen, &stats};
  seen.resolver = &resolver;
  TraceReader reader{&resolver, &stats};
  REQUIRE(reader.Push(bytes.data(), bytes.size()).ok());
  REQUIRE(reader.Finish().ok());
  // GetAllocAmount's amount (the Int32 one where AllocationAmount64 is 0 or absent), unclamped:
  // each reader clamps with its own flag.
  const int64_t amounts[] = {5000, 300, -16, 200000, 3000000, 1000};
  const uint32_t kinds[] = {0, 0, 0, 0, 1, 0};
  REQUIRE(seen.ticks.size() == 6);
  for (size_t i = 0; i < 6; ++i) {
    INFO("tick " << i);
    CHECK(seen.ticks[i].amount == amounts[i]);
    CHECK(seen.ticks[i].kind == kinds[i]);
    CHECK(seen.ticks[i].complete);
  }
}

}  // namespace
}  // namespace nettrace
