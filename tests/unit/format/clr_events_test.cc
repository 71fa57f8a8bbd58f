// The generated CLR event table (scripts/gen_clr_events.py): TraceEvent's names, version
// fallback and manifest layouts. The name table below is every CLR-provider key of the
// TraceEvent baselines in tests/data, with the (id, version) the
// traces' metadata gives for it.
#include <catch2/catch.hpp>

#include <cstring>
#include <string>

#include "format/clr_events.generated.h"
#include "format/provider_family.h"

using namespace nettrace::clr;

namespace {

struct BaselineName {
  Provider provider;
  uint16_t id;
  uint8_t version;
  const char* name;
};

// Keys "<provider>/<name>" of the *.baseline.txt files; ids and versions read from each
// trace's metadata records (v4/v5 runtime metadata has an empty name, so only the id says
// which event it is).
constexpr BaselineName kBaselineNames[] = {
    // eventpipe-dotnetcore3.0-win-x64-objver4.nettrace.baseline.txt
    {Provider::kRuntime, 85, 0, "AppDomainResourceManagement/ThreadCreated"},
    {Provider::kRuntime, 81, 1, "Contention/Start"},
    {Provider::kRuntime, 91, 1, "Contention/Stop"},
    // IncreaseMemoryPressure, DecreaseMemoryPressure: no TraceEvent template. The original
    // baseline (Windows, manifest registered) says "GC"; TraceEvent 4.0.0 on EventPipe says
    // EventID(N) (tests/data/clr-names).
    {Provider::kRuntime, 200, 0, "EventID(200)"},
    {Provider::kRuntime, 201, 0, "EventID(201)"},
    {Provider::kRuntime, 10, 3, "GC/AllocationTick"},
    {Provider::kRuntime, 22, 0, "GC/BulkMovedObjectRanges"},
    {Provider::kRuntime, 14, 1, "GC/FinalizersStart"},
    {Provider::kRuntime, 13, 1, "GC/FinalizersStop"},
    {Provider::kRuntime, 23, 0, "GC/GenerationRange"},
    {Provider::kRuntime, 205, 2, "GC/GlobalHeapHistory"},
    {Provider::kRuntime, 4, 1, "GC/HeapStats"},
    {Provider::kRuntime, 202, 0, "GC/MarkWithType"},
    {Provider::kRuntime, 204, 3, "GC/PerHeapHistory"},
    {Provider::kRuntime, 33, 0, "GC/PinObjectAtGCTime"},
    {Provider::kRuntime, 7, 1, "GC/RestartEEStart"},
    {Provider::kRuntime, 3, 1, "GC/RestartEEStop"},
    {Provider::kRuntime, 1, 2, "GC/Start"},
    {Provider::kRuntime, 2, 1, "GC/Stop"},
    {Provider::kRuntime, 9, 1, "GC/SuspendEEStart"},
    {Provider::kRuntime, 8, 1, "GC/SuspendEEStop"},
    {Provider::kRuntime, 35, 0, "GC/Triggered"},
    {Provider::kRuntime, 154, 1, "Loader/AssemblyLoad"},
    {Provider::kRuntime, 151, 1, "Loader/DomainModuleLoad"},
    {Provider::kRuntime, 152, 2, "Loader/ModuleLoad"},
    {Provider::kRuntime, 145, 1, "Method/JittingStarted"},
    {Provider::kRuntime, 143, 1, "Method/LoadVerbose"},
    {Provider::kRuntime, 143, 2, "Method/LoadVerbose"},
    {Provider::kRuntime, 159, 0, "Method/R2RGetEntryPoint"},
    {Provider::kRuntime, 62, 0, "ThreadPool/Dequeue"},
    {Provider::kRuntime, 61, 0, "ThreadPool/Enqueue"},
    {Provider::kRuntime, 50, 0, "ThreadPoolWorkerThread/Start"},
    {Provider::kRuntime, 57, 0, "ThreadPoolWorkerThread/Wait"},
    {Provider::kRuntime, 55, 0, "ThreadPoolWorkerThreadAdjustment/Adjustment"},
    {Provider::kRuntime, 54, 0, "ThreadPoolWorkerThreadAdjustment/Sample"},
    {Provider::kRuntime, 56, 0, "ThreadPoolWorkerThreadAdjustment/Stats"},
    {Provider::kPrivate, 199, 0, "GC/PinPlugAtGCTime"},
    // eventpipe-dotnetcore2.1-linux-x64-objver3.netperf and ...5.0-win-x64-arraytypes.nettrace
    {Provider::kRundown, 158, 1, "Loader/AppDomainDCStop"},
    {Provider::kRundown, 156, 1, "Loader/AssemblyDCStop"},
    {Provider::kRundown, 152, 1, "Loader/DomainModuleDCStop"},
    {Provider::kRundown, 154, 2, "Loader/ModuleDCStop"},
    {Provider::kRundown, 146, 1, "Method/DCStopComplete"},
    {Provider::kRundown, 148, 1, "Method/DCStopInit"},
    {Provider::kRundown, 187, 0, "Runtime/Start"},
    // eventpipe-dotnetcore6.0-win-x64-executioncheckpoints.nettrace (not in the manifest)
    {Provider::kRundown, 300, 0, "ExecutionCheckpointRundown/ExecutionCheckpointDCEnd"},
};

std::string NameOf(Provider p, uint32_t id, uint32_t version) {
  const EventInfo* e = FindEvent(p, id, version);
  return e ? e->name : "<none>";
}

// Checks one field row of an event.
void CheckField(const EventInfo& e, size_t i, const char* name, FieldKind kind, bool hex = false) {
  INFO(e.symbol << " field " << i);
  REQUIRE(i < e.fieldCount);
  CHECK(std::string(e.fields[i].name) == name);
  CHECK(e.fields[i].kind == kind);
  CHECK(e.fields[i].hex == hex);
}

}  // namespace

