// The .gcdump reader on real snapshots (dotnet-gcdump collect 10.0.750501, tests/data/heap/):
// the type table and counts equal `dotnet-gcdump report`'s output byte for byte, any chunk
// size gives the same graph, PerfView's compressed integers decode as its writer encodes
// them, and a cut or damaged file gives an error with an offset, never a crash.
#include <catch2/catch.hpp>

#include <cstdio>
#include <numeric>

#include "heap/gcdump_reader.h"
#include "heap/node_records.h"
#include "bench/gcdump_writer.h"
#include "bench/random_heap.h"
#include "heap_test_support.h"

namespace nettrace::test {
namespace {

using heap::HeapGraph;

// `dotnet-gcdump report`'s text (its PrintReportHelper): totals, then per type index with
// objects and a stored size — the "Object Bytes" column is that size, the first instance's —
// ordered by it, then by count (a stable sort: ties keep type order).
std::string ReportText(const HeapGraph& g) {
  auto n0 = [](uint64_t v) {
    std::string digits = std::to_string(v), out;
    for (size_t i = 0; i < digits.size(); ++i) {
      if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
      out += digits[i];
    }
    return out;
  };
  auto pad = [](const std::string& s, size_t width) { return std::string(width > s.size() ? width - s.size() : 0, ' ') + s; };
  std::vector<uint64_t> counts(g.types.size(), 0);
  for (heap::TypeIndex t : g.nodeType) ++counts[t];
  std::vector<uint32_t> rows;
  for (uint32_t t = 0; t < g.types.size(); ++t) {
    if (!g.types[t].name.empty() && g.types[t].storedSize != 0 && counts[t] > 0) rows.push_back(t);
  }
  std::stable_sort(rows.begin(), rows.end(), [&](uint32_t a, uint32_t b) {
    if (g.types[a].storedSize != g.types[b].storedSize) return g.types[a].storedSize > g.types[b].storedSize;
    return counts[a] > counts[b];
  });
  std::string out = pad(n0(static_cast<uint64_t>(g.info.fileTotalSize)), 15) + "  GC Heap bytes\n" +
                    pad(n0(g.nodeCount()), 15) + "  GC Heap objects\n\n" + pad("Object Bytes", 15) + "  " +
                    pad("Count", 8) + "  Type\n";
  for (uint32_t t : rows) {
    const std::string& module = g.types[t].module;
    const std::string dll = module.substr(module.find_last_of('/') + 1);
    out += pad(n0(static_cast<uint64_t>(g.types[t].storedSize)), 15) + "  " + pad(n0(counts[t]), 8) + "  " + g.types[t].name;
    if (!dll.empty()) out += "  [" + dll + "]";
    out += '\n';
  }
  return out;
}

uint64_t GraphHash(const HeapGraph& g) {
  uint64_t h = 1469598103934665603ull;
  auto mix = [&](uint64_t v) { h = (h ^ v) * 1099511628211ull; };
  for (size_t i = 0; i < g.nodeType.size(); ++i) mix(g.nodeType[i]), mix(g.nodeSize[i]), mix(g.nodeAddress[i]), mix(g.firstChild[i]);
  for (heap::NodeIndex c : g.children) mix(c);
  for (const heap::HeapType& t : g.types) mix(std::hash<std::string>()(t.name + "!" + t.module)), mix(static_cast<uint64_t>(t.storedSize));
  mix(g.root);
  return h;
}

TEST_CASE("heap: the gcdump's types and counts are dotnet-gcdump report's, byte for byte", "[heap]") {
  for (const char* name : {"heap/heapgraphs-small.gcdump", "heap/heapgraphs-big.gcdump"}) {
    INFO(name);
    auto s = ReadHeapFile(name);
    REQUIRE(s->status().ok());
    REQUIRE(std::string(s->kind()) == "gcdump");
    const std::vector<uint8_t> expected = ReadFile(DataPath(std::string(name) + ".report.txt"));
    REQUIRE(!expected.empty());
    CHECK(ReportText(s->graph()) == std::string(expected.begin(), expected.end()));
  }
}

TEST_CASE("heap: every chunk size reads the same graph", "[heap]") {
  for (const std::string& name : HeapSnapshots()) {
    INFO(name);
    const std::vector<uint8_t> bytes = ReadFile(DataPath(name));
    const uint64_t whole = GraphHash(ReadHeap(bytes)->graph());
    for (size_t chunk : {size_t{7}, size_t{4096}}) CHECK(GraphHash(ReadHeap(bytes, chunk)->graph()) == whole);
  }
  // One byte at a time: the small snapshot (the prefix parse is retried as bytes arrive).
  const std::vector<uint8_t> small = ReadFile(DataPath("heap/heapgraphs-small.gcdump"));
  CHECK(GraphHash(ReadHeap(small, 1)->graph()) == GraphHash(ReadHeap(small)->graph()));
}

// PerfView's Node.WriteCompressedInt, for the round trip.
std::vector<uint8_t> WriteCompressedInt(int32_t value) {
  std::vector<uint8_t> out;
  const uint32_t v = static_cast<uint32_t>(value);
  int bytes = 5;
  if (((value << 25) >> 25) == value) bytes = 1;
  else if (((value << 18) >> 18) == value) bytes = 2;
  else if (((value << 11) >> 11) == value) bytes = 3;
  else if (((value << 4) >> 4) == value) bytes = 4;
  for (int i = bytes - 1; i > 0; --i) out.push_back(static_cast<uint8_t>(((v >> (7 * i)) | 0x80) & 0xFF));
  out.push_back(static_cast<uint8_t>(v & 0x7F));
  return out;
}

TEST_CASE("heap: compressed integers decode as PerfView encodes them", "[heap]") {
  for (int32_t v : {0, 1, -1, 63, 64, -64, -65, 8191, 8192, -8193, 1 << 20, -(1 << 20), (1 << 27) - 1, 1 << 27,
                    INT32_MAX, INT32_MIN, 123456789, -987654321}) {
    INFO(v);
    const std::vector<uint8_t> bytes = WriteCompressedInt(v);
    size_t pos = 0;
    int32_t back = 0;
    REQUIRE(heap::ReadCompressedInt(bytes.data(), bytes.size(), &pos, &back));
    CHECK(back == v);
    CHECK(pos == bytes.size());
    size_t cut = 0;
    CHECK_FALSE(heap::ReadCompressedInt(bytes.data(), bytes.size() - 1, &cut, &back));
  }
}

// tests/bench's writer and the reader agree: what it writes reads back node for node (the
// types' stored sizes are the first instance's, sizes written only where they differ).
TEST_CASE("heap: a written gcdump reads back as the graph written", "[heap]") {
  for (uint32_t objects : {0u, 1u, 700u}) {
    INFO(objects);
    const bench::GcdumpGraph written = bench::RandomHeap(objects, 11);
    const std::vector<uint8_t> bytes = bench::GcdumpWriter().Write(written);
    auto s = ReadHeap(bytes, 333);
    REQUIRE(s->status().ok());
    const HeapGraph& g = s->graph();
    CHECK(g.info.creationTool == written.creationTool);
    REQUIRE(g.types.size() == written.types.size());
    for (size_t t = 0; t < g.types.size(); ++t) CHECK(g.types[t].name == written.types[t].name);
    CHECK(g.nodeType == written.nodeType);
    CHECK(g.nodeSize == written.nodeSize);
    CHECK(g.nodeAddress == written.nodeAddress);
    CHECK(g.firstChild == written.firstChild);
    CHECK(g.children == written.children);
    CHECK(g.root == written.root);
  }
}

TEST_CASE("heap: a cut gcdump gives an error with an offset inside the file, never a crash", "[heap]") {
  const std::vector<uint8_t> bytes = ReadFile(DataPath("heap/heapgraphs-small.gcdump"));
  REQUIRE(bytes.size() > 1000);
  for (size_t cut = 0; cut < bytes.size(); cut += cut < 200 ? 1 : 997) {
    INFO(cut);
    heap::HeapSession s;
    (void)s.PushChunk(bytes.data(), cut);
    const Status st = s.Finish();
    REQUIRE_FALSE(st.ok());
    if (st.offset() != kNoOffset) CHECK(st.offset() <= cut);
  }
}

TEST_CASE("heap: a file that is neither kind is refused from its bytes", "[heap]") {
  std::vector<uint8_t> bytes = ReadFile(DataPath("only_managed_samples.nettrace"));
  bytes.erase(bytes.begin(), bytes.begin() + 8);  // no "Nettrace" magic
  auto s = ReadHeap(bytes);
  CHECK(s->status().code() == ErrorCode::kBadMagic);
  CHECK_FALSE(s->hasGraph());
  // A trace without a heap dump: an error that says so.
  auto trace = ReadHeapFile("only_managed_samples.nettrace");
  CHECK_FALSE(trace->hasGraph());
  CHECK(trace->status().message().find("no heap dump") != std::string::npos);
  // Found only once the whole trace is read: the offset is the file's end.
  CHECK(trace->status().offset() == ReadFile(DataPath("only_managed_samples.nettrace")).size());
}

}  // namespace
}  // namespace nettrace::test
