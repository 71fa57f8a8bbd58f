// Issue 7: v6 traces as Linux profilers write them (Universal.System / Universal.Events).
// Two processes whose mappings overlap in address, a mapping with symbols and one
// without, JIT'd .NET code named by ProcessSymbols in a memfd:doublemapper mapping, a
// symbol announced mid-trace, cpu and cswitch samples with known stacks: the folded CPU
// and thread-time stacks must equal the known ones exactly, per process.
#include <map>
#include <string>

#include "analysis/call_tree.h"
#include "model/store_builder.h"
#include "symbols/universal_symbols.h"
#include "unit/stacks/mini_json.h"
#include "unit/stacks/stacks_test_support.h"
#include "write/payload_builder.h"
#include "write/universal_trace_writer.h"

namespace nettrace {
namespace {

// Process 100 "app" (threads 100, 101), process 200 "tool" (thread 200).
// pid 100: libfoo.so at [0x10000, 0x20000) with symbol foo_main; JIT code in
//          /memfd:doublemapper at [0x7e00000, 0x7e10000): Main from the start, Work from t=50.
// pid 200: /usr/bin/bar at [0x10000, 0x30000) file offset 0x1000, no symbols.
// Stack 1: Work(0x7e00310) <- Main(0x7e00110) <- foo_main(0x10110)
// Stack 2: 0x10500 <- 0x10110 (libfoo.so+0x500 <- foo_main in 100; bar+.. in 200)
// Stack 3: 0x99999999 (outside every mapping)
// Stack 4 (mixed): Helper(0x7e00510, from MethodLoad) <- Main(0x7e00110)
UniversalTraceWriter KnownWriter(uint32_t pointerSize, bool mixed) {
  UniversalTraceWriter w(pointerSize, 1000000000);
  w.AddThread(1, 100, 100, "app");
  w.AddThread(2, 100, 101);
  w.AddThread(3, 200, 200, "tool");
  const uint32_t s1 = w.AddStack({0x7e00310, 0x7e00110, 0x10110});
  const uint32_t s2 = w.AddStack({0x10500, 0x10110});
  const uint32_t s3 = w.AddStack({0x99999999});
  const uint32_t s4 = w.AddStack({0x7e00510, 0x7e00110});
  // thread 1 (pid 100)
  w.ExistingProcess(0, 1, "app", 4026531836, "host");
  w.ProcessMappingMetadata(0, 1, 7, R"({"type":"ELF","build_id":"abcdef"})", R"({"version":"1.2"})");
  w.ProcessMapping(0, 1, 1, 0x10000, 0x20000, 0, "/usr/lib/libfoo.so", 7);
  w.ProcessMapping(0, 1, 2, 0x7e00000, 0x7e10000, 0, "/memfd:doublemapper", 0);
  w.ProcessSymbol(0, 1, 1, 1, 0x10100, 0x10200, "foo_main");
  w.ProcessSymbol(0, 1, 2, 2, 0x7e00100, 0x7e00200, "void [App] Demo.Program::Main(string[])[OptimizedTier1]");
  if (mixed) {
    // .NET runtime events of the same process: ModuleLoad and MethodLoadVerbose_V1.
    EventMetadata module, method;
    module.id = 20, module.providerName = "Microsoft-Windows-DotNETRuntime", module.eventId = 152;
    method.id = 21, method.providerName = "Microsoft-Windows-DotNETRuntime", method.eventId = 143;
    method.version = 1, method.hasVersion = true;
    w.AddMetadata(module);
    w.AddMetadata(method);
    PayloadBuilder m;
    m.AppendU64(0xA1).AppendU64(0xA2).AppendU32(0).AppendU32(0);
    m.AppendNullTerminatedUtf16(std::string_view("/app/App.dll")).AppendNullTerminatedUtf16(std::string_view(""));
    w.AddEvent(20, 1, 1, 0, m.Take());
    PayloadBuilder b;
    b.AppendU64(0x55).AppendU64(0xA1).AppendU64(0x7e00500).AppendU32(0x100).AppendU32(0x06000001).AppendU32(0);
    b.AppendNullTerminatedUtf16(std::string_view("Demo.Program")).AppendNullTerminatedUtf16(std::string_view("Helper"));
    b.AppendNullTerminatedUtf16(std::string_view("void  ()")).AppendU16(7);
    w.AddEvent(21, 2, 1, 0, b.Take());
  }
  w.Cpu(10, 1, 1000, s1);  // before Work's symbol: memfd:doublemapper+0x310
  w.Cpu(30, 1, 1000, s2);
  w.ProcessSymbol(50, 1, 3, 2, 0x7e00300, 0x7e00400, "int32 [App] Demo.Program::Work(int32)[Tier0]");
  w.Cpu(60, 1, 1000, s1);
  if (mixed) w.Cpu(65, 1, 400, s4);
  // thread 2 (pid 100)
  w.Cpu(61, 2, 2000, s1);
  w.Cswitch(70, 2, 5000, s2);
  // thread 3 (pid 200)
  w.ProcessCreate(5, 3, "tool", 4026532000, "container-1");
  w.ProcessMapping(5, 3, 3, 0x10000, 0x30000, 0x1000, "/usr/bin/bar", 0);
  w.Cpu(20, 3, 500, s2);
  w.Cpu(21, 3, 500, s2);
  w.Cpu(40, 3, 700, s3);
  if (mixed) w.Cpu(41, 3, 300, s4);  // the .NET method ranges are process 100's, not 200's
  w.Cswitch(80, 3, 3000, s2);
  w.ProcessExit(90, 3);
  return w;
}

std::vector<uint8_t> Known(uint32_t pointerSize, bool mixed = false) {
  std::vector<uint8_t> bytes;
  REQUIRE(KnownWriter(pointerSize, mixed).Finish(&bytes).ok());
  return bytes;
}

StackQuery Query(const char* event, std::optional<uint64_t> process = std::nullopt) {
  StackQuery q;
  q.event = event;
  q.process = process;
  return q;
}

const char* const kCpu100 =
    "libfoo.so!foo_main;App!Demo.Program.Main;App!Demo.Program.Work 3000\n"
    "libfoo.so!foo_main;App!Demo.Program.Main;memfd:doublemapper!? 1000\n"
    "libfoo.so!foo_main;libfoo.so!? 1000\n";
const char* const kCpu200 =
    "?!? 700\n"
    "bar!?;bar!? 1000\n";

TEST_CASE("universal: folded CPU and thread-time stacks per process", "[universal]") {
  for (uint32_t pointerSize : {8u, 4u}) {
    INFO("pointer size " << pointerSize);
    const std::vector<uint8_t> bytes = Known(pointerSize);
    for (size_t chunk : {size_t{3}, bytes.size()}) {
      auto session = test::LoadSession(bytes, chunk);
      CHECK(session->FoldedStacks(Query("cpu", 100)) == kCpu100);
      CHECK(session->FoldedStacks(Query("cpu", 200)) == kCpu200);
      // All processes: the two sets together (overlapping addresses stay apart).
      std::string all = session->FoldedStacks(Query("cpu"));
      CHECK(all == std::string(kCpu200) + kCpu100);
      CHECK(session->FoldedStacks(Query("cswitch", 100)) == "libfoo.so!foo_main;libfoo.so!? 5000\n");
      CHECK(session->FoldedStacks(Query("cswitch", 200)) == "bar!?;bar!? 3000\n");
      CHECK(session->FoldedStacks(Query("cpu", 300)).empty());
    }
  }
}

TEST_CASE("universal: grouping by process then thread", "[universal]") {
  auto session = test::LoadSession(Known(8));
  StackQuery q = Query("cpu");
  q.groupByProcess = true;
  q.groupByThread = true;
  CHECK(session->FoldedStacks(q) ==
        "Process app (100);Thread (100);libfoo.so!foo_main;App!Demo.Program.Main;App!Demo.Program.Work 1000\n"
        "Process app (100);Thread (100);libfoo.so!foo_main;App!Demo.Program.Main;memfd:doublemapper!? 1000\n"
        "Process app (100);Thread (100);libfoo.so!foo_main;libfoo.so!? 1000\n"
        "Process app (100);Thread (101);libfoo.so!foo_main;App!Demo.Program.Main;App!Demo.Program.Work 2000\n"
        "Process tool (200);Thread (200);?!? 700\n"
        "Process tool (200);Thread (200);bar!?;bar!? 1000\n");
  q.groupByThread = false;
  q.event = "cswitch";
  CHECK(session->FoldedStacks(q) ==
        "Process app (100);libfoo.so!foo_main;libfoo.so!? 5000\n"
        "Process tool (200);bar!?;bar!? 3000\n");
  // The flame graph of the same query: a nanosecond total over both processes.
  const std::string flame = session->FlameGraphJson(q);
  CHECK(flame.find("\"unit\":\"nanoseconds\",\"total\":8000") != std::string::npos);
  CHECK(flame.find("\"Process tool (200)\"") != std::string::npos);
}

TEST_CASE("universal: JIT'd method names keep their optimization level as a detail", "[universal]") {
  auto j = ParseJittedSymbolName("void [App] Demo.Program::Main(string[])[OptimizedTier1]");
  REQUIRE(j);
  CHECK(j->module == "App");
  CHECK(j->method == "Demo.Program.Main");
  CHECK(j->optimizationLevel == "OptimizedTier1");
  j = ParseJittedSymbolName("valuetype [System.Runtime]System.Int32 [Lib] N.C`1::M<T>(int32)[Tier0]");
  REQUIRE(j);
  CHECK(j->module == "Lib");
  CHECK(j->method == "N.C`1.M<T>");
  CHECK(!ParseJittedSymbolName("memcpy"));
  CHECK(!ParseJittedSymbolName("[x]"));
  auto session = test::LoadSession(Known(8));
  const std::string flame = session->FlameGraphJson(Query("cpu", 100));
  CHECK(flame.find("\"frameDetails\"") != std::string::npos);
  CHECK(flame.find("\"OptimizedTier1\"") != std::string::npos);
}

TEST_CASE("universal: mixed MethodLoad and Universal symbols combine", "[universal]") {
  auto session = test::LoadSession(Known(8, /*mixed=*/true));
  CHECK(session->FoldedStacks(Query("cpu", 100)) ==
        std::string("App!Demo.Program.Main;App!Demo.Program.Helper 400\n") + kCpu100);
  // Process 200 has no MethodLoad ranges of its own and no mapping at these addresses.
  CHECK(session->FoldedStacks(Query("cpu", 200)) == "?!? 700\n?!?;?!? 300\nbar!?;bar!? 1000\n");
}

TEST_CASE("universal: the summary lists processes and mappings", "[universal]") {
  auto session = test::LoadSession(Known(8));
  const std::string json = session->SummaryJson();
  CHECK(json.find(R"("pid":100,"name":"app","namespaceId":4026531836,"namespaceName":"host","existing":true)") !=
        std::string::npos);
  CHECK(json.find(R"("pid":200,"name":"tool","namespaceId":4026532000,"namespaceName":"container-1","existing":false)") !=
        std::string::npos);
  // CPU: 5000 of 6700 ns in process 100.
  CHECK(json.find(R"("cpuSamples":4,"cpuNanoseconds":5000,"cpuShare":0.746269)") != std::string::npos);
  CHECK(json.find(R"("count":3,"withSymbols":2,"withoutSymbols":1,"symbols":3)") != std::string::npos);
  CHECK(json.find(R"("file":"/usr/bin/bar","symbols":0)") != std::string::npos);
  CHECK(json.find(R"("symbolMetadata":"{\"type\":\"ELF\",\"build_id\":\"abcdef\"}")") != std::string::npos);
  CHECK(json.find(R"("exitMs":)") != std::string::npos);
  CHECK(json.find(R"("identity":{"type":"ELF","build_id":"abcdef"})") != std::string::npos);
}

TEST_CASE("universal: a process's events are the store's rows on its threads", "[universal]") {
  for (bool mixed : {false, true}) {
    auto session = test::LoadSession(Known(8, mixed));
    const TraceModel& m = session->model();
    std::map<uint64_t, uint64_t> expected;  // by pid, from the store's thread column
    for (size_t row = 0; row < m.store().size(); ++row)
      if (const auto pid = m.threads()[m.store().thread(row)].processId) ++expected[*pid];
    test::Json summary;
    REQUIRE(test::ParseJson(session->SummaryJson(), &summary));
    std::map<uint64_t, uint64_t> written;
    for (const test::Json& p : summary["processes"].array)
      if (p["events"].number > 0) written[static_cast<uint64_t>(p["pid"].number)] = static_cast<uint64_t>(p["events"].number);
    REQUIRE(expected.size() == 2);
    CHECK(written == expected);
  }
}

TEST_CASE("universal: the sample trace opens with both flame graphs", "[universal]") {
  std::vector<uint8_t> bytes;
  REQUIRE(WriteSampleUniversalTrace(&bytes).ok());
  auto session = test::LoadSession(bytes);
  CHECK(session->FoldedStacks(Query("cpu", 2000)) == "gzip!?;gzip!deflate;libc.so.6!? 10000000\n");
  CHECK(session->FoldedStacks(Query("cswitch", 1000)) ==
        "dotnet!main;libcoreclr.so!coreclr_execute_assembly;App!Demo.Program.Main;libcoreclr.so!? 7000000\n");
  CHECK(session->FoldedStacks(Query("cpu", 1000)) ==
        "dotnet!main;libcoreclr.so!coreclr_execute_assembly;App!Demo.Program.Main;App!Demo.Program.Compute "
        "10000000\n");
  const std::string summary = session->SummaryJson();
  CHECK(summary.find(R"("count":5,"withSymbols":4,"withoutSymbols":1)") != std::string::npos);
}

}  // namespace
}  // namespace nettrace