TEST_CASE("CLR names equal TraceEvent's baseline names", "[clr]") {
  for (const BaselineName& b : kBaselineNames) {
    INFO("provider " << int(b.provider) << " id " << b.id << " v" << int(b.version));
    CHECK(NameOf(b.provider, b.id, b.version) == b.name);
  }
}

TEST_CASE("CLR names: TraceEvent renames, bookkeeping events and fallbacks", "[clr]") {
  // Events TraceLog removes from the baselines still need TraceEvent's names.
  CHECK(NameOf(Provider::kRundown, 144, 1) == "Method/DCStopVerbose");
  CHECK(NameOf(Provider::kRundown, 150, 0) == "Method/ILToNativeMapDCStop");
  CHECK(NameOf(Provider::kRuntime, 190, 0) == "Method/ILToNativeMap");
  CHECK(NameOf(Provider::kRuntime, 139, 0) == "Method/DCStartVerboseV2");
  CHECK(NameOf(Provider::kRuntime, 82, 0) == "ClrStack/Walk");
  CHECK(NameOf(Provider::kPrivate, 151, 0) == "ClrStack/Walk");
  // Runtime/Start comes from both the runtime and the rundown provider.
  CHECK(NameOf(Provider::kRuntime, 187, 0) == "Runtime/Start");
  // The GC-prefix rule and per-event corrections.
  CHECK(NameOf(Provider::kRuntime, 16, 0) == "GC/BulkRootEdge");
  CHECK(NameOf(Provider::kRuntime, 203, 2) == "GC/Join");
  CHECK(NameOf(Provider::kRuntime, 136, 0) == "Method/DCStopCompleteV2");
  CHECK(NameOf(Provider::kRuntime, 283, 0) == "TieredCompilation/BackgroundJitStart");
  CHECK(NameOf(Provider::kRundown, 280, 0) == "TieredCompilationRundown/SettingsDCStart");
  CHECK(NameOf(Provider::kPrivate, 191, 0) == "FailFast");
  CHECK(NameOf(Provider::kPrivate, 195, 0) == "GC/DestroyGCHandle");
  CHECK(NameOf(Provider::kRuntime, 31, 0) == "GC/DestoryGCHandle");  // TraceEvent keeps the typo here
  CHECK(NameOf(Provider::kRuntime, 270, 0) == "EventSourceEvent");
  // Info opcode: the task name alone.
  CHECK(NameOf(Provider::kRuntime, 58, 0) == "YieldProcessorMeasurement");
  // No TraceEvent template: EventID(N), as TraceEvent names it; the layout is the manifest's.
  const EventInfo* pressure = FindEvent(Provider::kRuntime, 200, 0);
  REQUIRE(pressure);
  CHECK(std::string(pressure->name) == "EventID(200)");
  CHECK(std::string(pressure->opcodeName).empty());
  CHECK(std::string(pressure->symbol) == "IncreaseMemoryPressure");
  CHECK(pressure->opcode == 200);
  CHECK(pressure->fieldCount == 2);
  CHECK(NameOf(Provider::kRuntime, 191, 0) == "EventID(191)");
  // Name-only entries: TraceEvent knows the id, we hold no layout.
  const EventInfo* pinPlug = FindEvent(Provider::kRuntime, 34, 0);
  REQUIRE(pinPlug);
  CHECK(std::string(pinPlug->name) == "GC/PinPlugAtGCTime");
  CHECK_FALSE(pinPlug->layoutKnown);
  CHECK(pinPlug->fieldCount == 0);
  // GC/LOHCompact (.NET 7+): the two fields TraceEvent's template shows.
  const EventInfo* lohCompact = FindEvent(Provider::kRuntime, 208, 0);
  REQUIRE(lohCompact);
  CHECK(std::string(lohCompact->name) == "GC/LOHCompact");
  CHECK(lohCompact->layoutKnown);
  CHECK(lohCompact->fieldCount == 2);
  // Events newer than the manifest (scripts/clr_newer_events.py): TraceEvent's opcode 11
  // where the newer manifest says Info.
  const EventInfo* lockCreated = FindEvent(Provider::kRuntime, 90, 0);
  REQUIRE(lockCreated);
  CHECK(std::string(lockCreated->name) == "Contention/LockCreated");
  CHECK(lockCreated->layoutKnown);
  CHECK(lockCreated->fieldCount == 3);
  CHECK(NameOf(Provider::kRuntime, 303, 0) == "AllocationSampling");
  CHECK(NameOf(Provider::kRuntime, 59, 0) == "ThreadPoolMinMaxThreads");
  CHECK(NameOf(Provider::kRuntime, 209, 0) == "GC/FitBucketInfo");
  // Unknown ids and providers.
  CHECK(FindEvent(Provider::kRuntime, 9999, 0) == nullptr);
  CHECK(FindEvent(Provider::kRuntime, 24, 0) == nullptr);
  CHECK(FindEvent(Provider::kNone, 1, 0) == nullptr);
  CHECK(FindEvent(Provider::kStress, 0, 1) != nullptr);
}

