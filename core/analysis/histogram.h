// core/analysis — event counts over time buckets, for timelines. The same filter as the
// event table (EventQuery: provider, name, thread, time range; offset/limit are ignored),
// counted into N equal buckets, optionally one series per provider or per event type.
// Counts are doubles so the result crosses to JS as one Float64Array.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "analysis/event_query.h"
#include "model/trace_model.h"

namespace nettrace {

enum class HistogramGroup : uint8_t {
  kNone = 0,       // one series, "all"
  kProvider = 1,   // one series per provider name
  kEventType = 2,  // one series per event type ("Provider/Name")
  kThread = 3,     // one series per thread, named by its OS thread id (ascending): the
                   // flame graph's thread picker counts a type's events per thread in one pass
};

struct HistogramQuery {
  EventQuery filter;  // offset and limit are not used
  uint32_t buckets = 100;  // clamped to [1, 100000]
  HistogramGroup groupBy = HistogramGroup::kNone;
};

struct Histogram {
  // The bucketed range, ms from the trace's sync time: the query's fromMs/toMs when given,
  // else the first and last event times of the whole trace. Bucket b covers
  // [fromMs + b·bucketMs, fromMs + (b+1)·bucketMs); the last bucket includes toMs.
  double fromMs = 0;
  double toMs = 0;
  double bucketMs = 0;
  uint32_t buckets = 0;
  std::vector<std::string> series;  // series names, sorted by name
  std::vector<double> counts;       // series-major: counts[s * buckets + b]
  uint64_t total = 0;               // events counted (all series, all buckets)
};

Histogram BuildHistogram(const TraceModel& model, const HistogramQuery& query);

}  // namespace nettrace
