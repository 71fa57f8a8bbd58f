#include "analysis/trace_summary.h"

#include "analysis/summary.h"
#include "analysis/universal_summary.h"
#include "format/trace_reader.h"

namespace nettrace {

std::string SummaryJson(const TraceModel& model) {
  SummaryReaderState state;
  state.formatMajor = model.reader().formatMajor();
  state.complete = model.reader().complete();
  state.bytesRead = model.reader().bytesConsumed();
  state.error = model.reader().status();
  JsonWriter w;
  w.BeginObject();
  const EventCounts events = model.counts();
  const std::vector<uint64_t> perThread = EventsPerThread(events, model.resolver());
  WriteSummaryFields(w, state, {model.records(), events, model.resolver(), perThread, model.stats(), &model.runtime(), &model.gc()});
  // Linux-profiler traces: processes and mappings, as extra keys at the end.
  WriteUniversalSummaryFields(w, model, model.symbols(), perThread);
  w.EndObject();
  return w.Take();
}

std::string TraceEventCounts(const TraceModel& model) { return TraceEventCounts(model.counts(), model.resolver()); }

}  // namespace nettrace