TEST_CASE("CLR version fallback", "[clr]") {
  // GCStart has versions 0, 1, 2.
  CHECK(std::string(FindEvent(Provider::kRuntime, 1, 0)->symbol) == "GCStart");
  CHECK(std::string(FindEvent(Provider::kRuntime, 1, 1)->symbol) == "GCStart_V1");
  CHECK(std::string(FindEvent(Provider::kRuntime, 1, 2)->symbol) == "GCStart_V2");
  // A newer runtime's version 3 uses the highest version below it.
  CHECK(std::string(FindEvent(Provider::kRuntime, 1, 3)->symbol) == "GCStart_V2");
  CHECK(std::string(FindEvent(Provider::kRuntime, 1, 200)->symbol) == "GCStart_V2");
  // GCJoin exists only as version 2: lower versions take the lowest above.
  CHECK(std::string(FindEvent(Provider::kRuntime, 203, 0)->symbol) == "GCJoin_V2");
  CHECK(std::string(FindEvent(Provider::kRuntime, 203, 5)->symbol) == "GCJoin_V2");
  // GCGlobalHeapHistory: versions 2 and 3 from the manifest, 4 a supplement.
  CHECK(FindEvent(Provider::kRuntime, 205, 1)->version == 2);
  CHECK(FindEvent(Provider::kRuntime, 205, 3)->version == 3);
  CHECK(std::string(FindEvent(Provider::kRuntime, 205, 4)->symbol) == "GCGlobalHeapHistory_V4");
  CHECK(std::string(FindEvent(Provider::kRuntime, 10, 5)->symbol) == "GCAllocationTick_V4");
  CHECK(std::string(FindEvent(Provider::kRuntime, 81, 2)->symbol) == "ContentionStart_V2");
  // Private GCPerHeapHistory is declared v2 before v1 in the manifest; the table is sorted.
  CHECK(FindEvent(Provider::kPrivate, 4, 1)->version == 1);
  CHECK(FindEvent(Provider::kPrivate, 4, 2)->version == 2);
}

