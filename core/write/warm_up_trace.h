// core/write — a small profile-shaped NetTrace v5 trace written in memory, for warming an
// engine: the wasm build reads it once, ahead of the first real trace, so that the code a
// real read runs is already compiled when a user drops a file (a browser compiles wasm
// functions on their first call and optimizes them only after they have run a while: the
// first read of a small trace otherwise spends most of its time there).
//
// What it holds: four threads' Thread/Sample events with stacks, GC AllocationTicks and
// GCs (SuspendEE, Start, Stop, HeapStats, RestartEE), JIT MethodLoadVerbose events, and a rundown's
// MethodDCEndVerbose events naming the methods the stacks run through, so that reading,
// the summary, GC/JIT statistics and naming frames all run.
#pragma once

#include <cstdint>
#include <vector>

#include "base/status.h"

namespace nettrace {

// About 12,000 events in about 1 MB.
Status WriteWarmUpTrace(std::vector<uint8_t>* out);

}  // namespace nettrace
