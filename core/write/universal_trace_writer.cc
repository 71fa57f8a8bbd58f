#include "write/universal_trace_writer.h"

#include <algorithm>

#include "write/field_types.h"
#include "write/nettrace_writer.h"
#include "write/payload_builder.h"

namespace nettrace {

namespace {

FieldDescription VarUInt(const char* name) { return Field(name, Scalar(TypeCode::kVarUInt)); }
// collect-linux's strings: a uint16 length, then UTF-8 code units.
FieldDescription Utf8(const char* name) { return Field(name, ArrayOf(Scalar(TypeCode::kUTF8CodeUnit))); }

EventMetadata Meta(uint32_t id, const char* provider, uint32_t eventId, const char* name,
                   std::vector<FieldDescription> fields) {
  EventMetadata m;
  m.id = id, m.providerName = provider, m.eventId = eventId, m.eventName = name;
  m.fields = std::move(fields);
  return m;
}

}  // namespace

UniversalTraceWriter::UniversalTraceWriter(uint32_t pointerSize, int64_t tickFrequency)
    : pointerSize_(pointerSize), tickFrequency_(tickFrequency) {}

std::vector<EventMetadata> UniversalTraceWriter::UniversalMetadata() const {
  const char* sys = "Universal.System";
  const char* ev = "Universal.Events";
  auto process = [&] { return std::vector<FieldDescription>{VarUInt("NamespaceId"), Utf8("Name"), Utf8("NamespaceName")}; };
  return {
      Meta(kExistingProcess, sys, 0, "ExistingProcess", process()),
      Meta(kProcessCreate, sys, 1, "ProcessCreate", process()),
      Meta(kProcessExit, sys, 2, "ProcessExit", {}),
      Meta(kProcessMapping, sys, 3, "ProcessMapping",
           {VarUInt("Id"), VarUInt("StartAddress"), VarUInt("EndAddress"), VarUInt("FileOffset"), Utf8("FileName"),
            VarUInt("MetadataId")}),
      Meta(kProcessSymbol, sys, 4, "ProcessSymbol",
           {VarUInt("Id"), VarUInt("MappingId"), VarUInt("StartAddress"), VarUInt("EndAddress"), Utf8("Name")}),
      Meta(kProcessMappingMetadata, sys, 5, "ProcessMappingMetadata",
           {VarUInt("Id"), Utf8("SymbolMetadata"), Utf8("VersionMetadata")}),
      Meta(kCpu, ev, 1, "cpu", {VarUInt("Value")}),
      Meta(kCswitch, ev, 2, "cswitch", {VarUInt("Value")}),
  };
}

void UniversalTraceWriter::AddThread(uint64_t index, uint64_t pid, uint64_t tid, const std::string& name) {
  ThreadInfo t;
  t.index = index, t.osProcessId = pid, t.osThreadId = tid;
  if (!name.empty()) t.name = name;
  threads_.push_back(std::move(t));
}

uint32_t UniversalTraceWriter::AddStack(std::span<const uint64_t> ipsLeafFirst) {
  std::vector<uint8_t> bytes;
  for (uint64_t ip : ipsLeafFirst)
    for (uint32_t k = 0; k < pointerSize_ && k < 8; ++k) bytes.push_back(static_cast<uint8_t>(ip >> (8 * k)));
  stacks_.push_back(std::move(bytes));
  return static_cast<uint32_t>(stacks_.size());
}

void UniversalTraceWriter::AddEvent(uint32_t metadataId, uint64_t ts, uint64_t thread, uint32_t stackId,
                                    std::vector<uint8_t> payload) {
  auto seq = std::find_if(sequence_.begin(), sequence_.end(), [&](const auto& s) { return s.first == thread; });
  if (seq == sequence_.end()) seq = sequence_.insert(sequence_.end(), {thread, 0});
  payloads_.push_back(std::move(payload));
  EventRecord e;
  e.metadataId = metadataId, e.timestamp = ts, e.thread = thread, e.captureThread = thread;
  e.sequenceNumber = ++seq->second, e.stackId = stackId;
  e.payload = payloads_.back();
  events_.push_back(e);
}

void UniversalTraceWriter::ExistingProcess(uint64_t ts, uint64_t thread, const std::string& name,
                                           uint64_t namespaceId, const std::string& namespaceName) {
  AddEvent(kExistingProcess, ts, thread, 0,
           PayloadBuilder().AppendVarUInt(namespaceId).AppendUtf8Array(name).AppendUtf8Array(namespaceName).Take());
}

void UniversalTraceWriter::ProcessCreate(uint64_t ts, uint64_t thread, const std::string& name, uint64_t namespaceId,
                                         const std::string& namespaceName) {
  AddEvent(kProcessCreate, ts, thread, 0,
           PayloadBuilder().AppendVarUInt(namespaceId).AppendUtf8Array(name).AppendUtf8Array(namespaceName).Take());
}

void UniversalTraceWriter::ProcessExit(uint64_t ts, uint64_t thread) { AddEvent(kProcessExit, ts, thread, 0, {}); }

void UniversalTraceWriter::ProcessMapping(uint64_t ts, uint64_t thread, uint64_t id, uint64_t start, uint64_t end,
                                          uint64_t fileOffset, const std::string& fileName, uint64_t metadataId) {
  PayloadBuilder b;
  b.AppendVarUInt(id).AppendVarUInt(start).AppendVarUInt(end).AppendVarUInt(fileOffset);
  b.AppendUtf8Array(fileName).AppendVarUInt(metadataId);
  AddEvent(kProcessMapping, ts, thread, 0, b.Take());
}

void UniversalTraceWriter::ProcessSymbol(uint64_t ts, uint64_t thread, uint64_t id, uint64_t mappingId,
                                         uint64_t start, uint64_t end, const std::string& name) {
  PayloadBuilder b;
  b.AppendVarUInt(id).AppendVarUInt(mappingId).AppendVarUInt(start).AppendVarUInt(end).AppendUtf8Array(name);
  AddEvent(kProcessSymbol, ts, thread, 0, b.Take());
}

void UniversalTraceWriter::ProcessMappingMetadata(uint64_t ts, uint64_t thread, uint64_t id,
                                                  const std::string& symbolMetadata,
                                                  const std::string& versionMetadata) {
  AddEvent(kProcessMappingMetadata, ts, thread, 0,
           PayloadBuilder().AppendVarUInt(id).AppendUtf8Array(symbolMetadata).AppendUtf8Array(versionMetadata).Take());
}

void UniversalTraceWriter::Cpu(uint64_t ts, uint64_t thread, uint64_t value, uint32_t stackId) {
  AddEvent(kCpu, ts, thread, stackId, PayloadBuilder().AppendVarUInt(value).Take());
}

void UniversalTraceWriter::Cswitch(uint64_t ts, uint64_t thread, uint64_t value, uint32_t stackId) {
  AddEvent(kCswitch, ts, thread, stackId, PayloadBuilder().AppendVarUInt(value).Take());
}

Status UniversalTraceWriter::Finish(std::vector<uint8_t>* out) {
  NetTraceV6Writer w;
  TraceInfo info;
  info.syncTimeUtc = {2026, 1, 4, 2, 3, 4, 5, 0};
  info.tickFrequency = tickFrequency_;
  info.pointerSize = pointerSize_;
  Status s = w.WriteTraceBlock(info);
  std::vector<EventMetadata> meta = UniversalMetadata();
  meta.insert(meta.end(), extraMetadata_.begin(), extraMetadata_.end());
  if (s.ok()) s = w.WriteMetadataBlock(meta);
  if (s.ok() && !threads_.empty()) s = w.WriteThreadBlock(threads_);
  if (s.ok() && !stacks_.empty()) s = w.WriteStackBlock(1, stacks_);
  if (s.ok() && !events_.empty()) s = w.WriteEvents(events_, /*compressed=*/true);
  if (s.ok()) s = w.WriteEndOfStream();
  if (s.ok()) *out = w.TakeBytes();
  return s;
}

Status WriteSampleUniversalTrace(std::vector<uint8_t>* out) {
  UniversalTraceWriter w;
  // Process 1000 "dotnet" (threads 1000, 1001), process 2000 "gzip" (thread 2000), in
  // a container namespace; each maps something at 0x400000 (overlapping ranges).
  w.AddThread(1, 1000, 1000, "dotnet");
  w.AddThread(2, 1000, 1001, ".NET TP Worker");
  w.AddThread(3, 2000, 2000, "gzip");
  const uint64_t ms = 1000000;
  w.ExistingProcess(0, 1, "dotnet", 4026531836, "host");
  w.ExistingProcess(0, 3, "gzip", 4026532000, "container-1");
  w.ProcessMappingMetadata(0, 1, 1, R"({"type":"ELF","build_id":"5f0c7c2a9e1d"})", R"({"version":"8.0.0"})");
  w.ProcessMapping(0, 1, 1, 0x400000, 0x410000, 0, "/usr/share/dotnet/dotnet", 1);
  w.ProcessMapping(0, 1, 2, 0x7f0000000000, 0x7f0000100000, 0x2000, "/usr/share/dotnet/libcoreclr.so", 0);
  w.ProcessMapping(0, 1, 3, 0x7e0000000000, 0x7e0000100000, 0, "/memfd:doublemapper (deleted)", 0);
  w.ProcessMapping(0, 3, 4, 0x400000, 0x420000, 0, "/usr/bin/gzip", 0);
  // No symbols for libc: its frames show as mapping+offset.
  w.ProcessMapping(0, 3, 5, 0x7f0000000000, 0x7f0000200000, 0, "/usr/lib/x86_64-linux-gnu/libc.so.6", 0);
  w.ProcessSymbol(0, 1, 1, 1, 0x401000, 0x401100, "main");
  w.ProcessSymbol(0, 1, 2, 2, 0x7f0000001000, 0x7f0000001200, "coreclr_execute_assembly");
  w.ProcessSymbol(0, 1, 3, 3, 0x7e0000001000, 0x7e0000001100,
                  "void [App] Demo.Program::Main(string[])[OptimizedTier1]");
  w.ProcessSymbol(0, 1, 4, 3, 0x7e0000002000, 0x7e0000002080, "int32 [App] Demo.Program::Compute(int32)[Tier0]");
  w.ProcessSymbol(0, 3, 5, 4, 0x401000, 0x402000, "deflate");
  const uint32_t appMain = w.AddStack({0x7e0000002010, 0x7e0000001010, 0x7f0000001010, 0x401010});
  const uint32_t appWait = w.AddStack({0x7f0000050000, 0x7e0000001020, 0x7f0000001010, 0x401010});
  const uint32_t gzip = w.AddStack({0x7f0000000500, 0x401800, 0x400100});
  for (uint64_t i = 0; i < 10; ++i) {
    w.Cpu((i + 1) * ms, 1, ms, appMain);
    w.Cpu((i + 1) * ms + 1, 3, ms, gzip);
  }
  w.Cswitch(11 * ms, 2, 5 * ms, appWait);
  w.Cswitch(12 * ms, 1, 2 * ms, appWait);
  return w.Finish(out);
}

}  // namespace nettrace
