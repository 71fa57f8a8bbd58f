// Enum-typed CLR payload fields rendered as TraceEvent shows them (.NET Enum.ToString() of
// the value TraceEvent derives from the field), on the real enums of the generated table:
// plain enums, [Flags] joining, bits no member covers, zero, signed and unsigned underlying
// types, TraceEvent's signed 2-/4-byte reads, and the two derived reads (MethodFlags mask,
// GCPerHeapHistory's lowest-set-bit index). Then which fields carry which enum, and the
// "display" key of the decoded JSON.
#include <catch2/catch.hpp>

#include <cstring>
#include <string>
#include <vector>

#include "base/json_writer.h"
#include "format/clr_events.generated.h"
#include "format/payload/clr_enums.h"
#include "format/payload_decoder.h"
#include "write/field_types.h"

namespace nettrace {
namespace {

const clr::EnumInfo& Enum(const char* name) {
  const clr::EnumInfo* e = clr::FindEnum(name);
  INFO(name);
  REQUIRE(e != nullptr);
  return *e;
}

// A field of `width` bytes holding `raw`, rendered as TraceEvent would.
std::string Show(const char* enumName, uint64_t raw, uint8_t width = 4) {
  const clr::EnumInfo& e = Enum(enumName);
  return clr::FormatEnum(e, clr::EnumStorage(e, raw, width));
}

const clr::EnumInfo* FieldEnum(clr::Provider p, uint32_t id, uint32_t version, const char* field) {
  const clr::EventInfo* info = clr::FindEvent(p, id, version);
  REQUIRE(info != nullptr);
  for (uint16_t i = 0; i < info->fieldCount; ++i)
    if (std::strcmp(info->fields[i].name, field) == 0) return info->fields[i].enumType;
  FAIL("no field " << field);
  return nullptr;
}

std::string EnumName(const clr::EnumInfo* e) { return e ? e->name : "<none>"; }

void Append(std::vector<uint8_t>* out, uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) out->push_back(static_cast<uint8_t>(v >> (8 * i)));
}

std::string DecodedJson(const char* provider, uint32_t id, uint32_t version, const std::vector<uint8_t>& payload,
                        std::vector<FieldDescription> fields = {}) {
  EventMetadata m;
  m.providerName = provider;
  m.eventId = id;
  m.version = version;
  m.fields = std::move(fields);
  JsonWriter w;
  DecodePayload(m, payload, 8, 4).ToJson(w);
  return w.Take();
}

}  // namespace

TEST_CASE("clr enums: plain enums by name, unnamed values as signed numbers", "[clr][enum]") {
  CHECK(Show("GCReason", 0) == "AllocSmall");
  CHECK(Show("GCReason", 5) == "OutOfSpaceSOH");  // manifest: OutOfSpaceSmallObjectHeap
  CHECK(Show("GCReason", 8) == "Internal");       // manifest: Stress
  CHECK(Show("GCReason", 0xd) == "LowMemoryHostBlocking");
  CHECK(Show("GCReason", 14) == "14");
  CHECK(Show("GCType", 2) == "ForegroundGC");
  CHECK(Show("GCSuspendEEReason", 6) == "SuspendForGCPrep");
  // int underlying: 0xFFFFFFFF is -1, a member of some enums and a negative number in others.
  CHECK(Show("GCPauseMode", 0xFFFFFFFF) == "Invalid");
  CHECK(Show("TailCallType", 0xFFFFFFFF) == "Unknown");
  CHECK(Show("GCReason", 0xFFFFFFFE) == "-2");
  CHECK(Show("GCHandleKind", 0xFFFFFFF9) == "DependendAsyncPinned");
  CHECK(Show("ClrThreadSampleType", 0) == "Error");
  CHECK(Show("ClrThreadSampleType", 1) == "External");
  CHECK(Show("ClrThreadSampleType", 2) == "Managed");
  CHECK(Show("ClrThreadSampleType", 3) == "3");
}

