// core/analysis — the allocations view (`nettrace allocations`): allocated bytes and objects
// by type and by function, and in total, from the records of analysis/allocation_samples.h.
// From AllocationSampled: estimated bytes and objects (the weighted-sample estimate) with a
// `confidence` interval of the bytes (the negative binomial model; allocation_estimate.h),
// per type, per function (inclusive: the samples whose stack holds it) and in total. From
// GC/AllocationTick: TraceEvent's amounts, labelled as the older ~100 KB sampling, no interval.
#pragma once

#include <cstddef>
#include <string>

#include "analysis/view_format.h"

namespace nettrace {

class AllocationSamples;
class StackResolver;
class TraceModel;
class SymbolCollector;
struct StackSelection;

struct AllocationViewOptions {
  double confidence = 0.99;
  size_t functions = 100;  // the heaviest functions listed
  ViewFormat format = ViewFormat::kJson;
};

// `sel`: the allocation events (AllocationSamples::Retarget's selection, before Refine: each
// entry's call stack without a type frame).
std::string WriteAllocationView(const AllocationSamples& samples, const TraceModel& model,
                                const SymbolCollector& symbols, const StackSelection& sel, StackResolver* resolver,
                                const AllocationViewOptions& options);

// The view of a model's allocation records, their events selected and named as the flame
// graph names them (the symbols prepared: read/read_pipeline.h PrepareSymbols).
std::string AllocationsView(const TraceModel& model, const AllocationViewOptions& options);

}  // namespace nettrace
