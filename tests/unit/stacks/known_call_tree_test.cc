// A NetTrace v6 trace written with known modules, methods (rundown, plus a
// method unloaded and replaced by another at the same address), threads and stacks; its
// folded stacks must equal the known ones exactly, at pointer sizes 8 and 4.
#include <cstring>

#include "analysis/stacks/top_functions.h"
#include "export/exports.h"
#include "unit/stacks/mini_json.h"
#include "unit/stacks/stacks_test_support.h"
#include "write/nettrace_writer.h"
#include "write/payload_builder.h"

namespace nettrace {
namespace {

EventMetadata Meta(uint32_t id, const char* provider, uint32_t eventId, uint32_t version, const char* name = "") {
  EventMetadata m;
  m.id = id, m.providerName = provider, m.eventId = eventId, m.eventName = name;
  m.version = version, m.hasVersion = version != 0;
  return m;
}

std::vector<uint8_t> Method(uint64_t id, uint64_t module, uint64_t start, uint32_t size, const char* ns,
                            const char* name) {
  // MethodLoadVerbose_V1 / MethodDCEndVerbose_V1 (ClrEtwAll.man).
  PayloadBuilder b;
  b.AppendU64(id).AppendU64(module).AppendU64(start).AppendU32(size).AppendU32(0x06000001).AppendU32(0);
  b.AppendNullTerminatedUtf16(std::string_view(ns)).AppendNullTerminatedUtf16(std::string_view(name));
  b.AppendNullTerminatedUtf16(std::string_view("void  ()")).AppendU16(7);
  return b.bytes();
}

std::vector<uint8_t> Module(uint64_t id, const char* path) {
  // ModuleLoad (V0): ModuleID, AssemblyID, ModuleFlags, Reserved1, ModuleILPath, ModuleNativePath.
  PayloadBuilder b;
  b.AppendU64(id).AppendU64(id + 1).AppendU32(0).AppendU32(0);
  b.AppendNullTerminatedUtf16(std::string_view(path)).AppendNullTerminatedUtf16(std::string_view(""));
  return b.bytes();
}

std::vector<uint8_t> U32(uint32_t v) { return PayloadBuilder().AppendU32(v).bytes(); }

std::vector<uint8_t> Allocation(uint64_t bytes) {
  // GCAllocationTick_V2: AllocationAmount, AllocationKind, ClrInstanceID, AllocationAmount64,
  // TypeID (pointer), TypeName, HeapIndex.
  PayloadBuilder b;
  b.AppendU32(static_cast<uint32_t>(bytes)).AppendU32(0).AppendU16(7).AppendU64(bytes).AppendU64(0x1234);
  b.AppendNullTerminatedUtf16(std::string_view("System.Int32[]")).AppendU32(0);
  return b.bytes();
}

std::vector<uint8_t> Stack(std::initializer_list<uint64_t> ipsLeafFirst, uint32_t pointerSize) {
  std::vector<uint8_t> out;
  for (uint64_t ip : ipsLeafFirst)
    for (uint32_t k = 0; k < pointerSize && k < 8; ++k) out.push_back(static_cast<uint8_t>(ip >> (8 * k)));
  return out;
}

std::vector<uint8_t> WriteKnownTrace(uint32_t pointerSize) {
  NetTraceV6Writer w;
  TraceInfo info;
  info.syncTimeUtc = {2025, 2, 1, 3, 4, 5, 6, 0};
  info.tickFrequency = 1000;  // 1 tick = 1 ms
  info.pointerSize = pointerSize;
  info.processId = 42;
  REQUIRE(w.WriteTraceBlock(info).ok());
  const char* kRuntime = "Microsoft-Windows-DotNETRuntime";
  std::vector<EventMetadata> meta = {
      Meta(1, kRuntime, 152, 0), Meta(2, "Microsoft-Windows-DotNETRuntimeRundown", 144, 1),
      Meta(3, kRuntime, 143, 1), Meta(4, kRuntime, 144, 1),
      Meta(5, "Microsoft-DotNETCore-SampleProfiler", 0, 0, "ThreadSample"), Meta(6, kRuntime, 10, 2)};
  REQUIRE(w.WriteMetadataBlock(meta).ok());
  ThreadInfo t1, t2;
  t1.index = 1, t1.osThreadId = 100, t1.osProcessId = 42, t1.name = "Main thread";
  t2.index = 2, t2.osThreadId = 200, t2.osProcessId = 42;
  std::vector<ThreadInfo> threads = {t1, t2};
  REQUIRE(w.WriteThreadBlock(threads).ok());
  const uint32_t ps = pointerSize;
  std::vector<std::vector<uint8_t>> stacks = {
      Stack({0x2010, 0x1010}, ps),          // 1: Work ← Main
      Stack({0x3004, 0x1020}, ps),          // 2: Fast ← Main
      Stack({0x2004, 0x3008, 0x1030}, ps),  // 3: Work ← Fast ← Main
      Stack({0x4010, 0x2020, 0x1040}, ps),  // 4: Array.Sort ← Work ← Main
      Stack({0x9999, 0x1050}, ps),          // 5: (no method) ← Main
      Stack({0x5004, 0x1060}, ps),          // 6: Old, later New ← Main
  };
  REQUIRE(w.WriteStackBlock(1, stacks).ok());

  std::vector<std::vector<uint8_t>> payloads;
  std::vector<EventRecord> events;
  uint32_t seq[3] = {0, 0, 0};
  auto add = [&](uint32_t metadata, uint64_t ts, uint32_t thread, uint32_t stack, std::vector<uint8_t> payload) {
    payloads.push_back(std::move(payload));
    EventRecord e;
    e.metadataId = metadata, e.timestamp = ts, e.thread = thread, e.captureThread = thread;
    e.sequenceNumber = ++seq[thread], e.stackId = stack;
    events.push_back(e);
  };
  add(1, 1, 1, 0, Module(0xA1, "C:\\app\\App.dll"));
  add(1, 1, 1, 0, Module(0xA3, "/usr/share/dotnet/System.Private.CoreLib.dll"));
  add(2, 2, 1, 0, Method(0x11, 0xA1, 0x1000, 0x100, "Demo.Program", "Main"));
  add(2, 2, 1, 0, Method(0x12, 0xA1, 0x2000, 0x80, "Demo.Program", "Work"));
  add(2, 2, 1, 0, Method(0x13, 0xA1, 0x3000, 0x40, "Demo.Program", "Fast"));
  add(2, 2, 1, 0, Method(0x14, 0xA3, 0x4000, 0x40, "System.Array", "Sort"));
  add(3, 10, 1, 0, Method(0x55, 0xA1, 0x5000, 0x20, "Demo.Program", "Old"));
  add(5, 11, 1, 6, U32(2));
  add(4, 20, 1, 0, Method(0x55, 0xA1, 0x5000, 0x20, "Demo.Program", "Old"));
  add(3, 30, 1, 0, Method(0x56, 0xA1, 0x5000, 0x20, "Demo.Program", "New"));
  add(5, 31, 1, 6, U32(2));
  for (uint64_t ts : {40, 41, 42}) add(5, ts, 1, 1, U32(2));
  add(5, 43, 2, 2, U32(2));
  add(5, 44, 2, 2, U32(2));
  add(5, 45, 2, 3, U32(2));
  add(5, 46, 1, 4, U32(2));
  add(5, 47, 1, 5, U32(2));
  add(5, 48, 2, 1, U32(1));  // external: in native code called from Work
  add(6, 50, 1, 4, Allocation(1000));
  add(6, 51, 2, 1, Allocation(250));
  for (size_t i = 0; i < events.size(); ++i) events[i].payload = payloads[i];
  REQUIRE(w.WriteEventBlock(events, /*compressed=*/true).ok());
  REQUIRE(w.WriteEndOfStream().ok());
  return w.TakeBytes();
}

const char* const kFolded =
    "App!Demo.Program.Main;?!? 1\n"
    "App!Demo.Program.Main;App!Demo.Program.Fast 2\n"
    "App!Demo.Program.Main;App!Demo.Program.Fast;App!Demo.Program.Work 1\n"
    "App!Demo.Program.Main;App!Demo.Program.New 1\n"
    "App!Demo.Program.Main;App!Demo.Program.Old 1\n"
    "App!Demo.Program.Main;App!Demo.Program.Work 3\n"
    "App!Demo.Program.Main;App!Demo.Program.Work;System.Private.CoreLib!System.Array.Sort 1\n"
    "App!Demo.Program.Main;App!Demo.Program.Work;UNMANAGED_CODE_TIME 1\n";

const char* const kFoldedByThread =
    "Thread (100);App!Demo.Program.Main;?!? 1\n"
    "Thread (100);App!Demo.Program.Main;App!Demo.Program.New 1\n"
    "Thread (100);App!Demo.Program.Main;App!Demo.Program.Old 1\n"
    "Thread (100);App!Demo.Program.Main;App!Demo.Program.Work 3\n"
    "Thread (100);App!Demo.Program.Main;App!Demo.Program.Work;System.Private.CoreLib!System.Array.Sort 1\n"
    "Thread (200);App!Demo.Program.Main;App!Demo.Program.Fast 2\n"
    "Thread (200);App!Demo.Program.Main;App!Demo.Program.Fast;App!Demo.Program.Work 1\n"
    "Thread (200);App!Demo.Program.Main;App!Demo.Program.Work;UNMANAGED_CODE_TIME 1\n";

TEST_CASE("stacks: folded stacks of a written v6 trace equal the known call tree", "[stacks]") {
  for (uint32_t pointerSize : {8u, 4u}) {
    INFO("pointer size " << pointerSize);
    const std::vector<uint8_t> bytes = WriteKnownTrace(pointerSize);
    for (size_t chunk : {size_t{1}, size_t{7}, bytes.size()}) {
      auto session = test::LoadSession(bytes, chunk);
      StackQuery q;
      CHECK(session->FoldedStacks(q) == kFolded);
      q.groupByThread = true;
      CHECK(session->FoldedStacks(q) == kFoldedByThread);
      StackQuery alloc;
      alloc.event = "GC/AllocationTick";
      CHECK(session->FoldedStacks(alloc) ==
            "App!Demo.Program.Main;App!Demo.Program.Work 250\n"
            "App!Demo.Program.Main;App!Demo.Program.Work;System.Private.CoreLib!System.Array.Sort 1000\n");
      // Folded stacks are root first whatever the view: flamegraph.pl,
      // speedscope and pyroscope read the first frame as the root, so an inverted query
      // exports the same lines as the plain one.
      StackQuery inverted;
      inverted.inverted = true;
      CHECK(session->FoldedStacks(inverted) == kFolded);
      // Thread time: thread 100 samples at 11, 31, 40, 41, 42, 46, 47 ms; thread 200 at
      // 43, 44, 45, 48 ms. Each weighs the gap since its thread's previous sample.
      StackQuery time;
      time.weight = WeightKind::kThreadTime;
      time.groupByThread = true;
      CHECK(session->FoldedStacks(time) ==
            "Thread (100);App!Demo.Program.Main;?!? 1000000\n"
            "Thread (100);App!Demo.Program.Main;App!Demo.Program.New 20000000\n"
            "Thread (100);App!Demo.Program.Main;App!Demo.Program.Work 11000000\n"
            "Thread (100);App!Demo.Program.Main;App!Demo.Program.Work;System.Private.CoreLib!System.Array.Sort 4000000\n"
            "Thread (200);App!Demo.Program.Main;App!Demo.Program.Fast 1000000\n"
            "Thread (200);App!Demo.Program.Main;App!Demo.Program.Fast;App!Demo.Program.Work 1000000\n"
            "Thread (200);App!Demo.Program.Main;App!Demo.Program.Work;UNMANAGED_CODE_TIME 3000000\n");
      StackQuery window;
      window.fromMs = 40, window.toMs = 42;
      CHECK(session->FoldedStacks(window) == "App!Demo.Program.Main;App!Demo.Program.Work 3\n");
      StackQuery thread;
      thread.thread = 200;
      CHECK(session->FoldedStacks(thread) ==
            "App!Demo.Program.Main;App!Demo.Program.Fast 2\n"
            "App!Demo.Program.Main;App!Demo.Program.Fast;App!Demo.Program.Work 1\n"
            "App!Demo.Program.Main;App!Demo.Program.Work;UNMANAGED_CODE_TIME 1\n");
    }
  }
}

TEST_CASE("stacks: top functions, inverted tree and sandwich of the known trace", "[stacks]") {
  auto session = test::LoadSession(WriteKnownTrace(8));
  StackResolver resolver(session->model(), session->symbols());
  StackSelection sel = SelectStacks(session->model(), session->symbols(), &resolver, StackQuery{});
  REQUIRE(sel.size() == 11);
  CHECK(sel.totalWeight == 11);

  std::vector<FunctionStat> top = TopFunctions(sel, resolver);
  auto stat = [&](const std::string& name) {
    for (const FunctionStat& f : top)
      if (resolver.frames().name(f.frame) == name) return f;
    FAIL("no function " << name);
    return FunctionStat{};
  };
  CHECK(resolver.frames().name(top[0].frame) == "App!Demo.Program.Work");
  CHECK(stat("App!Demo.Program.Work").exclusive == 4);  // 3 on thread 100, 1 under Fast
  CHECK(stat("App!Demo.Program.Work").inclusive == 6);
  CHECK(stat("App!Demo.Program.Main").inclusive == 11);
  CHECK(stat("App!Demo.Program.Main").exclusive == 0);
  CHECK(stat("App!Demo.Program.Fast").inclusive == 3);

  CallTree inverted = BuildCallTree(session->model(), sel, &resolver, true, false);
  test::CheckTreeIntegrity(inverted, 11);
  uint64_t workLeaf = 0;
  for (const CallTreeNode& n : inverted.nodes())
    if (n.parent == 0 && n.depth == 1 && resolver.frames().name(n.frame) == "App!Demo.Program.Work") workLeaf = n.inclusive;
  CHECK(workLeaf == 4);

  const uint32_t work = resolver.frames().Intern("App!Demo.Program.Work", FrameKind::kManaged);
  Sandwich s = BuildSandwich(sel, resolver, work);
  CHECK(s.callers.nodes()[0].inclusive == 6);
  CHECK(s.callees.nodes()[0].inclusive == 6);
  CHECK(s.callees.nodes()[0].exclusive == 4);
  test::CheckTreeIntegrity(s.callers, 6);
  test::CheckTreeIntegrity(s.callees, 6);

  test::Json json;
  REQUIRE(test::ParseJson(session->TopFunctionsJson(StackQuery{}, 3), &json));
  CHECK(json["functions"].array.size() == 3);
  CHECK(json["total"].number == 11);
  REQUIRE(test::ParseJson(session->SandwichJson(StackQuery{}, "App!Demo.Program.Work"), &json));
  CHECK(json["callers"]["total"].number == 6);
  REQUIRE(test::ParseJson(session->FlameGraphJson(StackQuery{}), &json));
  CHECK(json["total"].number == 11);
  CHECK(json["frames"][static_cast<size_t>(json["frame"][0].number)].string == "ROOT");
}

TEST_CASE("stacks: stack ids restart after a sequence point, call stacks do not", "[stacks]") {
  // Region 1: id 1 = Work ← Main. Region 2: id 1 = Fast ← Main, id 2 = Work ← Main again.
  NetTraceV6Writer w;
  TraceInfo info;
  info.tickFrequency = 1000, info.pointerSize = 8;
  REQUIRE(w.WriteTraceBlock(info).ok());
  std::vector<EventMetadata> meta = {Meta(2, "Microsoft-Windows-DotNETRuntimeRundown", 144, 1),
                                     Meta(5, "Microsoft-DotNETCore-SampleProfiler", 0, 0, "ThreadSample")};
  REQUIRE(w.WriteMetadataBlock(meta).ok());
  ThreadInfo t;
  t.index = 1, t.osThreadId = 100;
  REQUIRE(w.WriteThreadBlock(std::span(&t, 1)).ok());
  std::vector<std::vector<uint8_t>> payloads = {Method(0x11, 0xA1, 0x1000, 0x100, "P", "Main"),
                                                Method(0x12, 0xA1, 0x2000, 0x80, "P", "Work"),
                                                Method(0x13, 0xA1, 0x3000, 0x40, "P", "Fast"), U32(2)};
  auto event = [&](uint32_t meta, uint64_t ts, uint32_t seq, uint32_t stack, size_t payload) {
    EventRecord e;
    e.metadataId = meta, e.timestamp = ts, e.thread = 1, e.captureThread = 1, e.sequenceNumber = seq;
    e.stackId = stack, e.payload = payloads[payload];
    return e;
  };
  std::vector<std::vector<uint8_t>> region1 = {Stack({0x2010, 0x1010}, 8)};
  REQUIRE(w.WriteStackBlock(1, region1).ok());
  std::vector<EventRecord> first = {event(2, 1, 1, 0, 0), event(2, 1, 2, 0, 1), event(2, 1, 3, 0, 2),
                                    event(5, 10, 4, 1, 3)};
  REQUIRE(w.WriteEventBlock(first, true).ok());
  SequencePoint sp;
  sp.timestamp = 15;
  sp.threads = {{1, 4}};
  REQUIRE(w.WriteSequencePointBlock(sp).ok());
  std::vector<std::vector<uint8_t>> region2 = {Stack({0x3010, 0x1010}, 8), Stack({0x2010, 0x1010}, 8)};
  REQUIRE(w.WriteStackBlock(1, region2).ok());
  std::vector<EventRecord> second = {event(5, 20, 5, 1, 3), event(5, 21, 6, 2, 3)};
  REQUIRE(w.WriteEventBlock(second, true).ok());
  REQUIRE(w.WriteEndOfStream().ok());

  auto session = test::LoadSession(w.TakeBytes());
  StackResolver resolver(session->model(), session->symbols());
  StackSelection sel = SelectStacks(session->model(), session->symbols(), &resolver, StackQuery{});
  REQUIRE(sel.size() == 3);
  CHECK(sel.callStacks[0] == sel.callStacks[2]);
  CHECK(sel.callStacks[0] != sel.callStacks[1]);
  CHECK(resolver.stacks().parent(sel.callStacks[0]) == resolver.stacks().parent(sel.callStacks[1]));  // Main
  CHECK(session->FoldedStacks(StackQuery{}) == "ManagedModule!P.Main;ManagedModule!P.Fast 1\nManagedModule!P.Main;ManagedModule!P.Work 2\n");
}

}  // namespace
}  // namespace nettrace