TEST_CASE("clr enums: TraceEvent's reads (1 byte unsigned, 2 and 4 bytes signed)", "[clr][enum]") {
  CHECK(Show("ContentionFlags", 1, 1) == "Native");
  CHECK(Show("ContentionFlags", 0xFF, 1) == "255");  // GetByteAt: unsigned
  CHECK(Show("KnownPathSource", 2, 2) == "AppPaths");
  CHECK(Show("KnownPathSource", 0xFFFF, 2) == "-1");  // GetInt16At: sign-extended
  CHECK(Show("RuntimeSku", 0x8000, 2) == "-32768");
  CHECK(Show("GCSuspendEEReason", 0xFFFF, 2) == "-1");
}

TEST_CASE("clr enums: [Flags] join names ascending, leftovers print the number", "[clr][enum]") {
  CHECK(Show("ModuleFlags", 0x8) == "Manifest");
  CHECK(Show("ModuleFlags", 0x28) == "Manifest, ReadyToRunModule");
  CHECK(Show("ModuleFlags", 0x1A) == "Native, Manifest, IbcOptimized");
  CHECK(Show("GCGlobalMechanisms", 0x12) == "Compaction, CardBundles");
  CHECK(Show("GCGlobalMechanisms", 0x16) == "Compaction, Promotion, CardBundles");
  CHECK(Show("AppDomainFlags", 0x3) == "Default, Executable");
  CHECK(Show("AssemblyFlags", 0x10) == "ReadyToRun");  // TraceEvent's member, not the manifest's
  // Any bit no member covers: the whole value as a number (the objver4 rundown has both).
  CHECK(Show("AppDomainFlags", 0x10000003) == "268435459");
  CHECK(Show("StartupFlags", 0x800003) == "8388611");
  CHECK(Show("ILStubGeneratedFlags", 0x40) == "64");  // the manifest's StructMarshal, not TraceEvent's
  // The sign of the underlying type shows in the number.
  CHECK(Show("ModuleFlags", 0x80000000) == "-2147483648");
  CHECK(Show("TieredCompilationSettingsFlags", 0x80000000) == "2147483648");  // : uint
  CHECK(Show("TieredCompilationSettingsFlags", 0x5) == "QuickJit, TieredPGO");
}

TEST_CASE("clr enums: zero is the 0-valued member, else \"0\"", "[clr][enum]") {
  CHECK(Show("AssemblyFlags", 0) == "None");  // TraceEvent adds None = 0 to bitMap enums
  CHECK(Show("StartupMode", 0, 1) == "None");
  CHECK(Show("TieredCompilationSettingsFlags", 0) == "None");
  CHECK(Show("GCSettingsFlags", 0) == "0");  // [Flags] without a 0 member
  CHECK(Show("GCSettingsFlags", 0x3) == "GCSettingsConcurrent, GCSettingsLargePages");
  CHECK(Show("GCAllocationKind", 0) == "Small");
}

TEST_CASE("clr enums: derived reads (MethodFlags mask, lowest set bit)", "[clr][enum]") {
  // MethodFlags: bits 7-9 (optimization tier) and 28-31 (method extent) are not flags.
  CHECK(Show("MethodFlags", 0x8 | (1u << 7)) == "Jitted");
  CHECK(Show("MethodFlags", 0x9 | (4u << 7) | 0x10000000u) == "Dynamic, Jitted");
  CHECK(Show("MethodFlags", 3u << 7) == "None");
  CHECK(Show("MethodFlags", 0x80 | 0x400) == "1024");  // bit 10: no member, kept
  // GCPerHeapHistory CompactMechanisms / ExpandMechanisms: one-hot masks.
  CHECK(Show("gc_heap_compact_reason", 1u << 1) == "compact_high_frag");
  CHECK(Show("gc_heap_compact_reason", 1u << 6) == "compact_fragmented_gen0");
  CHECK(Show("gc_heap_compact_reason", (1u << 6) | (1u << 2)) == "compact_no_gaps");  // lowest bit wins
  CHECK(Show("gc_heap_compact_reason", 0) == "not_specified");
  CHECK(Show("gc_heap_compact_reason", 1u << 11) == "not_specified");  // index == max_compact_reasons_count
  CHECK(Show("gc_heap_expand_mechanism", 0) == "not_specified");
  CHECK(Show("gc_heap_expand_mechanism", 1u << 3) == "expand_new_seg");
  CHECK(Show("gc_heap_expand_mechanism", 0x80000000u) == "not_specified");
}

