// core/export/profile — which sample types a profile export (pprof, OTLP) measures. One row
// per (event type, weight) pair a flame graph shows: the rows for one event type are the
// weights that mean something for it. Without `--event`, a profile holds every row whose
// event type the trace has; with `--event` only that type's rows (an event type with no row:
// its count); with `--weight` only that weight's.
// Invariant (tests/unit/export/profile_sample_types_test.cc): every `--weight` value of the
// query table but `auto` has a row, so a new weight cannot be left out of the profiles.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "analysis/stacks/call_tree.h"
#include "export/profile/profile_data.h"
#include "format/records.h"

namespace nettrace {

struct ProfileSampleTypeRow {
  const char* event;       // display name, as `--event` takes it
  WeightKind weight;
  const char* type;        // the ValueType's type and unit
  const char* unit;
  bool sampled;            // the sample profiler's periodic samples: period = its interval
};

// The `--weight` value of a weight ("traceevent-thread-time").
const char* WeightName(WeightKind weight);

// The table (sample_types.cc), in the order a profile lists its types.
const ProfileSampleTypeRow* ProfileSampleTypeRows(size_t* count);

// What a profile request asks for beyond a flame graph's selection options.
struct ProfileRequest {
  StackQuery query;                   // selection options as `flame` takes them
  std::optional<std::string> event;   // `--event` when given
  std::optional<WeightKind> weight;   // `--weight` when given (and not auto)
};

// The sample types to try for a request, in table order; the profile keeps those whose
// selection has events. `info`: the sampling interval (ExpectedCPUSamplingRate, ns).
std::vector<ProfileSampleType> CandidateSampleTypes(const ProfileRequest& request, const TraceInfo& info);

}  // namespace nettrace
