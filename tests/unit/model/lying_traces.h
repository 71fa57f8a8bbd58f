// Traces whose IsSorted marks lie, written by the project's own writers: six capture
// threads, each writing all of its events before the next thread writes any, every event
// marked "sorted". The marks release each thread's events at once, so every event of
// threads 2..6 that is earlier than what was released turns up late — far more than
// three 4096-element chunks of the store's columns. A sequence point after thread 3 puts
// late events into an earlier region too, and timestamps repeat across threads (ties
// must keep file order).
#pragma once

#include <cstdint>
#include <vector>

#include "write/nettrace_v5_writer.h"
#include "write/nettrace_writer.h"

namespace nettrace::test {

inline constexpr uint32_t kLyingTraceThreads = 6;
inline constexpr uint32_t kLyingTraceEventsPerThread = 4000;
inline constexpr size_t kLyingTraceEvents = size_t{kLyingTraceThreads} * kLyingTraceEventsPerThread;

// Thread t's i-th event: threads t and t+3 share timestamps.
inline uint64_t LyingTimestamp(uint32_t thread, uint32_t i) { return 1000 + uint64_t{i} * 10 + thread % 3; }

// Thread t's events, every one marked sorted. v6 names threads by index (1-based, from
// the thread block), v4/v5 by OS thread id.
inline std::vector<EventRecord> LyingThreadEvents(uint32_t t, uint64_t threadKey) {
  static const uint8_t payload[4] = {1, 2, 3, 4};
  std::vector<EventRecord> events(kLyingTraceEventsPerThread);
  for (uint32_t i = 0; i < kLyingTraceEventsPerThread; ++i) {
    EventRecord& e = events[i];
    e.metadataId = 1, e.sequenceNumber = i + 1, e.thread = e.captureThread = threadKey;
    e.timestamp = LyingTimestamp(t, i), e.isSorted = true;
    e.payload = payload;
  }
  return events;
}

inline TraceInfo LyingTraceInfo() {
  TraceInfo info;
  info.syncTimeUtc = {2025, 2, 1, 3, 4, 5, 6, 0};
  info.tickFrequency = 1000000;
  info.pointerSize = 8;
  return info;
}

inline EventMetadata LyingMetadata() {
  EventMetadata m;
  m.id = 1, m.providerName = "Test.Lying", m.eventId = 1, m.eventName = "Tick";
  return m;
}

// After thread 3 (index 2): a sequence point naming the threads written so far.
inline SequencePoint LyingSequencePoint(uint32_t threadsSoFar, uint64_t (*key)(uint32_t)) {
  SequencePoint sp;
  sp.timestamp = LyingTimestamp(threadsSoFar - 1, kLyingTraceEventsPerThread - 1);
  for (uint32_t u = 0; u < threadsSoFar; ++u) sp.threads.push_back({key(u), kLyingTraceEventsPerThread});
  return sp;
}

inline std::vector<uint8_t> LyingTraceV6(bool compressed) {
  NetTraceV6Writer w;
  bool ok = w.WriteTraceBlock(LyingTraceInfo()).ok() && w.WriteMetadataBlock(std::vector<EventMetadata>{LyingMetadata()}).ok();
  std::vector<ThreadInfo> threads(kLyingTraceThreads);
  for (uint32_t t = 0; t < kLyingTraceThreads; ++t) threads[t].index = t + 1, threads[t].osThreadId = 100 + t;
  ok = ok && w.WriteThreadBlock(threads).ok();
  auto index = [](uint32_t t) { return uint64_t{t} + 1; };
  for (uint32_t t = 0; t < kLyingTraceThreads && ok; ++t) {
    ok = w.WriteEvents(LyingThreadEvents(t, index(t)), compressed, /*maxBlockContent=*/16 << 10).ok();
    if (t == 2) ok = ok && w.WriteSequencePointBlock(LyingSequencePoint(3, index)).ok();
  }
  ok = ok && w.WriteEndOfStream().ok();
  return ok ? w.TakeBytes() : std::vector<uint8_t>{};
}

// The same trace as NetTrace v4 or v5 (FastSerialization objects).
inline std::vector<uint8_t> LyingTraceV5(NetTraceV5Writer::Version version, bool compressed) {
  NetTraceV5Writer w(version);
  bool ok = w.WriteTraceObject(LyingTraceInfo()).ok() && w.WriteMetadataBlock(std::vector<EventMetadata>{LyingMetadata()}).ok();
  auto osThread = [](uint32_t t) { return uint64_t{100} + t; };
  for (uint32_t t = 0; t < kLyingTraceThreads && ok; ++t) {
    ok = w.WriteEvents(LyingThreadEvents(t, osThread(t)), compressed, /*maxBlockContent=*/16 << 10).ok();
    if (t == 2) ok = ok && w.WriteSequencePointBlock(LyingSequencePoint(3, osThread)).ok();
  }
  ok = ok && w.WriteEndOfStream().ok();
  return ok ? w.TakeBytes() : std::vector<uint8_t>{};
}

}  // namespace nettrace::test
