#include "seed_traces.h"

#include <map>
#include <span>

#include "shapes/extreme_shapes.h"
#include "shapes/trace_parts.h"
#include "write/field_types.h"
#include "write/nettrace_v5_writer.h"
#include "write/nettrace_writer.h"
#include "write/payload_builder.h"
#include "write/universal_trace_writer.h"

namespace nettrace::fuzz {
namespace {

using namespace nettrace::shapes;

Label MakeLabel(LabelKind kind, uint8_t seed) {
  Label l;
  l.kind = kind, l.guid = MakeGuid(seed), l.number = seed, l.intValue = -seed;
  l.key = "key" + std::to_string(seed), l.value = "value " + std::to_string(seed);
  return l;
}

// Every block kind and TypeCode, optional metadata, label lists, thread removal.
Status AllBlocks(std::vector<uint8_t>* out) {
  NetTraceV6Writer w;
  NETTRACE_RETURN_IF_ERROR(w.WriteTraceBlock(Info(8)));
  NETTRACE_RETURN_IF_ERROR(w.WriteRawBlock(99, std::vector<uint8_t>{1, 2, 3}));
  EventMetadata scalars = Meta(1, "Fuzz.Seed", 1, "Scalars");
  for (uint8_t code = 3; code <= 26; ++code)
    if (code != 15 && code != 19 && code != 22 && code != 24 && code != 25)  // no Decimal; containers below
      scalars.fields.push_back(Field("f" + std::to_string(code), Scalar(static_cast<TypeCode>(code))));
  EventMetadata containers = Meta(2, "Fuzz.Seed", 2, "Containers");
  containers.fields = {Field("ints", ArrayOf(Scalar(TypeCode::kInt32))),
                       Field("chars", FixedArrayOf(Scalar(TypeCode::kUTF16CodeUnit), 2)),
                       Field("rel", RelLocOf(Scalar(TypeCode::kInt32))),
                       Field("obj", ObjectOf({Field("v", Scalar(TypeCode::kVarInt)),
                                              Field("s", ArrayOf(Scalar(TypeCode::kUTF8CodeUnit)))}))};
  EventMetadata optional = Meta(3, "Fuzz.Seed", 3, "Optional", 2);
  optional.opcode = 1, optional.hasKeywords = true, optional.keywords = 0xF0, optional.hasLevel = true;
  optional.level = 4, optional.messageTemplate = "Hello {0}", optional.description = "desc";
  optional.attributes = {{"k", "v"}}, optional.providerGuid = MakeGuid(9);
  NETTRACE_RETURN_IF_ERROR(w.WriteMetadataBlock(std::vector<EventMetadata>{scalars, containers, optional}, 3));
  NETTRACE_RETURN_IF_ERROR(w.WriteThreadBlock(std::vector<ThreadInfo>{Thread(1, 101, "main"), Thread(2, 102, "worker")}));
  NETTRACE_RETURN_IF_ERROR(w.WriteStackBlock(1, std::vector<std::vector<uint8_t>>{
                                                    {0x10, 0, 0, 0, 0, 0, 0, 0, 0x20, 0, 0, 0, 0, 0, 0, 0}, {}}));
  std::vector<LabelList> lists = {
      {{MakeLabel(LabelKind::kActivityId, 1), MakeLabel(LabelKind::kRelatedActivityId, 2)}},
      {{MakeLabel(LabelKind::kTraceId, 3), MakeLabel(LabelKind::kSpanId, 4), MakeLabel(LabelKind::kStringKeyValue, 5)}},
      {{MakeLabel(LabelKind::kIntKeyValue, 6), MakeLabel(LabelKind::kOpCode, 7), MakeLabel(LabelKind::kKeywords, 8),
        MakeLabel(LabelKind::kLevel, 2), MakeLabel(LabelKind::kVersion, 3)}}};
  NETTRACE_RETURN_IF_ERROR(w.WriteLabelListBlock(1, lists));

  PayloadBuilder p1;
  p1.AppendBool32(true).AppendUtf16CodeUnit(u'x').AppendI8(-5).AppendU8(250).AppendI16(-300).AppendU16(60000);
  p1.AppendI32(-7).AppendU32(7).AppendI64(-1).AppendU64(1).AppendF32(1.5f).AppendF64(2.25);
  p1.AppendDateTime({2025, 2, 1, 3, 4, 5, 6, 7}).AppendGuid(MakeGuid(1)).AppendNullTerminatedUtf16("h\xC3\xA9llo");
  p1.AppendVarInt(-3).AppendVarUInt(300).AppendUtf8CodeUnit('A').AppendBool8(false);
  PayloadBuilder p2;
  p2.AppendArrayCount(2).AppendI32(1).AppendI32(2).AppendUtf16CodeUnit(u'a').AppendUtf16CodeUnit(u'b');
  p2.AppendLocation(4, 5).AppendVarInt(5).AppendUtf8Array("hi").AppendI32(42);  // RelLoc: 5 bytes on
  if (!p1.ok() || !p2.ok()) return Status::Error(ErrorCode::kInvalidArgument, kNoOffset, "seed payloads");
  Events ev;
  ev.Add(1, 1, 2000, p1.bytes(), 1, 1);
  ev.Add(2, 2, 2010, p2.bytes(), 2, 2);
  ev.Add(3, 1, 2020, {}, 0, 3);
  NETTRACE_RETURN_IF_ERROR(w.WriteEventBlock(ev.records(), /*compressed=*/true));
  ev.Clear();
  ev.Add(3, 2, 2030, {1, 2, 3});
  ev.Add(1, 1, 2040, p1.bytes(), 1);
  NETTRACE_RETURN_IF_ERROR(w.WriteEventBlock(ev.records(), /*compressed=*/false));
  NETTRACE_RETURN_IF_ERROR(w.WriteSequencePointBlock({2050, kSequencePointFlushThreads | kSequencePointFlushMetadata,
                                                      {{1, 3}, {2, 2}}}));
  NETTRACE_RETURN_IF_ERROR(w.WriteRemoveThreadBlock(std::vector<ThreadSequence>{{2, 2}}));
  NETTRACE_RETURN_IF_ERROR(w.WriteEndOfStream());
  *out = std::move(w.bytes());
  return Status::Ok();
}

// The content of the runtime seeds, for both writers: CLR runtime events (manifest
// templates), sample-profiler samples whose stacks fall in JIT'd methods, an allocation,
// an exception, a GC and a rundown method. Threads are `a` and `b` (v6 thread indexes,
// v4/v5 OS thread ids).
struct RuntimeContent {
  std::vector<EventMetadata> metadata = {
      Meta(1, kRuntime, 143, "", 1), Meta(2, kSampleProfiler, 0, "ThreadSample"), Meta(3, kRuntime, 10, "", 4),
      Meta(4, kRuntime, 80, "", 1),  Meta(5, kRuntime, 1, "", 2),                  Meta(6, kRundown, 144, "", 1)};
  std::vector<std::vector<uint8_t>> stacks;
  Events events;

