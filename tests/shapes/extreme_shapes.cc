#include "shapes/extreme_shapes.h"

#include <algorithm>

#include "shapes/trace_parts.h"
#include "write/field_types.h"
#include "write/nettrace_writer.h"
#include "write/payload_builder.h"
#include "write/wire.h"

namespace nettrace::shapes {
namespace {

constexpr uint32_t kPointer = 8;
// Rows per metadata or thread block: each block's content stays far below 16 MiB.
constexpr size_t kRowsPerBlock = 8192;

Status Begin(NetTraceV6Writer& w) { return w.WriteTraceBlock(Info(kPointer)); }

// The last sequence point (threads seen so far) and the end of the stream.
Status End(NetTraceV6Writer& w, uint64_t timestamp, std::vector<uint8_t>* out) {
  NETTRACE_RETURN_IF_ERROR(w.WriteSequencePointBlock({timestamp, 0, {}}));
  NETTRACE_RETURN_IF_ERROR(w.WriteEndOfStream());
  *out = std::move(w.bytes());
  return Status::Ok();
}

std::vector<uint8_t> MethodEvent(uint32_t id, uint64_t methodId, uint64_t start, uint64_t size, uint64_t flags,
                                 const std::string& name) {
  return ClrPayload(clr::Provider::kRuntime, id, 1, kPointer,
                    {{"MethodID", methodId}, {"ModuleID", 0x7000}, {"MethodStartAddress", start}, {"MethodSize", size},
                     {"MethodFlags", flags}},
                    {{"MethodNamespace", "Shapes.Generated"}, {"MethodName", name}, {"MethodSignature", "void ()"}});
}

std::vector<uint8_t> Utf16Payload(const std::string& text) { return PayloadBuilder().AppendNullTerminatedUtf16(text).bytes(); }

// A resident caller at 0x20000 (Main) and, one after the other, n dynamic methods in the one
// code range 0x10000..0x11000 (MethodFlags Dynamic | Jitted), each sampled once while alive.
Status OverlappingMethods(size_t n, std::vector<uint8_t>* out) {
  NetTraceV6Writer w;
  NETTRACE_RETURN_IF_ERROR(Begin(w));
  NETTRACE_RETURN_IF_ERROR(w.WriteMetadataBlock(std::vector<EventMetadata>{
      Meta(1, kRuntime, 143, "", 1), Meta(2, kRuntime, 144, "", 1), Meta(3, kSampleProfiler, 0, "ThreadSample")}));
  NETTRACE_RETURN_IF_ERROR(w.WriteThreadBlock(std::vector<ThreadInfo>{Thread(1, 501, "main")}));
  constexpr uint64_t kRange = 0x10000, kMain = 0x20000;
  std::vector<std::vector<uint8_t>> stacks;
  for (uint64_t k = 0; k < 64; ++k) stacks.push_back(StackBytes(std::vector<uint64_t>{kRange + 16 * k, kMain + 0x10}, kPointer));
  NETTRACE_RETURN_IF_ERROR(w.WriteStackBlock(1, stacks));
  Events ev;
  ev.Add(1, 1, 100, MethodEvent(143, 0x500, kMain, 0x100, 0x8, "Main"));
  for (size_t i = 0; i < n; ++i) {
    const uint64_t t = 200 + 10 * i, id = 0x100000 + i;
    const std::string name = "Lambda" + std::to_string(i);
    ev.Add(1, 1, t, MethodEvent(143, id, kRange, 0x1000, 0x9, name));
    ev.Add(3, 1, t + 5, PayloadBuilder().AppendU32(2).bytes(), static_cast<uint32_t>(1 + i % 64));
    ev.Add(2, 1, t + 8, MethodEvent(144, id, kRange, 0x1000, 0x9, name));
  }
  NETTRACE_RETURN_IF_ERROR(w.WriteEvents(ev.records(), true));
  return End(w, 200 + 10 * n, out);
}

// n bodiless events, none marked sorted, and no sequence point before the end.
Status NoSequencePoints(size_t n, std::vector<uint8_t>* out) {
  NetTraceV6Writer w;
  NETTRACE_RETURN_IF_ERROR(Begin(w));
  NETTRACE_RETURN_IF_ERROR(w.WriteMetadataBlock(std::vector<EventMetadata>{Meta(1, "Shapes.Flood", 1, "Tick")}));
  std::vector<ThreadInfo> threads;
  for (uint64_t t = 1; t <= 4; ++t) threads.push_back(Thread(t, 500 + t, "flood"));
  NETTRACE_RETURN_IF_ERROR(w.WriteThreadBlock(threads));
  // Each thread writes 256 events at a time (a thread's buffer), the four interleaved in time,
  // so only a merge puts them in order; written in batches, so the generator's own memory
  // stays small at any n. About 2 bytes an event (header compression).
  Events ev;
  for (size_t i = 0; i < n; ++i) {
    const uint64_t thread = (i / 256) % 4, j = (i / 1024) * 256 + i % 256;
    ev.Add(1, 1 + thread, 1000 + 4 * j + thread, {});
    if (ev.records().size() == 1 << 16 || i + 1 == n) {
      NETTRACE_RETURN_IF_ERROR(w.WriteEvents(ev.records(), true));
      ev.ClearRecords();
    }
  }
  NETTRACE_RETURN_IF_ERROR(w.WriteEndOfStream());
  *out = std::move(w.bytes());
  return Status::Ok();
}

// 16 methods calling each other round-robin, n frames deep, sampled 4 times.
Status DeepStack(size_t n, std::vector<uint8_t>* out) {
  NetTraceV6Writer w;
  NETTRACE_RETURN_IF_ERROR(Begin(w));
  NETTRACE_RETURN_IF_ERROR(w.WriteMetadataBlock(
      std::vector<EventMetadata>{Meta(1, kRuntime, 143, "", 1), Meta(2, kSampleProfiler, 0, "ThreadSample")}));
  NETTRACE_RETURN_IF_ERROR(w.WriteThreadBlock(std::vector<ThreadInfo>{Thread(1, 501, "main")}));
  std::vector<uint64_t> ips(n);
  for (size_t j = 0; j < n; ++j) ips[j] = 0x10000 + 0x1000 * (j % 16) + 0x10 * ((j / 16) % 64);
  NETTRACE_RETURN_IF_ERROR(w.WriteStackBlock(1, std::vector<std::vector<uint8_t>>{StackBytes(ips, kPointer)}));
  Events ev;
  for (uint64_t m = 0; m < 16; ++m)
    ev.Add(1, 1, 100 + m, MethodEvent(143, 0x500 + m, 0x10000 + 0x1000 * m, 0x1000, 0x8, "Recurse" + std::to_string(m)));
  for (uint64_t s = 0; s < 4; ++s) ev.Add(2, 1, 200 + s, PayloadBuilder().AppendU32(2).bytes(), 1);
  NETTRACE_RETURN_IF_ERROR(w.WriteEvents(ev.records(), true));
  return End(w, 300, out);
}

// n event types of one provider, one event each whose string field says "needle <i>".
Status ManyTypes(size_t n, std::vector<uint8_t>* out) {
  NetTraceV6Writer w;
  NETTRACE_RETURN_IF_ERROR(Begin(w));
  NETTRACE_RETURN_IF_ERROR(w.WriteThreadBlock(std::vector<ThreadInfo>{Thread(1, 501, "main")}));
  std::vector<EventMetadata> rows;
  for (size_t i = 0; i < n; ++i) {
    rows.push_back(Meta(static_cast<uint32_t>(i + 1), "Shapes.Types", static_cast<uint32_t>(i + 1), "Type" + std::to_string(i),
                        0, {Field("text", Scalar(TypeCode::kNullTerminatedUTF16String))}));
    if (rows.size() == kRowsPerBlock || i + 1 == n) {
      NETTRACE_RETURN_IF_ERROR(w.WriteMetadataBlock(rows));
      rows.clear();
    }
  }
  // Small event blocks (a few events each, as from many threads' buffers): a text search
  // then takes many steps, each asking for the payloads of at most 32 blocks.
  Events ev;
  for (size_t i = 0; i < n; ++i) ev.Add(static_cast<uint32_t>(i + 1), 1, 1000 + i, Utf16Payload("needle " + std::to_string(i)));
  NETTRACE_RETURN_IF_ERROR(w.WriteEvents(ev.records(), true, 128));
  return End(w, 1000 + n, out);
}

// n threads, one event on each.
Status ManyThreads(size_t n, std::vector<uint8_t>* out) {
  NetTraceV6Writer w;
  NETTRACE_RETURN_IF_ERROR(Begin(w));
  NETTRACE_RETURN_IF_ERROR(w.WriteMetadataBlock(std::vector<EventMetadata>{Meta(1, "Shapes.Threads", 1, "Hello")}));
  std::vector<ThreadInfo> threads;
  for (size_t t = 1; t <= n; ++t) {
    threads.push_back(Thread(t, 100000 + t, ""));
    threads.back().name.reset();
    if (threads.size() == kRowsPerBlock || t == n) {
      NETTRACE_RETURN_IF_ERROR(w.WriteThreadBlock(threads));
      threads.clear();
    }
  }
  Events ev;
  for (size_t t = 1; t <= n; ++t) ev.Add(1, t, 1000 + t, {});
  NETTRACE_RETURN_IF_ERROR(w.WriteEvents(ev.records(), true));
  return End(w, 1000 + n + 1, out);
}

// §MetadataBlock row by hand: the writer refuses types nested deeper than the reader reads
// (kMaxTypeDepth), and this shape is about a reader meeting one. Object fields nest `depth`
// levels around one Int32.
std::vector<uint8_t> DeepMetadataRow(uint32_t id, size_t depth) {
  auto field = [](const std::string& name, const std::vector<uint8_t>& type) {
    std::vector<uint8_t> f;
    wire::PutU16(f, 0);
    wire::PutString(f, name);
    wire::PutBytes(f, type);
    wire::PatchU16(f, 0, static_cast<uint16_t>(f.size() - 2));
    return f;
  };
  std::vector<uint8_t> type = {static_cast<uint8_t>(TypeCode::kInt32)};
  for (size_t level = 0; level < depth; ++level) {
    std::vector<uint8_t> object = {static_cast<uint8_t>(TypeCode::kObject)};
    wire::PutU16(object, 1);
    wire::PutBytes(object, field("level" + std::to_string(level), type));
    type = std::move(object);
  }
  std::vector<uint8_t> row;
  wire::PutU16(row, 0);
  wire::PutVarUInt(row, id);
  wire::PutString(row, "Shapes.Nesting");
  wire::PutVarUInt(row, 1);
  wire::PutString(row, "Deep");
  wire::PutU16(row, 1);
  wire::PutBytes(row, field("root", type));
  wire::PutU16(row, 0);  // no optional metadata
  wire::PatchU16(row, 0, static_cast<uint16_t>(row.size() - 2));
  return row;
}

// One type nested `depth` Objects deep and an ordinary one, 4 events of each.
Status DeepNesting(size_t depth, std::vector<uint8_t>* out) {
  NetTraceV6Writer w;
  NETTRACE_RETURN_IF_ERROR(Begin(w));
  std::vector<uint8_t> block;
  wire::PutU16(block, 0);  // §MetadataBlock HeaderSize
  wire::PutBytes(block, DeepMetadataRow(1, depth));
  NETTRACE_RETURN_IF_ERROR(w.WriteRawBlock(static_cast<uint8_t>(BlockKind::kMetadata), block));
  NETTRACE_RETURN_IF_ERROR(w.WriteMetadataBlock(std::vector<EventMetadata>{
      Meta(2, "Shapes.Nesting", 2, "Flat", 0, {Field("value", Scalar(TypeCode::kInt32))})}));
  NETTRACE_RETURN_IF_ERROR(w.WriteThreadBlock(std::vector<ThreadInfo>{Thread(1, 501, "main")}));
  Events ev;
  for (uint64_t i = 0; i < 8; ++i) ev.Add(1 + i % 2, 1, 1000 + i, PayloadBuilder().AppendI32(static_cast<int32_t>(i)).bytes());
  NETTRACE_RETURN_IF_ERROR(w.WriteEvents(ev.records(), true));
  return End(w, 2000, out);
}

}  // namespace

const std::vector<ShapeInfo>& AllShapes() {
  static const std::vector<ShapeInfo> shapes = {
      {Shape::kOverlappingMethods, "overlapping-methods", 4000, 20, "lambda"},
      {Shape::kNoSequencePoints, "no-sequence-points", 250000, 200, "tick"},
      {Shape::kDeepStack, "deep-stack", 125000, 200, "sample"},
      {Shape::kManyTypes, "many-types", 10000, 20, "needle"},
      {Shape::kManyThreads, "many-threads", 70000, 20, "hello"},
      {Shape::kDeepNesting, "deep-nesting", 40, 40, "flat"},
  };
  return shapes;
}

Status WriteShape(Shape shape, size_t n, std::vector<uint8_t>* out) {
  switch (shape) {
    case Shape::kOverlappingMethods: return OverlappingMethods(n, out);
    case Shape::kNoSequencePoints: return NoSequencePoints(n, out);
    case Shape::kDeepStack: return DeepStack(n, out);
    case Shape::kManyTypes: return ManyTypes(n, out);
    case Shape::kManyThreads: return ManyThreads(n, out);
    case Shape::kDeepNesting: return DeepNesting(n, out);
  }
  return Status::Error(ErrorCode::kInvalidArgument, kNoOffset, "unknown shape");
}

}  // namespace nettrace::shapes
