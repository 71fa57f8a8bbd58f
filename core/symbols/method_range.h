// core/symbols — one managed code range as the runtime announced it (MethodMap's entries),
// in a header of its own so that the overlap index (symbols/overlap_index.h), which the map
// owns, reads the ranges without including the map.
#pragma once

#include <cstdint>

#include "symbols/method_names.h"

namespace nettrace {

inline constexpr uint64_t kForever = UINT64_MAX;

// Trivially copyable (names are refs into the map's pool), so sorting moves no strings.
struct MethodRange {
  uint64_t start = 0;
  uint64_t methodId = 0;
  uint64_t moduleId = 0;
  uint64_t rejitId = 0;
  uint64_t loadTime = 0;  // ticks; 0 for rundown ranges
  uint64_t unloadTime = kForever;
  // MethodNamespace (the full type name, e.g. "Example.Program") and MethodName.
  MethodNamesRef names;
  uint32_t size = 0;     // after names: 72 bytes in all, not 80
  bool verbose = false;  // names known
  uint64_t end() const { return start + size; }
  // Its frame is named by its names, not its method id: names known and copied (not left in
  // the file unread: a read of them back that was cancelled or failed).
  bool named() const { return verbose && !names.inSource(); }
};

}  // namespace nettrace
