// The shapes of the summary document (`nettrace summary`, TraceSession::SummaryJson(); written
// by core/analysis/summary/summary.cc, runtime_signals.cc and universal_summary.cc; docs/summary-json.md). One row per field, in the order the writers write them (api/result_schema.h).
#include "api/result_schema.h"

namespace nettrace::api {

namespace {
constexpr uint8_t S = kShapeRow, O = kOptional, N = kNullable;
}  // namespace

Rows<ResultRow> SummaryResultRows() {
  static const ResultRow rows[] = {
      {"Summary", nullptr, S, "The engine's summary (docs/summary-json.md)."},
      {"format", "SummaryFormat", 0, nullptr},
      {"complete", "boolean", 0, "True when the stream reached its end and nothing went wrong."},
      {"bytesRead", "integer", 0, "Bytes decoded."},
      {"error", "SummaryError", N, "The fatal error that stopped reading, or null."},
      {"trace", "TraceHeader", 0, nullptr},
      {"timeRange", "TimeRange", N, "Null without events."},
      {"eventCount", "integer", 0, "Event records read."},
      {"eventsWithStacks", "integer", 0, nullptr},
      {"payloadBytes", "integer", 0, nullptr},
      {"types", "SummaryEventType[]", 0, "Most frequent first."},
      {"providers", "SummaryProvider[]", 0, nullptr},
      {"threads", "SummaryThread[]", 0, nullptr},
      {"dropped", "Dropped", 0, nullptr},
      {"processors", "integer", 0, "Distinct processor numbers in event headers."},
      {"blocks", "map:integer", 0, "Count per block kind read (Trace, Metadata, Stack, Event, SequencePoint, …)."},
      {"tables", "SummaryTables", 0, nullptr},
      {"runtime", "RuntimeSignals", 0, "Runtime signals (GCs, exceptions, allocations, JIT, contentions)."},
      {"stats", "SummaryStat[]", 0, nullptr},
      {"processes", "SummaryProcess[]", O, "Traces with universal (Linux profiler) events only."},
      {"mappings", "SummaryMappings", O, "Traces with universal (Linux profiler) events only."},

      {"SummaryFormat", nullptr, S, "The container of the trace."},
      {"container", "string", 0, "\"NetTrace FastSerialization\" (v4/v5), \"NetTrace blocks\" (v6), \"NetPerf FastSerialization\"."},
      {"major", "integer", 0, "3 (NetPerf), 4, 5 or 6."},
      {"minor", "integer", 0, nullptr},
      {"traceObjectVersion", "integer", O, "NetPerf, v4/v5: the Trace object's version (absent for v6)."},

      {"SummaryError", nullptr, S, "The fatal error that stopped reading, as the summary JSON reports it."},
      {"code", "string", 0, nullptr},
      {"offset", "integer", N, nullptr},
      {"message", "string", 0, nullptr},

      {"KeyValue", nullptr, S, nullptr},
      {"key", "string", 0, nullptr},
      {"value", "string", 0, nullptr},

      {"TraceHeader", nullptr, S, "The trace header; every field is absent when the header was not reached (`{}`)."},
      {"syncTimeUtc", "string", O | N, "Null when the sync time is not a representable date."},
      {"syncTimeTicks", "integer", O, nullptr},
      {"tickFrequency", "integer", O, "Ticks per second."},
      {"pointerSize", "integer", O, "4 or 8."},
      {"processId", "integer", O, nullptr},
      {"numberOfProcessors", "integer", O, nullptr},
      {"expectedCpuSamplingRate", "integer", O, nullptr},
      {"keyValues", "KeyValue[]", O, "v6 trace metadata (empty before v6)."},

      {"TimeRange", nullptr, S, "The time span of all events (`…Timestamp` raw clock values, `…Ms` since the sync time)."},
      {"firstTimestamp", "integer", 0, nullptr},
      {"lastTimestamp", "integer", 0, nullptr},
      {"startMs", "number", 0, nullptr},
      {"endMs", "number", 0, nullptr},
      {"durationMs", "number", 0, nullptr},
      {"startUtc", "string", N, "Null when the time is not a representable date (a damaged sync time)."},
      {"endUtc", "string", N, nullptr},

      {"SummaryEventType", nullptr, S, "One entry of the summary's `types` list."},
      {"provider", "string", 0, nullptr},
      {"name", "string", 0, nullptr},
      {"eventId", "integer", 0, nullptr},
      {"version", "integer", 0, nullptr},
      {"count", "integer", 0, nullptr},
      {"withStacks", "integer", 0, "Events of this type whose stack has at least one frame (the types a flame graph can show)."},

      {"SummaryProvider", nullptr, S, nullptr},
      {"name", "string", 0, nullptr},
      {"count", "integer", 0, nullptr},

      {"SummaryThread", nullptr, S,
       "One thread seen. v4/v5: threadId and processId are set; v6 adds index, name, attributes, and its threadId / "
       "processId / name are null when the thread block did not give them."},
      {"index", "integer", O, nullptr},
      {"threadId", "integer", N, nullptr},
      {"processId", "integer", N, nullptr},
      {"name", "string", O | N, nullptr},
      {"attributes", "KeyValue[]", O, nullptr},
      {"eventCount", "integer", 0, "Events about the thread."},
      {"capturedEvents", "integer", 0, "Events it wrote, as capture thread."},
      {"droppedEvents", "integer", 0, nullptr},

      {"DropRange", nullptr, S, "Events lost by one thread between two of its sequence numbers."},
      {"threadId", "integer", O, "v4/v5."},
      {"threadIndex", "integer", O, "v6."},
      {"count", "integer", 0, nullptr},
      {"fromMs", "number", N, "Null when the loss precedes the thread's first event."},
      {"toMs", "number", 0, nullptr},

      {"Dropped", nullptr, S, nullptr},
      {"events", "integer", 0, nullptr},
      {"gaps", "integer", 0, nullptr},
      {"ranges", "DropRange[]", 0, nullptr},
      {"rangesTruncated", "boolean", 0, nullptr},

      {"SummaryTables", nullptr, S, nullptr},
      {"metadata", "integer", 0, nullptr},
      {"stacks", "integer", 0, nullptr},
      {"labelLists", "integer", 0, nullptr},
      {"sequencePoints", "integer", 0, nullptr},

      {"GcGeneration", nullptr, S, "GCs of one generation and their pauses (PerfView's GCStats way; docs/summary-json.md)."},
      {"generation", "integer", N, "0, 1, 2; null for any other GC/Start Depth (listed only when seen)."},
      {"count", "integer", 0, nullptr},
      {"pauses", "integer", 0, "GCs of this generation found inside a SuspendEEStart → RestartEEStop pause."},
      {"totalPauseMs", "number", 0, nullptr},
      {"maxPauseMs", "number", 0, nullptr},
      {"meanPauseMs", "number", 0, nullptr},

      {"NamedCount", nullptr, S, "A name (exception type, allocated type) with its count; bytes for allocations."},
      {"type", "string", 0, nullptr},
      {"count", "integer", 0, nullptr},
      {"bytes", "integer", O, nullptr},

      {"RuntimeSignals", nullptr, S, "The summary's `runtime` key: .NET runtime signals counted while streaming."},
      {"gc", "RuntimeGc", 0, nullptr},
      {"exceptions", "RuntimeExceptions", 0, "Exception/Start by ExceptionType, most frequent first, top 100; the rest in otherCount."},
      {"allocations", "RuntimeAllocations", 0,
       "GC/AllocationTick by TypeName, most bytes first, top 100; the rest in otherCount/otherBytes."},
      {"jit", "RuntimeJit", 0, nullptr},
      {"contentions", "integer", 0, "Contention/Start events."},

      {"RuntimeGc", nullptr, S, "GCs counted while streaming, by generation."},
      {"count", "integer", 0, nullptr},
      {"induced", "integer", 0, nullptr},
      {"background", "integer", 0, nullptr},
      {"generations", "GcGeneration[]", 0, nullptr},

      {"RuntimeExceptions", nullptr, S, nullptr},
      {"count", "integer", 0, nullptr},
      {"types", "NamedCount[]", 0, nullptr},
      {"otherCount", "integer", 0, nullptr},

      {"RuntimeAllocations", nullptr, S, nullptr},
      {"ticks", "integer", 0, nullptr},
      {"bytes", "integer", 0, nullptr},
      {"types", "NamedCount[]", 0, nullptr},
      {"otherCount", "integer", 0, nullptr},
      {"otherBytes", "integer", 0, nullptr},

      {"RuntimeJit", nullptr, S, "JIT'd methods and the event they were counted from."},
      {"methods", "integer", 0, nullptr},
      {"source", "string", N, "\"Method/JittingStarted\", \"Method/Load\" or null."},

      {"SummaryStat", nullptr, S, "An anomaly the reader survived (non-zero counters only)."},
      {"name", "string", 0, nullptr},
      {"value", "integer", 0, nullptr},
      {"severity", "enum:info|data-loss|error", 0, nullptr},
      {"source", "enum:trace|analysis", 0, nullptr},
      {"description", "string", 0, nullptr},

      {"SummaryProcess", nullptr, S, "A process of a trace with universal (Linux profiler) events."},
      {"pid", "integer", 0, nullptr},
      {"name", "string", 0, nullptr},
      {"namespaceId", "integer", 0, nullptr},
      {"namespaceName", "string", 0, nullptr},
      {"existing", "boolean", 0, nullptr},
      {"startMs", "number", O, nullptr},
      {"exitMs", "number", O, nullptr},
      {"events", "integer", 0, nullptr},
      {"cpuSamples", "integer", 0, nullptr},
      {"cpuNanoseconds", "integer", 0, nullptr},
      {"cpuShare", "number", 0, "Its share of all processes' CPU time, 0–1."},
      {"cswitches", "integer", 0, nullptr},
      {"offCpuNanoseconds", "integer", 0, nullptr},
      {"threads", "integer[]", 0, "OS thread ids."},

      {"SummaryMapping", nullptr, S, "A mapped file of a trace with universal events (the first ones listed)."},
      {"pid", "integer", 0, nullptr},
      {"id", "integer", 0, nullptr},
      {"start", "integer", 0, nullptr},
      {"end", "integer", 0, nullptr},
      {"fileOffset", "integer", 0, nullptr},
      {"file", "string", 0, nullptr},
      {"symbols", "integer", 0, nullptr},
      {"symbolMetadata", "string", O, nullptr},
      {"identity", "map:string", O, "ELF build-id, PE/ReadyToRun perf-map identity, parsed from symbolMetadata."},
      {"versionMetadata", "string", O, nullptr},

      {"SummaryMappings", nullptr, S, nullptr},
      {"count", "integer", 0, nullptr},
      {"withSymbols", "integer", 0, nullptr},
      {"withoutSymbols", "integer", 0, nullptr},
      {"symbols", "integer", 0, nullptr},
      {"listed", "SummaryMapping[]", 0, nullptr},
  };
  return {rows, sizeof rows / sizeof rows[0]};
}

}  // namespace nettrace::api
