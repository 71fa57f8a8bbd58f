// Universal payloads are read by field NAME through their own v6 metadata, so a
// producer that adds, or reorders, fields does not break the tables; and the mapping
// metadata's JSON gives the ELF build-id / PE perf-map identity.
#include "symbols/universal_symbols.h"
#include "unit/stacks/stacks_test_support.h"
#include "write/field_types.h"
#include "write/nettrace_writer.h"
#include "write/payload_builder.h"

namespace nettrace {
namespace {

TEST_CASE("universal: mapping identity from the metadata JSON", "[universal]") {
  auto elf = ParseMappingIdentity(R"({"type": "ELF","debug_link": "x.debug","build_id": "4b60568b"})");
  REQUIRE(elf);
  REQUIRE(elf->size() == 3);
  CHECK((*elf)[0] == std::make_pair(std::string("type"), std::string("ELF")));
  CHECK((*elf)[2] == std::make_pair(std::string("build_id"), std::string("4b60568b")));
  auto pe = ParseMappingIdentity(
      R"({"type": "PE","name": "/_/System.Memory.pdb","date_time": 3531865237,"age": 1,"perfmap_version": 1,"perfmap_name": "System.Memory.ni.r2rmap"})");
  REQUIRE(pe);
  CHECK((*pe)[2] == std::make_pair(std::string("date_time"), std::string("3531865237")));
  CHECK((*pe)[5].second == "System.Memory.ni.r2rmap");
  CHECK(!ParseMappingIdentity("{}"));
  CHECK(!ParseMappingIdentity(R"({"type": "ELF")"));
  CHECK(!ParseMappingIdentity("not json"));
}

TEST_CASE("universal: extra and reordered fields, and a ProcessId field, do not break decoding", "[universal]") {
  NetTraceV6Writer w;
  TraceInfo info;
  info.tickFrequency = 1000000000, info.pointerSize = 8;
  REQUIRE(w.WriteTraceBlock(info).ok());
  auto meta = [](uint32_t id, const char* provider, const char* name, std::vector<FieldDescription> fields) {
    EventMetadata m;
    m.id = id, m.providerName = provider, m.eventName = name, m.fields = std::move(fields);
    return m;
  };
  const FieldType varuint = Scalar(TypeCode::kVarUInt), utf8 = ArrayOf(Scalar(TypeCode::kUTF8CodeUnit));
  std::vector<EventMetadata> metas = {
      // A future producer: a leading Flags field, EndAddress before StartAddress, an
      // explicit ProcessId, and a trailing string.
      meta(1, "Universal.System", "ProcessMapping",
           {Field("Flags", varuint), Field("Id", varuint), Field("ProcessId", varuint), Field("EndAddress", varuint),
            Field("StartAddress", varuint), Field("FileOffset", varuint), Field("FileName", utf8),
            Field("MetadataId", varuint), Field("Comment", utf8)}),
      meta(2, "Universal.System", "ProcessSymbol",
           {Field("Id", varuint), Field("MappingId", varuint), Field("StartAddress", varuint),
            Field("EndAddress", varuint), Field("Name", utf8), Field("Extra", varuint)}),
      meta(3, "Universal.Events", "cpu", {Field("Value", varuint), Field("Cpu", varuint)}),
  };
  REQUIRE(w.WriteMetadataBlock(metas).ok());
  ThreadInfo collector, app;
  collector.index = 1, collector.osProcessId = 1, collector.osThreadId = 1;  // the profiler's own thread
  app.index = 2, app.osProcessId = 300, app.osThreadId = 301;
  std::vector<ThreadInfo> threads = {collector, app};
  REQUIRE(w.WriteThreadBlock(threads).ok());
  std::vector<std::vector<uint8_t>> stacks = {PayloadBuilder().AppendU64(0x5010).AppendU64(0x4000).Take()};
  REQUIRE(w.WriteStackBlock(1, stacks).ok());
  std::vector<std::vector<uint8_t>> payloads;
  payloads.push_back(PayloadBuilder()
                         .AppendVarUInt(9).AppendVarUInt(1).AppendVarUInt(300).AppendVarUInt(0x6000)
                         .AppendVarUInt(0x4000).AppendVarUInt(0).AppendUtf8Array("/opt/app/libx.so")
                         .AppendVarUInt(0).AppendUtf8Array("ignored").Take());
  payloads.push_back(PayloadBuilder()
                         .AppendVarUInt(1).AppendVarUInt(1).AppendVarUInt(0x5000).AppendVarUInt(0x5100)
                         .AppendUtf8Array("x_run").AppendVarUInt(77).Take());
  payloads.push_back(PayloadBuilder().AppendVarUInt(250).AppendVarUInt(3).Take());
  std::vector<EventRecord> events(3);
  for (uint32_t i = 0; i < 3; ++i) {
    events[i].metadataId = i + 1, events[i].timestamp = 10 + i, events[i].sequenceNumber = i + 1;
    // Mapping and symbol come from the collector's thread: the ProcessId field says whose.
    events[i].thread = events[i].captureThread = i < 2 ? 1 : 2;
    events[i].payload = payloads[i];
  }
  events[2].stackId = 1, events[2].sequenceNumber = 1;
  REQUIRE(w.WriteEventBlock(events, /*compressed=*/false).ok());
  REQUIRE(w.WriteEndOfStream().ok());
  auto session = test::LoadSession(w.TakeBytes());
  StackQuery q;
  q.event = "cpu";
  CHECK(session->FoldedStacks(q) == "libx.so!?;libx.so!x_run 250\n");
  q.process = 300;
  CHECK(session->FoldedStacks(q) == "libx.so!?;libx.so!x_run 250\n");
  CHECK(session->symbols().malformedPayloads() == 0);
}

}  // namespace
}  // namespace nettrace