TEST_CASE("clr enums: a non-integer field value has no display text", "[clr][enum]") {
  CHECK(clr::FormatEnumField(Enum("GCReason"), PayloadValue::Error("truncated")).empty());
  CHECK(clr::FormatEnumField(Enum("GCReason"), PayloadValue::UInt(1, 4)) == "Induced");
  CHECK(clr::FormatEnumField(Enum("TieredCompilationSettingsFlags"), PayloadValue::UInt(3, 4, true)) ==
        "QuickJit, QuickJitForLoops");  // a hex field (outType HexInt32) is still an integer
}

TEST_CASE("clr enums: which fields TraceEvent types as enums", "[clr][enum]") {
  using P = clr::Provider;
  CHECK(EnumName(FieldEnum(P::kRuntime, 1, 2, "Reason")) == "GCReason");
  CHECK(EnumName(FieldEnum(P::kRuntime, 1, 2, "Type")) == "GCType");
  CHECK(EnumName(FieldEnum(P::kRuntime, 1, 2, "Count")) == "<none>");
  CHECK(EnumName(FieldEnum(P::kRuntime, 205, 2, "PauseMode")) == "GCPauseMode");  // no map in the manifest
  CHECK(EnumName(FieldEnum(P::kRuntime, 205, 2, "Reason")) == "GCReason");
  CHECK(EnumName(FieldEnum(P::kRuntime, 204, 3, "CompactMechanisms")) == "gc_heap_compact_reason");
  CHECK(EnumName(FieldEnum(P::kRundown, 154, 2, "ModuleFlags")) == "ModuleFlags");
  CHECK(EnumName(FieldEnum(P::kRundown, 10, 0, "BitSettings")) == "GCSettingsFlags");
  CHECK(EnumName(FieldEnum(P::kSampleProfiler, 0, 0, "Type")) == "ClrThreadSampleType");
  // A manifest map TraceEvent ignores (returns int): ThreadCreated Flags, GCMarkWithType Type.
  CHECK(EnumName(FieldEnum(P::kRuntime, 85, 0, "Flags")) == "<none>");
  CHECK(EnumName(FieldEnum(P::kRuntime, 202, 0, "Type")) == "<none>");
  // No TraceEvent template (ModuleRange), and struct members (BulkType's Flags): no enum.
  CHECK(EnumName(FieldEnum(P::kRuntime, 158, 0, "RangeType")) == "<none>");
  CHECK(EnumName(FieldEnum(P::kRuntime, 15, 0, "Flags")) == "<none>");
}

TEST_CASE("clr enums: every enum is ordered as .NET orders it, with distinct values", "[clr][enum]") {
  size_t count = 0;
  const clr::EnumInfo* all = clr::AllEnums(&count);
  REQUIRE(count > 30);
  for (size_t i = 0; i < count; ++i) {
    const clr::EnumInfo& e = all[i];
    INFO(e.name);
    CHECK(clr::FindEnum(e.name) == &e);
    REQUIRE(e.memberCount > 0);
    for (uint16_t m = 1; m < e.memberCount; ++m) {
      uint64_t mask = e.size >= 8 ? ~uint64_t{0} : (uint64_t{1} << (8 * e.size)) - 1;
      CHECK((static_cast<uint64_t>(e.members[m - 1].value) & mask) < (static_cast<uint64_t>(e.members[m].value) & mask));
    }
    // Each member's own value renders as its name.
    for (uint16_t m = 0; m < e.memberCount; ++m)
      CHECK(clr::FormatEnum(e, static_cast<uint64_t>(e.members[m].value)) == e.members[m].name);
  }
  CHECK(clr::FindEnum("NoSuchEnum") == nullptr);
  // Every enum field is an integer field.
  size_t events = 0;
  const clr::EventInfo* table = clr::AllEvents(&events);
  for (size_t i = 0; i < events; ++i)
    for (uint16_t f = 0; f < table[i].fieldCount; ++f)
      if (table[i].fields[f].enumType) {
        clr::FieldKind k = table[i].fields[f].kind;
        INFO(table[i].symbol << " " << table[i].fields[f].name);
        CHECK((k == clr::FieldKind::kUInt8 || k == clr::FieldKind::kUInt16 || k == clr::FieldKind::kUInt32));
      }
}