  RuntimeContent(uint32_t pointerSize, uint64_t a, uint64_t b) {
    // Three methods at 0x1000, 0x2000, 0x3000 (0x100 bytes each); stacks are leaf first.
    for (const std::vector<uint64_t>& ips : std::vector<std::vector<uint64_t>>{
             {0x1010, 0x2020, 0x3030}, {0x2040, 0x3030}, {0x9999, 0x1010, 0x3030}, {0x3000}}) {
      stacks.push_back(StackBytes(ips, pointerSize));
    }
    const char* names[] = {"Main", "Work", "Helper"};
    for (uint32_t m = 0; m < 3; ++m)
      events.Add(1, a, 1100 + m,
                 ClrPayload(clr::Provider::kRuntime, 143, 1, pointerSize,
                            {{"MethodID", 0x500 + m}, {"MethodStartAddress", 0x1000 * (m + 1)}, {"MethodSize", 0x100}},
                            {{"MethodNamespace", "Fuzz.App"}, {"MethodName", names[m]}, {"MethodSignature", "void ()"}}));
    for (uint64_t t = 0; t < 40; ++t)
      events.Add(2, t % 2 ? b : a, 1200 + 10 * t, PayloadBuilder().AppendU32(t % 5 == 0 ? 1 : 2).bytes(),
                 static_cast<uint32_t>(1 + t % 4));
    events.Add(3, a, 1700,
               ClrPayload(clr::Provider::kRuntime, 10, 4, pointerSize,
                          {{"AllocationAmount", 100000}, {"AllocationAmount64", 100000}}, {{"TypeName", "System.String"}}),
               2);
    events.Add(4, b, 1710, ClrPayload(clr::Provider::kRuntime, 80, 1, pointerSize, {{"ExceptionHRESULT", 0x80131500}},
                                      {{"ExceptionType", "System.InvalidOperationException"}, {"ExceptionMessage", "boom"}}));
    events.Add(5, a, 1720, ClrPayload(clr::Provider::kRuntime, 1, 2, pointerSize, {{"Count", 1}, {"Depth", 2}}));
    events.Add(6, b, 1730,
               ClrPayload(clr::Provider::kRundown, 144, 1, pointerSize, {{"MethodStartAddress", 0x3000}, {"MethodSize", 0x80}},
                          {{"MethodName", "Rundown"}}));
  }
};

Status RuntimeV6(uint32_t pointerSize, bool compressed, std::vector<uint8_t>* out) {
  NetTraceV6Writer w;
  RuntimeContent c(pointerSize, 1, 2);
  NETTRACE_RETURN_IF_ERROR(w.WriteTraceBlock(Info(pointerSize)));
  NETTRACE_RETURN_IF_ERROR(w.WriteMetadataBlock(c.metadata));
  NETTRACE_RETURN_IF_ERROR(w.WriteThreadBlock(std::vector<ThreadInfo>{Thread(1, 501, "main"), Thread(2, 502, "")}));
  NETTRACE_RETURN_IF_ERROR(w.WriteStackBlock(1, c.stacks));
  NETTRACE_RETURN_IF_ERROR(w.WriteEvents(c.events.records(), compressed, 300));
  NETTRACE_RETURN_IF_ERROR(w.WriteSequencePointBlock({1800, 0, {{1, 24}, {2, 24}}}));
  NETTRACE_RETURN_IF_ERROR(w.WriteEndOfStream());
  *out = std::move(w.bytes());
  return Status::Ok();
}

// The same in NetTrace v4/v5 (FastSerialization objects), plus an EventSource event with
// V1 fields and, in v5, one whose fields come as a V2Params tag (arrays), and activity
// ids. (No unknown object type: the reader rightly stops there, and the seed must read
// completely for the converter's checks.)
Status RuntimeV5(NetTraceV5Writer::Version version, uint32_t pointerSize, bool compressed, std::vector<uint8_t>* out) {
  NetTraceV5Writer w(version);
  RuntimeContent c(pointerSize, 501, 502);
  TraceInfo info = Info(pointerSize);
  info.keyValues.clear();  // v6 only
  NETTRACE_RETURN_IF_ERROR(w.WriteTraceObject(info));
  c.metadata.push_back(Meta(7, "Fuzz.EventSource", 1, "Scalars", 1,
                            {Field("n", Scalar(TypeCode::kInt32)), Field("s", Scalar(TypeCode::kNullTerminatedUTF16String))}));
  if (version == NetTraceV5Writer::Version::kV5) {
    EventMetadata arrays = Meta(8, "Fuzz.EventSource", 2, "Arrays", 1, {Field("ints", ArrayOf(Scalar(TypeCode::kInt32)))});
    arrays.fieldsFromV2Params = true, arrays.opcode = 1;
    c.metadata.push_back(arrays);
    c.events.Add(8, 501, 1740, PayloadBuilder().AppendArrayCount(2).AppendI32(3).AppendI32(4).bytes());
  }
  c.events.Add(7, 501, 1750, PayloadBuilder().AppendI32(7).AppendNullTerminatedUtf16("seven").bytes())
      .activityId = MakeGuid(3);
  NETTRACE_RETURN_IF_ERROR(w.WriteMetadataBlock(c.metadata, compressed));
  NETTRACE_RETURN_IF_ERROR(w.WriteStackBlock(1, c.stacks));
  NETTRACE_RETURN_IF_ERROR(w.WriteEvents(c.events.records(), compressed, 300));
  NETTRACE_RETURN_IF_ERROR(w.WriteSequencePointBlock({1800, 0, {{501, 25}, {502, 23}}}));
  NETTRACE_RETURN_IF_ERROR(w.WriteEndOfStream());
  *out = std::move(w.bytes());
  return Status::Ok();
}

}  // namespace

Status WriterSeedTraces(std::vector<SeedTrace>* out) {
  SeedTrace t;
  NETTRACE_RETURN_IF_ERROR(AllBlocks(&t.bytes));
  out->push_back({"writer-v6-all-blocks", std::move(t.bytes)});
  NETTRACE_RETURN_IF_ERROR(RuntimeV6(8, true, &t.bytes));
  out->push_back({"writer-v6-runtime-ptr8-compressed", std::move(t.bytes)});
  NETTRACE_RETURN_IF_ERROR(RuntimeV6(4, false, &t.bytes));
  out->push_back({"writer-v6-runtime-ptr4-uncompressed", std::move(t.bytes)});
  NETTRACE_RETURN_IF_ERROR(WriteSampleUniversalTrace(&t.bytes));
  out->push_back({"writer-v6-universal", std::move(t.bytes)});
  NETTRACE_RETURN_IF_ERROR(RuntimeV5(NetTraceV5Writer::Version::kV5, 8, true, &t.bytes));
  out->push_back({"writer-v5-runtime-ptr8-compressed", std::move(t.bytes)});
  NETTRACE_RETURN_IF_ERROR(RuntimeV5(NetTraceV5Writer::Version::kV4, 4, false, &t.bytes));
  out->push_back({"writer-v4-runtime-ptr4-uncompressed", std::move(t.bytes)});
  // The extreme shapes (tests/shapes), small: mutations of them reach reused code ranges,
  // unmarked regions, deep stacks, many types and threads, and over-deep nesting.
  for (const shapes::ShapeInfo& shape : shapes::AllShapes()) {
    NETTRACE_RETURN_IF_ERROR(shapes::WriteShape(shape.shape, shape.seedSize, &t.bytes));
    out->push_back({std::string("shape-") + shape.name, std::move(t.bytes)});
  }
  return Status::Ok();
}

}  // namespace nettrace::fuzz