TEST_CASE("CLR table is sorted and self-consistent", "[clr]") {
  size_t count = 0;
  const EventInfo* all = AllEvents(&count);
  REQUIRE(count > 400);
  for (size_t i = 0; i < count; ++i) {
    const EventInfo& e = all[i];
    INFO(e.name << " " << e.symbol << " v" << int(e.version));
    if (i > 0) {
      const EventInfo& p = all[i - 1];
      bool ordered = p.provider != e.provider ? p.provider < e.provider
                     : p.id != e.id           ? p.id < e.id
                                              : p.version < e.version;
      CHECK(ordered);
    }
    CHECK(FindEvent(e.provider, e.id, e.version) == &e);
    CHECK(std::strlen(e.name) > 0);
    CHECK((e.fields == nullptr) == (e.fieldCount == 0));
    CHECK(e.topLevelFieldCount <= e.fieldCount);
    // The name is the task, plus "/opcode" when there is an opcode name.
    std::string expected = e.task;
    if (*e.opcodeName) expected += std::string("/") + e.opcodeName;
    CHECK(expected == e.name);
    size_t nested = 0;
    for (size_t f = 0; f < e.fieldCount; ++f) {
      const Field& field = e.fields[f];
      if (field.countField >= 0) CHECK(size_t(field.countField) < f);
      if (field.kind == FieldKind::kStruct) {
        CHECK(field.firstChild == f + 1);
        CHECK(field.firstChild + field.childCount <= e.fieldCount);
        nested += field.childCount;
      }
    }
    CHECK(e.topLevelFieldCount + nested == e.fieldCount);
  }
}

TEST_CASE("CLR field layouts from the manifest", "[clr]") {
  const EventInfo* gcStart = FindEvent(Provider::kRuntime, 1, 2);
  REQUIRE(gcStart);
  CHECK(std::string(gcStart->symbol) == "GCStart_V2");
  CHECK(gcStart->opcode == 1);
  CHECK(gcStart->level == 4);
  CHECK(gcStart->keywords == 0x1);
  REQUIRE(gcStart->fieldCount == 6);
  CHECK(gcStart->topLevelFieldCount == 6);
  CheckField(*gcStart, 0, "Count", FieldKind::kUInt32);
  CheckField(*gcStart, 1, "Depth", FieldKind::kUInt32);
  CheckField(*gcStart, 2, "Reason", FieldKind::kUInt32);
  CheckField(*gcStart, 3, "Type", FieldKind::kUInt32);
  CheckField(*gcStart, 4, "ClrInstanceID", FieldKind::kUInt16);
  CheckField(*gcStart, 5, "ClientSequenceNumber", FieldKind::kUInt64);

  const EventInfo* tick = FindEvent(Provider::kRuntime, 10, 3);
  REQUIRE(tick);
  CHECK(std::string(tick->symbol) == "GCAllocationTick_V3");
  CHECK(tick->level == 5);
  REQUIRE(tick->fieldCount == 8);
  CheckField(*tick, 0, "AllocationAmount", FieldKind::kUInt32, true);
  CheckField(*tick, 1, "AllocationKind", FieldKind::kUInt32);
  CheckField(*tick, 2, "ClrInstanceID", FieldKind::kUInt16);
  CheckField(*tick, 3, "AllocationAmount64", FieldKind::kUInt64, true);
  CheckField(*tick, 4, "TypeID", FieldKind::kPointer, true);
  CheckField(*tick, 5, "TypeName", FieldKind::kUnicodeString);
  CheckField(*tick, 6, "HeapIndex", FieldKind::kUInt32);
  CheckField(*tick, 7, "Address", FieldKind::kPointer, true);

  const EventInfo* load = FindEvent(Provider::kRuntime, 143, 2);
  REQUIRE(load);
  CHECK(std::string(load->symbol) == "MethodLoadVerbose_V2");
  CHECK(std::string(load->name) == "Method/LoadVerbose");
  REQUIRE(load->fieldCount == 11);
  CheckField(*load, 0, "MethodID", FieldKind::kUInt64, true);
  CheckField(*load, 1, "ModuleID", FieldKind::kUInt64, true);
  CheckField(*load, 2, "MethodStartAddress", FieldKind::kUInt64, true);
  CheckField(*load, 3, "MethodSize", FieldKind::kUInt32, true);
  CheckField(*load, 4, "MethodToken", FieldKind::kUInt32, true);
  CheckField(*load, 5, "MethodFlags", FieldKind::kUInt32);  // payload offset 32 (TraceLog filter)
  CheckField(*load, 6, "MethodNamespace", FieldKind::kUnicodeString);
  CheckField(*load, 7, "MethodName", FieldKind::kUnicodeString);
  CheckField(*load, 8, "MethodSignature", FieldKind::kUnicodeString);
  CheckField(*load, 9, "ClrInstanceID", FieldKind::kUInt16);
  CheckField(*load, 10, "ReJITID", FieldKind::kUInt64, true);

  // Structs: GCBulkMovedObjectRanges = Index, Count, ClrInstanceID, Values[Count]{...}.
  const EventInfo* moved = FindEvent(Provider::kRuntime, 22, 0);
  REQUIRE(moved);
  CHECK(moved->topLevelFieldCount == 4);
  REQUIRE(moved->fieldCount == 7);
  CheckField(*moved, 3, "Values", FieldKind::kStruct);
  CHECK(moved->fields[3].countField == 1);  // "Count"
  CHECK(moved->fields[3].firstChild == 4);
  CHECK(moved->fields[3].childCount == 3);
  CheckField(*moved, 4, "OldRangeBase", FieldKind::kPointer, true);
  CheckField(*moved, 6, "RangeLength", FieldKind::kUInt64);  // no outType in the manifest

  // Arrays inside a struct count by a member (BulkType's TypeParameters).
  const EventInfo* bulkType = FindEvent(Provider::kRuntime, 15, 0);
  REQUIRE(bulkType);
  bool sawTypeParameters = false;
  for (size_t i = 0; i < bulkType->fieldCount; ++i) {
    const Field& f = bulkType->fields[i];
    if (std::string(f.name) == "TypeParameters") {
      sawTypeParameters = true;
      REQUIRE(f.countField >= 0);
      CHECK(std::string(bulkType->fields[f.countField].name) == "TypeParameterCount");
    }
  }
  CHECK(sawTypeParameters);

  // Fixed counts and binary lengths.
  const EventInfo* walk = FindEvent(Provider::kRuntime, 82, 0);
  REQUIRE(walk);
  CHECK(walk->fields[walk->fieldCount - 1].fixedCount == 2);
  const EventInfo* dynamic = FindEvent(Provider::kRuntime, 39, 0);
  REQUIRE(dynamic);
  CheckField(*dynamic, 2, "Data", FieldKind::kBinary);
  CHECK(dynamic->fields[2].countField == 1);  // length="DataSize"

  // The hand-kept supplement: rundown 300 as the executioncheckpoints trace carries it.
  const EventInfo* checkpoint = FindEvent(Provider::kRundown, 300, 0);
  REQUIRE(checkpoint);
  CHECK(checkpoint->layoutKnown);
  REQUIRE(checkpoint->fieldCount == 3);
  CheckField(*checkpoint, 0, "ClrInstanceID", FieldKind::kUInt16);
  CheckField(*checkpoint, 1, "Name", FieldKind::kUnicodeString);
  CheckField(*checkpoint, 2, "Timestamp", FieldKind::kInt64);
  const EventInfo* gcSettings = FindEvent(Provider::kRundown, 10, 0);
  REQUIRE(gcSettings);
  CHECK(std::string(gcSettings->name) == "GC/SettingsRundown");
  CHECK(gcSettings->fieldCount == 8);
  // The SampleProfiler's one event (TraceEvent's ClrThreadSampleTraceData).
  const EventInfo* sample = FindEvent(Provider::kSampleProfiler, 0, 0);
  REQUIRE(sample);
  CHECK(std::string(sample->name) == "Thread/Sample");
  CHECK(sample->level == 4);
  REQUIRE(sample->fieldCount == 1);
  CheckField(*sample, 0, "Type", FieldKind::kUInt32);
  REQUIRE(sample->fields[0].enumType != nullptr);
  CHECK(std::string(sample->fields[0].enumType->name) == "ClrThreadSampleType");
  CHECK(FindEvent(Provider::kSampleProfiler, 1, 0) == nullptr);  // Thread/StackWalk: no layout
}

