// Reading allocates per block, per type, per thread, per stack — never
// per event. This binary counts every `operator new` (the replacement below) while the
// corpus traces and their v6 conversions are read; a sink that allocated once per event
// (a string per field name, a vector per label list) would add one per event.
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <new>

#include <catch2/catch.hpp>

#include "unit/convert/convert_support.h"
#include "test_support.h"
#include "trace_session.h"

namespace {
std::atomic<uint64_t> newCalls{0};
}  // namespace

// Counts, then allocates as the default does (the default operator new[] and the nothrow
// forms call this one; the default deletes free). The tests build without exceptions.
void* operator new(std::size_t n) {
  newCalls.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(n ? n : 1)) return p;
  std::fputs("operator new: out of memory\n", stderr);
  std::abort();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }

namespace nettrace {
namespace {

struct Counted {
  uint64_t events = 0;
  uint64_t allocations = 0;
};

// Allocations while the session reads `bytes` in 1 MiB chunks, up to and including Finish
// (the store's columns, tables and the sorter's runs grow then too; the summary's JSON,
// written on request, is not reading).
Counted CountReading(const std::vector<uint8_t>& bytes) {
  constexpr size_t kChunk = size_t{1} << 20;
  Counted c;
  const uint64_t before = newCalls.load();
  {
    TraceSession session;
    for (size_t pos = 0; pos < bytes.size(); pos += kChunk)
      if (!session.PushChunk(bytes.data() + pos, std::min(kChunk, bytes.size() - pos)).ok()) break;
    (void)session.Finish();
    c.events = session.eventCount();
    c.allocations = newCalls.load() - before;
  }
  return c;
}

}  // namespace

// Traces of at least this many events, so that the per-trace allocations (tables, types,
// threads, a JIT view's method names) do not weigh more than the events.
constexpr uint64_t kManyEvents = 10000;
// What reading any trace allocates whatever its events (tables, types, threads, the session's
// views): 1,395 to 2,592 measured on the .NET 10 traces of under 10,000 events.
constexpr uint64_t kSetUpAllocations = 3000;

TEST_CASE("reading allocates far less than once per event", "[pipeline][corpus]") {
  // Measured: 0.02 (pyroscope, objver3) to 0.26 (objver4, whose server GCs' per-heap
  // histories are decoded whole) allocations per event, in both forms. An allocation per
  // event would add 1: before this test, objver3 made 5 (label lists of activity ids) and
  // objver4 2.8 (AllocationTick decoded by three readers, field names as strings).
  size_t checked = 0;
  for (const std::string& name : test::CorpusTraces()) {
    const std::vector<uint8_t> bytes = test::ReadFile(test::DataPath(name));
    std::vector<uint8_t> v6;
    REQUIRE(test::ConvertToV6(bytes, &v6).ok());
    for (const std::vector<uint8_t>* trace : {&bytes, static_cast<const std::vector<uint8_t>*>(&v6)}) {
      const Counted c = CountReading(*trace);
      INFO(name << (trace == &v6 ? " (v6)" : "") << ": " << c.events << " events, " << c.allocations << " allocations");
      REQUIRE(c.events > 0);
      // Small traces too: JIT-heavy ones allocated 1-2 per event while the JIT view decoded
      // every method event whole (net10-bgc-waits-mcj: 9,018 events, 3,415 allocations now).
      CHECK(c.allocations <= kSetUpAllocations + c.events / 2);
      if (c.events < kManyEvents) continue;
      CHECK(c.allocations * 2 <= c.events);
      ++checked;
    }
  }
  CHECK(checked >= 12);  // HeartRateMonitor, objver3/4, the sample traces, async-http: both forms
}

}  // namespace nettrace
