// Method names kept in source (symbols/method_names.h, analysis/stacks/names_from_source.h): the
// same frames as names copied while reading, on every corpus trace, whether the session
// reads them back itself (the native tool) or the caller provides them (the JS API); a
// summary reads none back.
#include <catch2/catch.hpp>

#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

#include "analysis/stacks/call_tree.h"
#include "analysis/stacks/stack_frames.h"
#include "symbols/method_map.h"
#include "test_support.h"

namespace nettrace {
namespace {

void PutUtf16(const std::u16string& s, std::vector<uint8_t>* out) {
  for (char16_t u : s) out->push_back(static_cast<uint8_t>(u & 0xFF)), out->push_back(static_cast<uint8_t>(u >> 8));
  out->push_back(0), out->push_back(0);
}

void Push(const std::vector<uint8_t>& bytes, TraceSession* session) {
  for (size_t pos = 0; pos < bytes.size(); pos += 1 << 20)
    if (!session->PushChunk(bytes.data() + pos, std::min<size_t>(1 << 20, bytes.size() - pos)).ok()) break;
  (void)session->Finish();
}

std::vector<std::string> Inputs() {
  std::vector<std::string> paths;
  for (const std::string& name : test::CorpusTraces()) paths.push_back(test::DataPath(name));
  for (const char* name : {"late-events-memory-blowup.nettrace"}) paths.push_back(test::RegressionPath(name));
  return paths;
}

}  // namespace

TEST_CASE("names in source: every stack's frames as copied names give them; the summary reads none back", "[stacks]") {
  for (const std::string& path : Inputs()) {
    INFO(path);
    const std::vector<uint8_t> bytes = test::ReadFile(path);
    REQUIRE(!bytes.empty());
    TraceSession copied;
    Push(bytes, &copied);

    uint64_t readBack = 0, reads = 0;
    TraceSession native;
    native.KeepNamesInSource([&](uint64_t offset, uint64_t size, std::vector<uint8_t>* out) {
      ++reads, readBack += size;
      if (offset + size > bytes.size()) return false;
      out->assign(bytes.begin() + static_cast<ptrdiff_t>(offset), bytes.begin() + static_cast<ptrdiff_t>(offset + size));
      return true;
    });
    Push(bytes, &native);
    CHECK(native.SummaryJson() == copied.SummaryJson());
    CHECK(reads == 0);  // nothing names a frame yet
    CHECK(native.ExportStacksCsv() == copied.ExportStacksCsv());
    CHECK(native.FoldedStacks(StackQuery{}) == copied.FoldedStacks(StackQuery{}));
    // HeartRateMonitor's rundown announces 106,881 methods, a third of the file; its stacks
    // reach a few hundred of them: 8.6 % of the file is read back (gaps below 64 KiB included).
    if (path.ends_with("HeartRateMonitor.10068.nettrace")) CHECK(readBack < bytes.size() / 10);
    std::printf("[stacks] names in source: %s: %llu bytes read back in %llu reads, of %zu\n", path.c_str(),
                static_cast<unsigned long long>(readBack), static_cast<unsigned long long>(reads), bytes.size());

    TraceSession provided;
    provided.KeepNamesInSource();
    Push(bytes, &provided);
    int rounds = 0;
    for (std::vector<ByteRange> ranges; !(ranges = provided.NameRangesNeeded()).empty(); ++rounds) {
      REQUIRE(rounds < 4);
      for (const ByteRange& r : ranges) {
        REQUIRE(r.offset + r.size <= bytes.size());
        provided.ProvideNames(r.offset, bytes.data() + r.offset, r.size);
      }
    }
    CHECK(provided.ExportStacksCsv() == copied.ExportStacksCsv());
    CHECK(provided.TopFunctionsJson(StackQuery{}, 50) == copied.TopFunctionsJson(StackQuery{}, 50));
  }
}

// The JS API's read of names back can be cancelled (web/src/api/trace.ts): frames are then
// named while some names were never provided. Every query answers; the stacks and their
// weights are those of a complete read, the frames whose names stayed in the file unnamed.
TEST_CASE("names in source: names never provided leave frames unnamed, every query answers", "[stacks]") {
  const std::vector<uint8_t> bytes = test::ReadFile(test::DataPath("HeartRateMonitor.10068.nettrace"));
  REQUIRE(!bytes.empty());
  TraceSession copied;
  Push(bytes, &copied);
  TraceSession unnamed;
  unnamed.KeepNamesInSource();
  Push(bytes, &unnamed);
  REQUIRE(!unnamed.NameRangesNeeded().empty());
  const std::string folded = unnamed.FoldedStacks(StackQuery{}), complete = copied.FoldedStacks(StackQuery{});
  CHECK(folded != complete);
  CHECK(folded.find("HeartRateMonitor!MethodID(0x") != std::string::npos);  // its module and its id
  auto total = [](const std::string& text) {
    uint64_t sum = 0;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
      if (!line.empty()) sum += std::stoull(line.substr(line.rfind(' ') + 1));
    return sum;
  };
  CHECK(total(folded) == total(complete));
  CHECK(!unnamed.ExportStacksCsv().empty());
  CHECK(!unnamed.TopFunctionsJson(StackQuery{}, 50).empty());
  // Provided afterwards, the names are those of a complete read.
  for (const ByteRange& r : unnamed.NameRangesNeeded()) unnamed.ProvideNames(r.offset, bytes.data() + r.offset, r.size);
  CHECK(unnamed.NameRangesNeeded().empty());
  CHECK(unnamed.FoldedStacks(StackQuery{}) == complete);
}

// Two methods whose code took the same address in turn, their names left in the file and
// never read back: each frame is its method id, so which one an address is depends on the
// time (the names' sizes alone, equal here, said "the same names" before).
TEST_CASE("names in source: ranges without names are told apart by their method id", "[stacks]") {
  std::vector<uint8_t> file(256, 0x41);
  MethodMap map;
  map.names().KeepInSource(true);
  auto add = [&](uint64_t methodId, size_t at, uint64_t loadTime) {
    MethodRange r;
    r.start = 0x1000, r.size = 0x100, r.methodId = methodId, r.moduleId = 1, r.loadTime = loadTime;
    ByteCursor c({file.data() + at, 64}, at);
    r.verbose = map.names().Read(&c, &r.names, false);
    map.AddLoad(r);
  };
  add(7, 0, 10);
  add(8, 100, 20);
  map.Finish();
  REQUIRE(map.size() == 2);
  TimeSpan span;
  const MethodRange* early = map.Find(0x1010, 15, &span);
  REQUIRE(early);
  CHECK(early->methodId == 7);
  CHECK(span.from == 10);  // the answer holds from the first load to the second
  CHECK(span.until == 20);
  const MethodRange* late = map.Find(0x1010, 25, &span);
  REQUIRE(late);
  CHECK(late->methodId == 8);
  const ModuleMap modules;
  CHECK(MethodFrameName(*early, map, modules) != MethodFrameName(*late, map, modules));
}

// A record whose names are not terminated: copied, its range is kept without names and
// borrows the method's names from another range; in source, it is found out when loaded,
// and the map ends the same.
TEST_CASE("names in source: unterminated names end as copied ones do, a borrowed name loaded in a later round", "[stacks]") {
  std::vector<uint8_t> file(4096, 0x41);  // 'A' code units: no terminator
  std::vector<uint8_t> good;
  PutUtf16(u"NS.Good", &good), PutUtf16(u"Method", &good), PutUtf16(u"sig", &good);
  const size_t atBad = 100, atGood = 2000;
  std::copy(good.begin(), good.end(), file.begin() + atGood);
  const size_t badBytes = 300;

  auto fill = [&](MethodMap* map) {
    // The bad record first (it is the one borrowed from, in address order), the good one
    // after it, and a MethodLoad without names at the bad one's address.
    auto add = [&](uint64_t start, size_t at, size_t n, bool verbose) {
      MethodRange r;
      r.start = start, r.size = 0x100, r.methodId = 7, r.moduleId = 1;
      if (verbose) {
        ByteCursor c({file.data() + at, n}, at);
        r.verbose = map->names().Read(&c, &r.names, false);
      }
      map->AddLoad(r);
    };
    add(0x1000, atBad, badBytes, true);
    add(0x3000, atGood, good.size(), true);
    add(0x1000, 0, 0, false);
    map->Finish();
  };
  MethodMap copied, inSource;
  inSource.names().KeepInSource(true);
  fill(&copied);
  fill(&inSource);
  // Only the bad range's address is asked for: its borrowed names are then loaded in a
  // second round.
  const std::vector<uint64_t> asked = {0x1010}, addresses = {0x1010, 0x3010};
  int rounds = 0;
  for (std::vector<MethodNamesRef> refs; !(refs = inSource.InSourceNamesAt(asked)).empty(); ++rounds) {
    REQUIRE(rounds < 4);
    for (const ByteRange& r : MethodNamePool::InSourceRanges(refs))
      inSource.names().Load(r.offset, {file.data() + r.offset, r.size}, refs);
    inSource.TakeLoadedNames();
  }
  CHECK(rounds == 2);  // the bad names, then the good ones the range borrowed
  for (uint64_t address : addresses) {
    const MethodRange* a = copied.Find(address, 0);
    const MethodRange* b = inSource.Find(address, 0);
    REQUIRE(a);
    REQUIRE(b);
    CHECK(a->verbose == b->verbose);
    CHECK(copied.names().Name(a->names) == "Method");
    CHECK(inSource.names().Name(b->names) == "Method");
    CHECK(inSource.names().NameSpace(b->names) == "NS.Good");
  }
}

}  // namespace nettrace
