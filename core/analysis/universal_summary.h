// core/analysis — the summary's view of Linux-profiler (Universal) traces: the processes
// (pid, name, namespace, event counts, share of CPU time) and their memory mappings,
// with how many in-trace symbols each has. Added to the summary JSON as extra keys
// only when the trace has Universal events, so other traces' summaries are unchanged.
#pragma once

#include <cstdint>
#include <vector>

#include "base/json_writer.h"
#include "model/trace_model.h"
#include "symbols/symbol_collector.h"

namespace nettrace {

// At most this many mappings are listed (real traces map thousands of files).
inline constexpr size_t kSummaryMappingLimit = 2000;

// `"processes":[{"pid","name","namespaceId","namespaceName","existing","startMs","exitMs"?,
//   "events","cpuSamples","cpuNanoseconds","cpuShare","cswitches","offCpuNanoseconds",
//   "threads":[tid...]}...],
//  "mappings":{"count","withSymbols","withoutSymbols","listed":[{"pid","id","start","end",
//   "fileOffset","file","symbols","symbolMetadata"?,"versionMetadata"?,"identity"?:{"type":"ELF"|"PE",
//   "build_id"|"signature"|"perfmap_signature"|...: text}}...]}`
// written as keys of the summary object w has open (after WriteSummaryFields);
// nothing without Universal data. eventsPerThread: the events of each thread of the table
// (analysis/summary.h EventsPerThread), summed per process for its "events".
void WriteUniversalSummaryFields(JsonWriter& w, const TraceModel& model, const SymbolCollector& symbols,
                                 const std::vector<uint64_t>& eventsPerThread);

}  // namespace nettrace
