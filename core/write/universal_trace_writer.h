// core/write — writes a v6 trace the way Linux profilers (dotnet-trace collect-linux,
// one-collect) do: Universal.System events (processes, mappings, symbols, mapping
// metadata) and Universal.Events samples (cpu, cswitch) whose metadata declares v6
// VarUInt and UTF-8 string (Array<UTF8CodeUnit>) fields, thread rows carrying OS
// process and thread ids, stacks of absolute addresses. For tests, and for a sample
// file a browser test can open (`nettrace write-sample-universal OUT`).
// Usage: add threads, stacks and events in any order; Finish() writes the blocks in the
// order the format requires (metadata, threads, stacks, events, end of stream).
#pragma once

#include <cstdint>
#include <deque>
#include <initializer_list>
#include <span>
#include <string>
#include <vector>

#include "base/status.h"
#include "format/records.h"

namespace nettrace {

class UniversalTraceWriter {
 public:
  // Metadata ids of the Universal events this writer declares (1..8); callers adding
  // their own metadata (e.g. .NET runtime events for a mixed trace) use ids above 8.
  enum MetaId : uint32_t {
    kExistingProcess = 1, kProcessCreate, kProcessExit, kProcessMapping, kProcessSymbol,
    kProcessMappingMetadata, kCpu, kCswitch, kFirstFreeMetaId
  };

  // tickFrequency 1e9: timestamps in nanoseconds, as perf-based collectors write them.
  explicit UniversalTraceWriter(uint32_t pointerSize = 8, int64_t tickFrequency = 1000000000);

  void AddThread(uint64_t index, uint64_t pid, uint64_t tid, const std::string& name = "");
  // A stack of instruction pointers, leaf first; returns its stack id (from 1).
  uint32_t AddStack(std::initializer_list<uint64_t> ipsLeafFirst) {
    return AddStack(std::span<const uint64_t>(ipsLeafFirst.begin(), ipsLeafFirst.size()));
  }
  uint32_t AddStack(std::span<const uint64_t> ipsLeafFirst);
  void AddMetadata(const EventMetadata& m) { extraMetadata_.push_back(m); }

  void ExistingProcess(uint64_t ts, uint64_t thread, const std::string& name, uint64_t namespaceId = 0,
                       const std::string& namespaceName = "");
  void ProcessCreate(uint64_t ts, uint64_t thread, const std::string& name, uint64_t namespaceId = 0,
                     const std::string& namespaceName = "");
  void ProcessExit(uint64_t ts, uint64_t thread);
  void ProcessMapping(uint64_t ts, uint64_t thread, uint64_t id, uint64_t start, uint64_t end, uint64_t fileOffset,
                      const std::string& fileName, uint64_t metadataId = 0);
  void ProcessSymbol(uint64_t ts, uint64_t thread, uint64_t id, uint64_t mappingId, uint64_t start, uint64_t end,
                     const std::string& name);
  void ProcessMappingMetadata(uint64_t ts, uint64_t thread, uint64_t id, const std::string& symbolMetadata,
                              const std::string& versionMetadata);
  void Cpu(uint64_t ts, uint64_t thread, uint64_t value, uint32_t stackId);
  void Cswitch(uint64_t ts, uint64_t thread, uint64_t value, uint32_t stackId);
  // Any event with a payload already built (metadata from AddMetadata).
  void AddEvent(uint32_t metadataId, uint64_t ts, uint64_t thread, uint32_t stackId, std::vector<uint8_t> payload);

  // The whole file. Fails if the writer rejects a block (it should not).
  Status Finish(std::vector<uint8_t>* out);

 private:
  std::vector<EventMetadata> UniversalMetadata() const;
  uint32_t pointerSize_;
  int64_t tickFrequency_;
  std::vector<ThreadInfo> threads_;
  std::vector<std::vector<uint8_t>> stacks_;
  std::vector<EventMetadata> extraMetadata_;
  std::vector<EventRecord> events_;
  std::deque<std::vector<uint8_t>> payloads_;  // stable addresses for events_[i].payload
  std::vector<std::pair<uint64_t, uint32_t>> sequence_;  // thread index → last sequence number
};

// A small collect-linux-like trace: two processes (a .NET app with JIT'd code in a
// memfd:doublemapper mapping, and a native tool) whose mappings overlap in address,
// a mapping without symbols, a symbol announced mid-trace, cpu and cswitch samples.
Status WriteSampleUniversalTrace(std::vector<uint8_t>* out);

}  // namespace nettrace
