// tests/fuzz — writer-made seed traces for the fuzzers (style.md §14: the spec's
// constructs seed the fuzzer). Each is written with the project's NetTrace v6 or v4/v5
// writer (core/write) and covers block kinds, field types and analyses the real corpus
// reaches rarely or never: every v6 block kind, every TypeCode, label lists, thread
// removal, sequence-point flushes, CLR runtime events decoded by their manifest templates,
// sample-profiler stacks that resolve to method names, V1 fields and V2Params metadata,
// activity ids, the Linux-profiler (universal) trace, and the extreme shapes at seed size
// (tests/shapes/extreme_shapes.h).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/status.h"

namespace nettrace::fuzz {

struct SeedTrace {
  std::string name;
  std::vector<uint8_t> bytes;
};

// Appends the writer-made traces to *out; fails if the writer rejects one of them.
Status WriterSeedTraces(std::vector<SeedTrace>* out);

}  // namespace nettrace::fuzz
