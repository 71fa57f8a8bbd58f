// Shared helpers for the Catch2 tests: where the unpacked corpus lives and how to run a
// whole trace through the engine at a given chunk size.
#pragma once

#include <cstdint>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "base/stats.h"
#include "base/status.h"
#include "format/trace_reader.h"
#include "resolve/type_resolver.h"
#include "trace_session.h"
#include "write/nettrace_writer.h"

namespace nettrace::test {

inline std::string DataDir() {
  if (const char* env = std::getenv("NETTRACE_TEST_DATA_DIR")) return env;
  return NETTRACE_TEST_DATA_DIR;
}

inline std::string DataPath(const std::string& name) { return DataDir() + "/" + name; }

// A committed fuzz regression input (tests/fuzz/regressions/).
inline std::string RegressionPath(const std::string& name) {
  std::string path = NETTRACE_FUZZ_REGRESSIONS_DIR;
  path += '/';
  path += name;
  return path;
}

inline std::vector<uint8_t> ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// The complete traces of the corpus (tests/data; see its README for origins): the
// published ones, then those recorded from .NET 10 by scripts/record-traces.sh
// (tests/data/dotnet10/MANIFEST.md), NetTrace and NetPerf (format version 3) alike.
inline const std::vector<std::string>& CorpusTraces() {
  static const std::vector<std::string> names = {
      "dotnet10/net10-alloc-sampled.nettrace",
      "dotnet10/net10-bgc-waits-mcj.nettrace",
      "dotnet10/net10-counters.nettrace",
      "dotnet10/net10-cpu-async-http.nettrace",
      "dotnet10/net10-eventsource.nettrace",
      "dotnet10/net10-gc-verbose.nettrace",
      "dotnet10/net10-startup-at-exit.nettrace",
      "dotnet10/net10-startup-streaming.nettrace",
      "dotnet10/net10-ipc.netperf",
      "HeartRateMonitor.10068.nettrace",
      "eventpipe-dotnetcore2.1-linux-x64-objver3.netperf",
      "eventpipe-dotnetcore2.1-linux-x64-tracelogging.netperf",
      "eventpipe-dotnetcore3.0-win-x64-objver4.nettrace",
      "eventpipe-dotnetcore5.0-win-x64-arraytypes.nettrace",
      "eventpipe-dotnetcore6.0-win-x64-executioncheckpoints.nettrace",
      "only_managed_samples.nettrace",
      "pyroscope-net5-single-thread.nettrace",
      "sentry-net6-profile-with-task.nettrace",
  };
  return names;
}

// A reader whose records pass the type resolver before `sink`: a test sink asks the resolver
// what a metadata id is (types.MetadataOf, types.Of) instead of keeping definitions itself.
struct ResolvedReader {
  explicit ResolvedReader(RecordSink* sink) : types(sink, &stats), reader(&types, &stats) {}
  Stats stats;
  TypeResolver types;
  TraceReader reader;
};

// The first blocks of a written v6 trace: a 1000 Hz clock, 8-byte pointers, one event type
// "P/E" (metadata id 1) and these threads.
inline Status WriteOneTypeV6Start(NetTraceV6Writer& w, std::span<const ThreadInfo> threads) {
  TraceInfo info;
  info.tickFrequency = 1000;
  info.pointerSize = 8;
  NETTRACE_RETURN_IF_ERROR(w.WriteTraceBlock(info));
  EventMetadata m;
  m.id = 1;
  m.providerName = "P";
  m.eventName = "E";
  NETTRACE_RETURN_IF_ERROR(w.WriteMetadataBlock(std::span<const EventMetadata>(&m, 1)));
  return w.WriteThreadBlock(threads);
}

struct RunResult {
  Status status;
  std::string summary;
  std::string counts;
  uint64_t events = 0;
};

// Feeds `bytes` in chunks of `chunkSize` (the last may be shorter), then Finish().
inline RunResult RunTrace(const std::vector<uint8_t>& bytes, size_t chunkSize, size_t limit = SIZE_MAX) {
  TraceSession session;
  RunResult r;
  size_t end = std::min(limit, bytes.size());
  for (size_t pos = 0; pos < end; pos += chunkSize) {
    r.status = session.PushChunk(bytes.data() + pos, std::min(chunkSize, end - pos));
    if (!r.status.ok()) break;
  }
  if (r.status.ok()) r.status = session.Finish();
  r.summary = session.SummaryJson();
  r.counts = session.TraceEventCounts();
  r.events = session.eventCount();
  return r;
}

}  // namespace nettrace::test
