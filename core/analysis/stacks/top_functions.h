// core/analysis — per-function totals of a stack selection, like `dotnet-trace report
// topN`: exclusive weight (the function is the leaf) and inclusive weight (the function
// is anywhere on the stack, counted once per event even when recursive); and the
// sandwich view of one function: who calls it (callers, outward from it) and what it
// calls (callees, inward from it), each a call tree rooted at the function.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "analysis/stacks/call_tree.h"

namespace nettrace {

struct FunctionStat {
  uint32_t frame = 0;
  uint64_t inclusive = 0;
  uint64_t exclusive = 0;
  uint64_t inclusiveCount = 0;
  uint64_t exclusiveCount = 0;
};

// All functions of the selection, heaviest exclusive first (then inclusive, then name).
std::vector<FunctionStat> TopFunctions(const StackSelection& selection, const StackResolver& resolver);

// {"unit":..., "total":N, "functions":[{"name","inclusive","exclusive","inclusiveCount",
//  "exclusiveCount"}...]} with at most n entries.
std::string TopFunctionsToJson(const std::vector<FunctionStat>& stats, const FrameTable& frames, size_t n,
                               uint64_t total, WeightUnit unit);

struct Sandwich {
  CallTree callers;  // root = the function; children = its direct callers, and so on out
  CallTree callees;  // root = the function; children = what it calls directly
};

// Uses the outermost occurrence of the function on each stack (a recursive function's
// time is not counted twice). Both roots' inclusive weight = the function's inclusive.
Sandwich BuildSandwich(const StackSelection& selection, const StackResolver& resolver, uint32_t functionFrame);

}  // namespace nettrace
