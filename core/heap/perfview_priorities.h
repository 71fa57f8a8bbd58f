// core/heap — the type priorities PerfView's spanning tree starts from (SpanningTree /
// MemoryGraphStackSource.DefaultPriorities): each pattern is matched, case-insensitively
// and anywhere in the type's "module!name", in PerfView's own pattern syntax ('*' any
// characters, '%' any run of letters, digits, '.', '_' or '?'); the first that matches
// gives the priority, else 0. Lower priorities are explored later, so a path through a
// user type wins over one through local variables, handles or other roots.
#pragma once

#include <string_view>
#include <vector>

#include "heap/heap_graph.h"

namespace nettrace::heap {

// One priority per type of the graph, by the default patterns.
std::vector<float> DefaultTypePriorities(const HeapGraph& graph);
// Whether PerfView's pattern matches somewhere in text (exposed for tests).
bool PerfViewPatternMatches(std::string_view pattern, std::string_view text);

}  // namespace nettrace::heap
