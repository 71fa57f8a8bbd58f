// `nettrace heap FILE [--baseline OLD] [--paths-to TYPE] [--format json|csv]`: a heap
// snapshot's views (core/heap), or its growth from an older snapshot.
#pragma once

#include "api/query_options.h"

namespace nettrace_cli {

// The command line parsed by the caller (api/command_line.h). Returns the exit code: 0, or
// 1 when a file could not be read whole (what was read is still printed when it holds a graph).
int RunHeap(const nettrace::api::Request& request, const char* path);

}  // namespace nettrace_cli