TEST_CASE("CLR provider names", "[clr]") {
  CHECK(nettrace::ClrProviderOf("Microsoft-Windows-DotNETRuntime") == Provider::kRuntime);
  CHECK(nettrace::ClrProviderOf("Microsoft-Windows-DotNETRuntimeRundown") == Provider::kRundown);
  CHECK(nettrace::ClrProviderOf("Microsoft-Windows-DotNETRuntimePrivate") == Provider::kPrivate);
  CHECK(nettrace::ClrProviderOf("Microsoft-Windows-DotNETRuntimeStress") == Provider::kStress);
  CHECK(nettrace::ClrProviderOf("microsoft-windows-dotnetruntime") == Provider::kRuntime);
  CHECK(nettrace::ClrProviderOf("MICROSOFT-WINDOWS-DOTNETRUNTIMERUNDOWN") == Provider::kRundown);
  CHECK(nettrace::ClrProviderOf("Microsoft-Windows-DotNETRuntime ") == Provider::kNone);
  CHECK(nettrace::ClrProviderOf("Microsoft-Windows-DotNETRuntimeX") == Provider::kNone);
  // Not a manifest provider, but its Thread/Sample payload is in the table.
  CHECK(nettrace::ClrProviderOf("Microsoft-DotNETCore-SampleProfiler") == Provider::kSampleProfiler);
  CHECK(nettrace::ClrProviderOf("") == Provider::kNone);
}
