// core/export/profile — one stack profile in the shape pprof's profile.proto and OpenTelemetry's
// profiles protos share, built once from the stack selections (analysis/stacks/call_tree.h) and then
// written by either encoder (export/pprof, export/otlp). It holds:
//   - the sample types: one per (event type, weight) pair the profile measures, each the
//     same selection a flame graph of that `--event` and `--weight` shows;
//   - one function, and one location, per named frame the samples reach; one mapping per
//     module those frames name;
//   - the samples: one per distinct (thread, call stack), with a value per sample type (0
//     where that type's selection has none of it) and its thread's labels; stacks shared;
//   - the time the profile covers, in Unix nanoseconds.
// Memory: proportional to the distinct stacks of the selections, never to their events.
// Invariants: ids are 1-based (0: none) as both formats want; every value column has one
// entry per sample; a sample's locations are leaf first.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "analysis/stacks/call_tree.h"

namespace nettrace {

struct ProfileSampleType {
  std::string event;  // the `--event` it selects (display name)
  WeightKind weight;  // and the `--weight`
  std::string type, unit;  // the ValueType both formats carry ("samples", "count")
  // What one sampling period is (the sample profiler's interval; 0 when the events are not
  // periodic samples).
  std::string periodType, periodUnit;
  int64_t period = 0;
};

struct ProfileFunction {
  std::string name;        // "Namespace.Type.Method" (the frame without its module), or the frame
  std::string systemName;  // the frame's full name, "Module!Namespace.Type.Method"; "" when it is `name`
  std::string file;        // the module, "" for frames outside any module
  uint32_t mapping = 0;    // 1-based index into ProfileData::mappings; 0: none
};

// A thread's labels, by ThreadIndex.
struct ProfileThread {
  uint64_t threadId = 0;  // OS thread id
  std::string threadName;  // "" when the trace names none
  uint64_t processId = 0;
  std::string processName;  // "" when unknown
};

struct ProfileData {
  std::vector<ProfileSampleType> types;
  std::vector<std::string> mappings;        // file names; id = index + 1
  std::vector<ProfileFunction> functions;   // id = index + 1; location i + 1 is function i + 1
  // Stacks: stack i is stackLocations[stackBegin[i], stackBegin[i + 1]), location ids leaf
  // first (empty for events without a stack).
  std::vector<uint32_t> stackBegin{0};
  std::vector<uint32_t> stackLocations;
  // Samples, column by column.
  std::vector<uint32_t> sampleStack;        // index of its stack
  std::vector<uint16_t> sampleThread;       // ThreadIndex
  std::vector<uint32_t> sampleActivity;     // index into activities; 0: none
  std::vector<int64_t> values;              // sample-major: values[s * types.size() + t]
  std::vector<ProfileThread> threads;       // by ThreadIndex
  std::vector<std::string> activities{""};  // innermost start-stop activity of a stack
  int64_t timeNanos = 0, durationNanos = 0;  // Unix ns of the first event covered; its span
  std::vector<std::string> comments;

  size_t sampleCount() const { return sampleThread.size(); }
  size_t stackCount() const { return stackBegin.size() - 1; }
  int64_t Value(size_t s, size_t t) const { return values[s * types.size() + t]; }
};

}  // namespace nettrace
