// tests/shapes — valid traces of extreme shape, written with the project's own writer
// (core/write), each with its size as a parameter. Byte mutation of real traces never
// reaches these shapes, yet a long-running service, a generated-code-heavy app or a buggy
// profiler can write any of them; each once made some command quadratic, unbounded in
// memory, or refuse the trace:
//
//   overlapping-methods  n dynamic methods JIT-compiled one after the other into one reused
//                        code range (load, a sample inside it, unload), the way short-lived
//                        DynamicMethods and re-JIT reuse addresses
//   no-sequence-points   n events on 4 threads, none marked sorted, no sequence point: a
//                        reader that waits for one to sort holds every event
//   deep-stack           one stack of n frames (a runaway recursion), sampled 4 times
//   many-types           n event types, one event each, every payload holding a string
//   many-threads         n threads, one event each (more than the 65,535 a row can index)
//   deep-nesting         one event type whose fields nest n Objects deep, next to an
//                        ordinary type
//
// The shape study (tests/robustness/shape_study.cc) runs every command of the CLI on each
// at two sizes: peak memory within the mutation study's bound and work growing linearly.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "base/status.h"

namespace nettrace::shapes {

enum class Shape : uint8_t { kOverlappingMethods, kNoSequencePoints, kDeepStack, kManyTypes, kManyThreads, kDeepNesting };

struct ShapeInfo {
  Shape shape;
  const char* name;
  // The size the study runs in CI (and 4 times it): large enough that a step quadratic in
  // the size takes seconds, small enough that the linear path takes well under one.
  size_t ciSize;
  // A size small enough for a fuzz seed (a few KB).
  size_t seedSize;
  // Text every event of the shape holds (for `events --text`).
  const char* text;
};

// Every shape, in the order above.
const std::vector<ShapeInfo>& AllShapes();

// The trace of `shape` at size `n` (methods, events, frames, types, threads or levels).
Status WriteShape(Shape shape, size_t n, std::vector<uint8_t>* out);

}  // namespace nettrace::shapes
