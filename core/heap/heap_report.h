// core/heap — the heap views as JSON (and CSV for the tables), the one result shape the
// CLI prints, the wasm bindings return and the page draws (docs/format/gcdump.md §Views):
// totals and root categories, types by count, shallow, retained and PerfView-inclusive
// size, the largest objects, the paths from the roots to one type's instances, and the
// growth by type between two snapshots.
#pragma once

#include <cstdint>
#include <string>

#include "heap/heap_analysis.h"
#include "heap/heap_graph.h"

namespace nettrace::heap {

struct HeapQuery {
  std::string pathsTo;     // a type: name, "module!name", or a case-insensitive part of a name
  uint32_t largest = 20;   // largest objects listed
  uint32_t paths = 10;     // instances whose path is listed
};

struct Snapshot {
  const HeapGraph& graph;
  const HeapAnalysis& analysis;
};

std::string HeapJson(const Snapshot& s, const HeapQuery& q);
std::string HeapTypesCsv(const Snapshot& s);
// Growth from `baseline` to `current` by type (rows matched by name and module).
std::string HeapDiffJson(const Snapshot& baseline, const Snapshot& current);
std::string HeapDiffCsv(const Snapshot& baseline, const Snapshot& current);
// The paths part of HeapJson alone ({"type": …, "paths": …}).
std::string HeapPathsJson(const Snapshot& s, const HeapQuery& q);

}  // namespace nettrace::heap
