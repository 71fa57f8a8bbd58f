#include "write/warm_up_trace.h"

#include <cstring>
#include <string>
#include <string_view>

#include "write/nettrace_v5_writer.h"

namespace nettrace {

namespace {

constexpr uint32_t kThreads = 4;
constexpr uint32_t kSamplesPerThread = 2000;
constexpr uint32_t kMethods = 600;
constexpr uint64_t kCodeBase = 0x7ff000000000, kMethodBytes = 0x100;

enum Meta : uint32_t { kSample = 1, kAllocTick, kGcStart, kGcStop, kHeapStats, kSuspend, kRestart, kMethodLoad, kRundown };

EventMetadata Metadata(uint32_t id, std::string_view provider, uint32_t eventId, uint32_t version) {
  EventMetadata m;
  m.id = id, m.providerName = provider, m.eventId = eventId, m.version = version;
  return m;
}

// Little-endian payload fields, as the manifest's templates lay them out.
class Bytes {
 public:
  Bytes& U16(uint16_t v) { return Raw(&v, 2); }
  Bytes& U32(uint32_t v) { return Raw(&v, 4); }
  Bytes& U64(uint64_t v) { return Raw(&v, 8); }
  Bytes& Utf16(std::string_view ascii) {
    for (char c : ascii) U16(static_cast<uint8_t>(c));
    return U16(0);
  }
  std::vector<uint8_t> Take() { return std::move(bytes_); }

 private:
  Bytes& Raw(const void* p, size_t n) {
    const size_t at = bytes_.size();
    bytes_.resize(at + n);
    std::memcpy(bytes_.data() + at, p, n);
    return *this;
  }
  std::vector<uint8_t> bytes_;
};

// MethodLoadVerbose (V1) and MethodDCEndVerbose (V1): ids, range, token, flags, names.
std::vector<uint8_t> MethodPayload(uint32_t i, uint32_t flags) {
  const std::string name = "Method" + std::to_string(i);
  return Bytes()
      .U64(0x1000 + i)
      .U64(0x2000)
      .U64(kCodeBase + i * kMethodBytes)
      .U32(kMethodBytes)
      .U32(0x06000000 + i)
      .U32(flags)
      .Utf16("WarmUp.Program")
      .Utf16(name)
      .Utf16("void  (int32)")
      .U16(0)
      .Take();
}

}  // namespace

Status WriteWarmUpTrace(std::vector<uint8_t>* out) {
  NetTraceV5Writer w;
  TraceInfo info;
  info.syncTimeUtc = {2026, 1, 1, 0, 0, 0, 0, 0};
  info.tickFrequency = 10000000, info.pointerSize = 8, info.processId = 1, info.numberOfProcessors = 4;
  info.expectedCpuSamplingRate = 10000;
  const char* runtime = "Microsoft-Windows-DotNETRuntime";
  const std::vector<EventMetadata> metadata = {
      Metadata(kSample, "Microsoft-DotNETCore-SampleProfiler", 0, 0), Metadata(kAllocTick, runtime, 10, 2),
      Metadata(kGcStart, runtime, 1, 2),       Metadata(kGcStop, runtime, 2, 1), Metadata(kHeapStats, runtime, 4, 1),
      Metadata(kSuspend, runtime, 9, 1),       Metadata(kRestart, runtime, 3, 1),
      Metadata(kMethodLoad, runtime, 143, 1),  Metadata(kRundown, "Microsoft-Windows-DotNETRuntimeRundown", 144, 1)};
  Status s = w.WriteTraceObject(info);
  if (s.ok()) s = w.WriteMetadataBlock(metadata);
  // Stacks three to six frames deep through the methods, leaf first.
  std::vector<std::vector<uint8_t>> stacks;
  for (uint32_t k = 0; k < 64; ++k) {
    Bytes b;
    for (uint32_t d = 0; d < 3 + k % 4; ++d) b.U64(kCodeBase + ((k * 7 + d * 13) % kMethods) * kMethodBytes + 0x10);
    stacks.push_back(b.Take());
  }
  if (s.ok()) s = w.WriteStackBlock(1, stacks);
  // Payloads outlive the records that point into them.
  std::vector<std::vector<uint8_t>> payloads;
  payloads.reserve(kThreads * kSamplesPerThread / 4 + 2 * kMethods + 64);
  const std::vector<uint8_t> managedSample = Bytes().U32(2).Take();
  std::vector<EventRecord> events;
  uint32_t sequence[kThreads + 1] = {};
  auto add = [&](uint32_t meta, uint32_t thread, uint64_t time, uint32_t stack, std::span<const uint8_t> payload) {
    EventRecord e;
    e.metadataId = meta, e.thread = e.captureThread = 100 + thread, e.sequenceNumber = ++sequence[thread];
    e.timestamp = time, e.stackId = stack, e.processorNumber = thread, e.payload = payload;
    events.push_back(e);
  };
  for (uint32_t i = 0; i < kMethods / 2; ++i)
    add(kMethodLoad, 0, 1000 + i, 0, payloads.emplace_back(MethodPayload(i, 0x8)));
  for (uint32_t n = 0; n < kSamplesPerThread; ++n) {
    const uint64_t t = 10000 + uint64_t{n} * 10000;
    for (uint32_t thread = 0; thread < kThreads; ++thread)
      add(kSample, thread, t + thread, 1 + (n + thread) % 64, managedSample);
    if (n % 4 == 0) {
      payloads.push_back(
          Bytes().U32(100000).U32(0).U16(0).U64(100000).U64(0x5000 + n % 8).Utf16("System.String").U32(0).Take());
      add(kAllocTick, n % kThreads, t + 5, 1 + n % 64, payloads.back());
    }
    if (n % 200 == 100) {  // a GC: suspend, start, stop, restart on thread 0
      add(kSuspend, 0, t + 6, 0, payloads.emplace_back(Bytes().U32(1).U32(n).U16(0).Take()));
      add(kGcStart, 0, t + 7, 0, payloads.emplace_back(Bytes().U32(n / 200).U32(0).U32(0).U32(0).U16(0).U64(0).Take()));
      add(kGcStop, 0, t + 8, 0, payloads.emplace_back(Bytes().U32(n / 200).U32(0).U16(0).Take()));
      Bytes heap;  // GCHeapStats V1: sizes and promoted bytes, then counts (a GC ends with it)
      for (int k = 0; k < 10; ++k) heap.U64(1 << 20);
      payloads.push_back(heap.U32(0).U32(0).U32(0).U16(0).Take());
      add(kHeapStats, 0, t + 8, 0, payloads.back());
      add(kRestart, 0, t + 9, 0, payloads.emplace_back(Bytes().U16(0).Take()));
    }
  }
  const uint64_t end = 10000 + uint64_t{kSamplesPerThread} * 10000;
  for (uint32_t i = 0; i < kMethods; ++i) add(kRundown, 0, end + i, 0, payloads.emplace_back(MethodPayload(i, 0)));
  if (s.ok()) s = w.WriteEvents(events, /*compressed=*/true);
  if (s.ok()) s = w.WriteEndOfStream();
  if (s.ok()) *out = w.TakeBytes();
  return s;
}

}  // namespace nettrace
