#include "shapes/trace_parts.h"

#include "write/payload_builder.h"

namespace nettrace::shapes {

Guid MakeGuid(uint8_t seed) {
  Guid g;
  for (int i = 0; i < 16; ++i) g.bytes[i] = static_cast<uint8_t>(seed * 16 + i);
  return g;
}

EventMetadata Meta(uint32_t id, std::string provider, uint32_t eventId, std::string name, uint32_t version,
                   std::vector<FieldDescription> fields) {
  EventMetadata m;
  m.id = id, m.providerName = std::move(provider), m.eventId = eventId, m.eventName = std::move(name);
  m.hasVersion = version != 0, m.version = version;
  m.fields = std::move(fields);
  return m;
}

ThreadInfo Thread(uint64_t index, uint64_t osThreadId, std::string name) {
  ThreadInfo t;
  t.index = index, t.osThreadId = osThreadId, t.osProcessId = 4242, t.name = std::move(name);
  return t;
}

TraceInfo Info(uint32_t pointerSize) {
  TraceInfo info;
  info.syncTimeUtc = {2025, 2, 1, 3, 4, 5, 6, 0};
  info.syncTimeTicks = 1000;
  info.tickFrequency = 10'000'000;
  info.pointerSize = pointerSize;
  info.processId = 4242;
  info.numberOfProcessors = 4;
  info.keyValues = {{"OSInformation", "Linux"}, {"ArchInformation", pointerSize == 8 ? "x64" : "x86"}};
  return info;
}

EventRecord& Events::Add(uint32_t meta, uint64_t thread, uint64_t ts, std::vector<uint8_t> payload, uint32_t stack,
                         uint32_t labels) {
  const std::vector<uint8_t>& p = payloads_.emplace_back(std::move(payload));
  EventRecord e;
  e.metadataId = meta, e.thread = thread, e.captureThread = thread, e.timestamp = ts;
  e.sequenceNumber = ++sequence_[thread];
  e.stackId = stack, e.labelListId = labels, e.processorNumber = static_cast<uint32_t>(ts % 4);
  e.payload = std::span<const uint8_t>(p.data(), p.size());
  return records_.emplace_back(e);
}

std::vector<uint8_t> ClrPayload(clr::Provider provider, uint32_t id, uint32_t version, uint32_t pointerSize,
                                const std::map<std::string, uint64_t>& numbers,
                                const std::map<std::string, std::string>& strings) {
  const clr::EventInfo* info = clr::FindEvent(provider, id, version);
  PayloadBuilder p;
  for (uint16_t i = 0; info && i < info->fieldCount; ++i) {
    const clr::Field& f = info->fields[i];
    const auto n = numbers.find(f.name);
    const uint64_t v = n == numbers.end() ? 0 : n->second;
    const auto s = strings.find(f.name);
    const std::string text = s == strings.end() ? "" : s->second;
    using K = clr::FieldKind;
    switch (f.kind) {
      case K::kUInt8: case K::kInt8: p.AppendU8(static_cast<uint8_t>(v)); break;
      case K::kUInt16: case K::kInt16: p.AppendU16(static_cast<uint16_t>(v)); break;
      case K::kUInt32: case K::kInt32: case K::kBool32: case K::kFloat: p.AppendU32(static_cast<uint32_t>(v)); break;
      case K::kUInt64: case K::kInt64: case K::kDouble: case K::kFileTime: p.AppendU64(v); break;
      case K::kPointer: pointerSize == 8 ? p.AppendU64(v) : p.AppendU32(static_cast<uint32_t>(v)); break;
      case K::kGuid: p.AppendGuid(MakeGuid(static_cast<uint8_t>(v))); break;
      case K::kUnicodeString: p.AppendNullTerminatedUtf16(std::string_view(text)); break;
      case K::kAnsiString: p.AppendBytes({reinterpret_cast<const uint8_t*>(text.c_str()), text.size() + 1}); break;
      case K::kSystemTime: p.AppendDateTime({2025, 1, 3, 2, 4, 5, 6, 7}); break;
      case K::kBinary: case K::kStruct: break;
    }
  }
  return p.bytes();
}

std::vector<uint8_t> StackBytes(std::span<const uint64_t> ips, uint32_t pointerSize) {
  std::vector<uint8_t> s;
  s.reserve(ips.size() * pointerSize);
  for (uint64_t v : ips)
    for (uint32_t i = 0; i < pointerSize; ++i) s.push_back(static_cast<uint8_t>(v >> (8 * i)));
  return s;
}

}  // namespace nettrace::shapes
