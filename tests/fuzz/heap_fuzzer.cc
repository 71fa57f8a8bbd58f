// tests/fuzz — heap_fuzzer: a heap snapshot (core/heap/heap_session.h) from hostile bytes,
// driven as the CLI (core/cli/heap_command.cc) drives it: the file pushed in chunks, then
// Finish, the analyses, and every view — the heap JSON with a paths-to query, the types
// CSV, the diff of the snapshot with itself — and the session's status.
//
// Beyond "no crash, no UB, no leak": an error names a byte offset inside the file; a graph
// kept keeps its invariants (HeapGraph::Check); the types table adds up to the totals; a
// snapshot's diff with itself shows no growth; every JSON output is valid JSON.
//
// Input: a raw .gcdump or .nettrace (fed whole), or a 2-byte little-endian chunk size − 1
// followed by the file (fed in chunks of 1 to 65,536 bytes), as fuzz_input.h's harnesses.
#include <cstdint>
#include <cstring>
#include <string>

#include "fuzz_check.h"
#include "fuzz_input.h"
#include "heap/heap_session.h"
#include "json_check.h"

namespace nettrace::fuzz {
namespace {

bool IsHeapFile(const uint8_t* data, size_t size) {
  static const char kGcdump[] = "\x14\x00\x00\x00!FastSerialization.1";
  return (size >= 24 && std::memcmp(data, kGcdump, 24) == 0) || (size >= 8 && std::memcmp(data, "Nettrace", 8) == 0);
}

void CheckJson(const std::string& json, const char* what) {
  FUZZ_CHECK(IsValidJson(json), std::string(what) + " is not valid JSON: " + json.substr(0, 400));
}

void CheckViews(const heap::HeapSession& s) {
  const heap::HeapGraph& g = s.graph();
  const heap::HeapAnalysis& a = s.analysis();
  uint64_t objects = 0, bytes = 0;
  for (const heap::TypeRow& r : a.rows) objects += r.count, bytes += r.size;
  FUZZ_CHECK(objects == a.objects && bytes == a.bytes, "the types table does not add up to the totals");
  FUZZ_CHECK(a.retained.size() == g.nodeCount() && a.pathParent.size() == g.nodeCount(), "per-node analyses of the wrong length");
  heap::HeapQuery q;
  q.largest = 5;
  q.paths = 3;
  // A type the snapshot has (the largest object's, by the rows' order), or a part of a name.
  q.pathsTo = a.rows.empty() ? "System" : a.rows[a.rows.size() / 2].name;
  CheckJson(heap::HeapJson(s.snapshot(), q), "HeapJson");
  q.pathsTo = "e";
  CheckJson(heap::HeapPathsJson(s.snapshot(), q), "HeapPathsJson");
  heap::HeapTypesCsv(s.snapshot());
  const std::string diff = heap::HeapDiffJson(s.snapshot(), s.snapshot());
  CheckJson(diff, "HeapDiffJson");
  heap::HeapDiffCsv(s.snapshot(), s.snapshot());
}

}  // namespace
}  // namespace nettrace::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace nettrace;
  using namespace nettrace::fuzz;
  FuzzTrace t{std::span<const uint8_t>(data, size), 0};
  if (size >= 2 && !IsHeapFile(data, size)) {
    t = {std::span<const uint8_t>(data + 2, size - 2), 1 + (static_cast<size_t>(data[0]) | static_cast<size_t>(data[1]) << 8)};
  }
  heap::HeapSession s;
  s.SetFileSize(t.bytes.size());
  const Status st = FeedInChunks(
      t, [&](const uint8_t* p, size_t n) { return s.PushChunk(p, n); }, [&] { return s.Finish(); });
  FUZZ_CHECK(ErrorProblem(st, t.bytes.size()).empty(), ErrorProblem(st, t.bytes.size()));
  CheckJson(s.StatusJson(), "StatusJson");
  if (!s.hasGraph()) return 0;
  const Status valid = s.graph().Check();
  FUZZ_CHECK(valid.ok(), "a kept graph breaks its invariants: " + valid.ToString());
  s.Analyze();
  CheckViews(s);
  return 0;
}
