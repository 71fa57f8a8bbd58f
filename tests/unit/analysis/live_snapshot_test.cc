// TraceSession::Snapshot (live sessions): the store is queryable before Finish,
// over exactly the events the sorter has released, whatever the chunk size, and taking
// snapshots changes nothing in the finished trace.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "analysis/query/event_query.h"
#include "model/store_builder.h"
#include "analysis/stacks/call_tree.h"
#include "symbols/method_map.h"
#include "symbols/symbol_collector.h"
#include "test_support.h"
#include "unit/write/runtime_trace_support.h"

namespace nettrace {
namespace {

// One snapshot: where it was taken, and the store's rows then as (timestamp, type).
struct Taken {
  uint64_t offset = 0;
  StoreSnapshot counts;
  uint64_t queried = 0;  // QueryEvents' total over every event
  std::vector<std::pair<uint64_t, uint16_t>> rows;
};

std::vector<std::pair<uint64_t, uint16_t>> Rows(const TraceSession& s) {
  std::vector<std::pair<uint64_t, uint16_t>> out;
  const EventStore& store = s.model().store();
  for (size_t r = 0; r < store.size(); ++r) out.emplace_back(store.timestamp(r), store.type(r).value);
  return out;
}

uint64_t QueriedTotal(const TraceSession& s) {
  EventQuery all;
  all.limit = 1;
  uint64_t total = 0;
  s.QueryEvents(all, &total);
  return total;
}

// Reads the file in `chunk`-byte pieces; a snapshot after each piece ending on a multiple
// of `every` bytes (and at the end of input, before Finish).
std::vector<Taken> ReadWithSnapshots(const std::vector<uint8_t>& bytes, size_t chunk, size_t every, TraceSession* s) {
  std::vector<Taken> taken;
  for (size_t at = 0; at < bytes.size();) {
    const size_t n = std::min(chunk, bytes.size() - at);
    REQUIRE(s->PushChunk(bytes.data() + at, n).ok());
    at += n;
    if (at % every != 0 && at != bytes.size()) continue;
    Taken t;
    t.offset = at;
    t.counts = s->Snapshot();
    t.queried = QueriedTotal(*s);
    t.rows = Rows(*s);
    taken.push_back(std::move(t));
  }
  REQUIRE(s->Finish().ok());
  return taken;
}

std::string Folded(const TraceSession& s) {
  StackQuery q;
  return s.FoldedStacks(q);
}

}  // namespace

TEST_CASE("a live snapshot is the released rows, chunk-size independent, and leaves the result unchanged", "[live][snapshot]") {
  for (const char* name : {"dotnet10/net10-cpu-async-http.nettrace", "dotnet10/net10-gc-verbose.nettrace",
                           "sentry-net6-profile-with-task.nettrace", "eventpipe-dotnetcore3.0-win-x64-objver4.nettrace"}) {
    INFO(name);
    const std::vector<uint8_t> bytes = test::ReadFile(test::DataPath(name));
    REQUIRE(!bytes.empty());
    constexpr size_t kEvery = 64 * 1024;

    TraceSession plain;  // no snapshot at all
    REQUIRE(plain.PushChunk(bytes.data(), bytes.size()).ok());
    REQUIRE(plain.Finish().ok());
    const uint64_t finalRows = plain.model().store().size();

    TraceSession small, large;
    const std::vector<Taken> bySmall = ReadWithSnapshots(bytes, 4096, kEvery, &small);
    const std::vector<Taken> byLarge = ReadWithSnapshots(bytes, kEvery, kEvery, &large);
    REQUIRE(bySmall.size() == byLarge.size());

    uint64_t lastRows = 0;
    bool grewBeforeTheEnd = false;
    for (size_t i = 0; i < bySmall.size(); ++i) {
      const Taken& a = bySmall[i];
      const Taken& b = byLarge[i];
      INFO("snapshot at byte " << a.offset);
      REQUIRE(a.offset == b.offset);
      // Readable: the store's rows are what the queries count, and they are time-ordered.
      CHECK(a.counts.rows == a.rows.size());
      CHECK(a.queried == a.counts.rows);
      CHECK(std::is_sorted(a.rows.begin(), a.rows.end(),
                           [](const auto& x, const auto& y) { return x.first < y.first; }));
      // Never more than the finished trace; never fewer than the snapshot before.
      CHECK(a.counts.rows <= finalRows);
      CHECK(a.counts.rows >= lastRows);
      if (a.offset < bytes.size() && a.counts.rows > 0) grewBeforeTheEnd = true;
      lastRows = a.counts.rows;
      // The same bytes read give the same snapshot, whatever the pieces were.
      CHECK(a.counts.rows == b.counts.rows);
      CHECK(a.counts.pending == b.counts.pending);
      CHECK(a.rows == b.rows);
    }
    CHECK(grewBeforeTheEnd);

    // After Finish a snapshot only counts: every row, nothing pending.
    const StoreSnapshot done = small.Snapshot();
    CHECK(done.rows == finalRows);
    CHECK(done.pending == 0);
    // Snapshots leave no trace in the result.
    CHECK(Rows(small) == Rows(plain));
    CHECK(Rows(large) == Rows(plain));
    CHECK(small.SummaryJson() == plain.SummaryJson());
    CHECK(small.TraceEventCounts() == plain.TraceEventCounts());
    CHECK(Folded(small) == Folded(plain));
    CHECK(Folded(large) == Folded(plain));
  }
}

// Snapshot() sorts only the method ranges added since the one before and merges them in
// (MethodMap::MergeNewRanges): on the trace with the most ranges (HeartRateMonitor, 106,881
// after merging), a snapshot at every 64 KiB gives the very ranges one sort at the end gives,
// and the same stacks.
TEST_CASE("incremental method ranges at each snapshot equal one sort at the end", "[live][snapshot]") {
  const std::vector<uint8_t> bytes = test::ReadFile(test::DataPath("HeartRateMonitor.10068.nettrace"));
  REQUIRE(!bytes.empty());
  TraceSession plain, live;
  REQUIRE(plain.PushChunk(bytes.data(), bytes.size()).ok());
  REQUIRE(plain.Finish().ok());
  constexpr size_t kChunk = 64 * 1024;
  size_t snapshots = 0;
  for (size_t at = 0; at < bytes.size(); at += kChunk) {
    REQUIRE(live.PushChunk(bytes.data() + at, std::min(kChunk, bytes.size() - at)).ok());
    live.Snapshot();
    ++snapshots;
  }
  REQUIRE(live.Finish().ok());
  CHECK(snapshots == 453);
  const MethodMap& a = plain.symbols().methods();
  const MethodMap& b = live.symbols().methods();
  REQUIRE(a.size() == 106881);
  REQUIRE(b.size() == a.size());
  size_t differ = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    const MethodRange &x = a.ranges()[i], &y = b.ranges()[i];
    const bool same = x.start == y.start && x.size == y.size && x.methodId == y.methodId && x.moduleId == y.moduleId &&
                      x.rejitId == y.rejitId && x.loadTime == y.loadTime && x.unloadTime == y.unloadTime &&
                      x.verbose == y.verbose && a.names().NameSpace(x.names) == b.names().NameSpace(y.names) &&
                      a.names().Name(x.names) == b.names().Name(y.names);
    if (!same) ++differ;
  }
  CHECK(differ == 0);
  CHECK(Folded(live) == Folded(plain));
}

}  // namespace nettrace