TEST_CASE("clr enums: decoded JSON keeps the number and adds \"display\"", "[clr][enum][payload]") {
  std::vector<uint8_t> gcStart;
  Append(&gcStart, 7, 4);  // Count
  Append(&gcStart, 2, 4);  // Depth
  Append(&gcStart, 1, 4);  // Reason: Induced
  Append(&gcStart, 1, 4);  // Type: BackgroundGC
  Append(&gcStart, 0, 2);  // ClrInstanceID
  Append(&gcStart, 0, 8);  // ClientSequenceNumber
  std::string json = DecodedJson("Microsoft-Windows-DotNETRuntime", 1, 2, gcStart);
  CHECK(json.find(R"({"name":"Count","value":7},)") != std::string::npos);
  CHECK(json.find(R"({"name":"Reason","value":1,"display":"Induced"},)") != std::string::npos);
  CHECK(json.find(R"({"name":"Type","value":1,"display":"BackgroundGC"},)") != std::string::npos);

  // The SampleProfiler's Thread/Sample: one 32-bit sample type.
  std::vector<uint8_t> sample;
  Append(&sample, 2, 4);
  std::string s = DecodedJson("Microsoft-DotNETCore-SampleProfiler", 0, 0, sample);
  CHECK(s.find(R"("schema":"clr","template":"ThreadSample")") != std::string::npos);
  CHECK(s.find(R"("fields":[{"name":"Type","value":2,"display":"Managed"}])") != std::string::npos);
  CHECK(s.find(R"("trailingBytes":0)") != std::string::npos);

  // Fields described by the metadata (as a v6 writer may): TraceEvent still uses its template's
  // enums, matched by field name.
  std::vector<FieldDescription> described = {
      Field("Count", Scalar(TypeCode::kUInt32)), Field("Depth", Scalar(TypeCode::kUInt32)),
      Field("Reason", Scalar(TypeCode::kUInt32)), Field("Type", Scalar(TypeCode::kUInt32)),
      Field("ClrInstanceID", Scalar(TypeCode::kUInt16)), Field("ClientSequenceNumber", Scalar(TypeCode::kUInt64))};
  std::string m = DecodedJson("Microsoft-Windows-DotNETRuntime", 1, 2, gcStart, described);
  CHECK(m.find(R"("schema":"metadata")") != std::string::npos);
  CHECK(m.find(R"({"name":"Reason","value":1,"display":"Induced"},)") != std::string::npos);
  CHECK(m.find(R"({"name":"Count","value":7},)") != std::string::npos);
  // The same layout under an EventSource's name: no enums.
  std::string other = DecodedJson("MyEventSource", 1, 2, gcStart, described);
  CHECK(other.find("display") == std::string::npos);

  // Truncated: the field is an error value and gets no display.
  std::vector<uint8_t> cut = {1, 0};
  std::string t = DecodedJson("Microsoft-DotNETCore-SampleProfiler", 0, 0, cut);
  CHECK(t.find("\"$error\"") != std::string::npos);
  CHECK(t.find("display") == std::string::npos);
}

}  // namespace nettrace
