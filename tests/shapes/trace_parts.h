// tests/shapes — the small pieces every writer-made test trace is built from: metadata rows,
// thread rows, event records that own their payloads, CLR payloads in their manifest layout
// (format/clr_events.generated.h), and a trace block. Shared by the fuzzers' seed traces
// (tests/fuzz/seed_traces.cc) and the extreme shapes (extreme_shapes.h).
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "format/clr_events.generated.h"
#include "format/records.h"

namespace nettrace::shapes {

inline constexpr const char* kRuntime = "Microsoft-Windows-DotNETRuntime";
inline constexpr const char* kRundown = "Microsoft-Windows-DotNETRuntimeRundown";
inline constexpr const char* kSampleProfiler = "Microsoft-DotNETCore-SampleProfiler";

Guid MakeGuid(uint8_t seed);

EventMetadata Meta(uint32_t id, std::string provider, uint32_t eventId, std::string name, uint32_t version = 0,
                   std::vector<FieldDescription> fields = {});

ThreadInfo Thread(uint64_t index, uint64_t osThreadId, std::string name);

// A trace block of process 4242 on 4 processors, 10 MHz ticks.
TraceInfo Info(uint32_t pointerSize);

// Owns payload bytes for EventRecord spans until the block is written.
class Events {
 public:
  EventRecord& Add(uint32_t meta, uint64_t thread, uint64_t ts, std::vector<uint8_t> payload, uint32_t stack = 0,
                   uint32_t labels = 0);
  std::span<const EventRecord> records() const { return records_; }
  // Forgets the records (their payloads stay owned: records already written may point at them).
  void Clear() { records_.clear(); }
  // Forgets the records and their payloads, once written.
  void ClearRecords() {
    records_.clear();
    payloads_.clear();
  }

 private:
  std::deque<std::vector<uint8_t>> payloads_;
  std::vector<EventRecord> records_;
  std::map<uint64_t, uint32_t> sequence_;
};

// A CLR event's payload in its manifest layout; numbers and strings by field name,
// everything else zero. Templates with structs or binary fields are not used.
std::vector<uint8_t> ClrPayload(clr::Provider provider, uint32_t id, uint32_t version, uint32_t pointerSize,
                                const std::map<std::string, uint64_t>& numbers,
                                const std::map<std::string, std::string>& strings = {});

// A stack's bytes: the addresses leaf first, each in `pointerSize` little-endian bytes.
std::vector<uint8_t> StackBytes(std::span<const uint64_t> ips, uint32_t pointerSize);

}  // namespace nettrace::shapes