namespace nettrace {
namespace {

// Two processes' JIT'd methods, interleaved: process 42 starts A, process 7 starts B, then A
// and B are loaded. Every event is its own block, marked IsSorted (each is released at once),
// so a query can come between any two of them.
std::vector<uint8_t> TwoProcessJitTrace() {
  // MethodJittingStarted_V1: MethodID, ModuleID, MethodToken, MethodILSize, MethodNamespace,
  // MethodName, MethodSignature, ClrInstanceID.
  auto started = [](uint64_t method, const char* name) {
    PayloadBuilder b;
    b.AppendU64(method).AppendU64(0x5000).AppendU32(0x06000001).AppendU32(12);
    return b.AppendNullTerminatedUtf16("Ns").AppendNullTerminatedUtf16(name).AppendNullTerminatedUtf16("void ()").AppendU16(7).bytes();
  };
  return test::WriteRuntimeEventsTrace(
      {test::RuntimeEventMetadata(1, 145, 1), test::RuntimeEventMetadata(2, 141, 1)},
      {test::RuntimeThread(1, 100, 42), test::RuntimeThread(2, 200, 7)},
      {{1, 1, 100, started(1, "A")}, {1, 2, 200, started(2, "B")},
       {2, 1, 300, test::JittedMethodLoadPayload(1, 64)}, {2, 2, 400, test::JittedMethodLoadPayload(2, 96)}},
      {.isSorted = true, .blockPerEvent = true});
}

}  // namespace

// The JIT view asked while reading (a live session) lists the methods by process, which here
// is not the order they started in; the loads that come after must still complete their own
// methods.
TEST_CASE("JIT statistics asked while reading leave the finished ones unchanged", "[live][jit]") {
  const std::vector<uint8_t> bytes = TwoProcessJitTrace();
  TraceSession once;
  REQUIRE(once.PushChunk(bytes.data(), bytes.size()).ok());
  REQUIRE(once.Finish().ok());
  const std::string expected = once.JitJson();
  REQUIRE(expected.find("\"processId\":7") < expected.find("\"processId\":42"));
  REQUIRE(expected.find("\"nativeSize\":96") < expected.find("\"nativeSize\":64"));  // B (process 7), then A
  for (size_t chunk : {size_t{16}, size_t{61}, size_t{256}}) {
    INFO("chunk " << chunk);
    TraceSession live;
    size_t asked = 0;
    for (size_t at = 0; at < bytes.size(); at += chunk) {
      REQUIRE(live.PushChunk(bytes.data() + at, std::min(chunk, bytes.size() - at)).ok());
      live.Snapshot();
      asked += live.JitJson().find("\"processId\":7") != std::string::npos;
    }
    REQUIRE(live.Finish().ok());
    CHECK(asked > 0);
    CHECK(live.JitJson() == expected);
  }
}

}  // namespace nettrace
