// Small v6 traces of CLR runtime events for tests that need exact control of threads, time
// order and blocks: the trace block (1 MHz clock, 8-byte pointers, process 42), the runtime
// metadata, one thread block, optionally one stack block, then the events, each given as
// (metadata id, thread index, µs after 1 s, payload, stack id).
#pragma once

#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include "write/nettrace_writer.h"
#include "write/payload_builder.h"

namespace nettrace::test {

// Metadata `id` for Microsoft-Windows-DotNETRuntime's event `eventId` at `version`.
inline EventMetadata RuntimeEventMetadata(uint32_t id, uint32_t eventId, uint32_t version) {
  EventMetadata m;
  m.id = id, m.providerName = "Microsoft-Windows-DotNETRuntime", m.eventId = eventId;
  m.version = version, m.hasVersion = true;
  return m;
}

inline ThreadInfo RuntimeThread(uint64_t index, uint64_t osThreadId, uint64_t osProcessId = 42) {
  ThreadInfo t;
  t.index = index, t.osThreadId = osThreadId, t.osProcessId = osProcessId;
  return t;
}

struct RuntimeTraceEvent {
  uint32_t metadata, thread;
  uint64_t us;
  std::vector<uint8_t> payload;
  uint32_t stack = 0;  // an id of RuntimeTraceOptions::stacks (0: none)
};

struct RuntimeTraceOptions {
  bool isSorted = false;      // every event marked IsSorted
  bool blockPerEvent = false;  // each event its own block (a reader can stop between any two)
  std::vector<std::vector<uint8_t>> stacks;  // one stack block before the events: ids 1, 2, …
};

// The events in the order given; sequence numbers count per thread.
inline std::vector<uint8_t> WriteRuntimeEventsTrace(const std::vector<EventMetadata>& metadata,
                                                    const std::vector<ThreadInfo>& threads,
                                                    const std::vector<RuntimeTraceEvent>& events,
                                                    RuntimeTraceOptions options = {}) {
  NetTraceV6Writer w;
  TraceInfo info;
  info.syncTimeUtc = {2025, 3, 1, 6, 7, 8, 9, 0};
  info.tickFrequency = 1000000, info.pointerSize = 8, info.processId = 42;
  REQUIRE(w.WriteTraceBlock(info).ok());
  REQUIRE(w.WriteMetadataBlock(metadata).ok());
  REQUIRE(w.WriteThreadBlock(threads).ok());
  if (!options.stacks.empty()) REQUIRE(w.WriteStackBlock(1, options.stacks).ok());
  std::vector<EventRecord> records;
  std::vector<uint32_t> sequence;
  for (const RuntimeTraceEvent& x : events) {
    if (sequence.size() <= x.thread) sequence.resize(x.thread + size_t{1});
    EventRecord e;
    e.metadataId = x.metadata, e.thread = e.captureThread = x.thread, e.sequenceNumber = ++sequence[x.thread];
    e.timestamp = 1000000 + x.us, e.isSorted = options.isSorted, e.stackId = x.stack;
    e.payload = x.payload;
    records.push_back(e);
  }
  if (options.blockPerEvent) {
    for (const EventRecord& e : records) REQUIRE(w.WriteEvents(std::vector<EventRecord>{e}, /*compressed=*/true).ok());
  } else {
    REQUIRE(w.WriteEvents(records, /*compressed=*/true).ok());
  }
  REQUIRE(w.WriteEndOfStream().ok());
  return w.TakeBytes();
}

// MethodLoad_V1: MethodID, ModuleID, MethodStartAddress, MethodSize, MethodToken, MethodFlags
// (Jitted), ClrInstanceID.
inline std::vector<uint8_t> JittedMethodLoadPayload(uint64_t method, uint32_t size) {
  PayloadBuilder b;
  b.AppendU64(method).AppendU64(0x5000).AppendU64(0x7f000000 + method).AppendU32(size).AppendU32(0x06000001);
  return b.AppendU32(0x8).AppendU16(7).bytes();
}

}  // namespace nettrace::test
