// core/analysis — the stack views of a model: a query's stacks selected (analysis/call_tree.h
// SelectStacks), narrowed or re-weighed by the event views (an exception type, time waited),
// regrouped and filtered by its transform (analysis/stack_transform.h), then laid out as a
// flame graph, ranked as top functions, split around one function (the sandwich), or
// compared with another selection (the A/B diff). Each call names the selected stacks
// afresh; the model's symbols must be prepared (read/read_pipeline.h PrepareSymbols).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "analysis/call_tree.h"
#include "analysis/flame_graph.h"
#include "analysis/stack_diff.h"
#include "analysis/stack_frames.h"
#include "model/trace_model.h"

namespace nettrace {

// The one place every stack view, export and diff gets its stacks from (the alloc-bytes and
// alloc-objects weights select the allocation events: analysis/allocation_samples.h).
StackSelection SelectRefinedStacks(const TraceModel& model, StackResolver* resolver, const StackQuery& query);

// A request's query with its weight "auto" resolved as every consumer's default is: for
// CPU samples TraceEvent's thread time, what `dotnet-trace convert` shows
// (analysis/call_tree.h AutoMeansTraceEventThreadTime); otherwise unchanged.
StackQuery WithDefaultWeight(const TraceModel& model, StackQuery query);

FlameGraph BuildFlameGraph(const TraceModel& model, const StackQuery& query);
std::string FlameGraphJson(const TraceModel& model, const StackQuery& query);
// The n heaviest functions by exclusive weight, with inclusive weights.
std::string TopFunctionsJson(const TraceModel& model, const StackQuery& query, size_t n);
// Callers and callees of one function (frame name) as two flame graphs; a function absent
// from the selection gives two graphs of one root node and total 0.
void BuildSandwich(const TraceModel& model, const StackQuery& query, const std::string& function, FlameGraph* callers,
                   FlameGraph* callees);
std::string SandwichJson(const TraceModel& model, const StackQuery& query, const std::string& function);

// One event's stack as frame names, leaf first, named at the event's time as the flame graph
// names them (a sample taken outside managed code ends in UNMANAGED_CODE_TIME); empty without
// a stack or for a bad row.
std::vector<std::string> EventStackFrames(const TraceModel& model, uint32_t row);
// The same as a JSON array of strings, written from the frame table directly: a stack
// 500,000 frames deep is 36 MB as a vector of strings.
std::string EventStackJson(const TraceModel& model, uint32_t row);
// The same stack's return addresses ("0x…"), leaf first: what TraceEvent tells frames apart by.
std::vector<std::string> EventStackAddresses(const TraceModel& model, uint32_t row);

// A/B diff of two stack views: A = baseline, B = comparison (the same model twice for two
// time ranges). Both sides are taken root first (a query's `inverted` is ignored).
StackDiff BuildStackDiff(const TraceModel& a, const StackQuery& queryA, const TraceModel& b, const StackQuery& queryB);
std::string StackDiffJson(const TraceModel& a, const StackQuery& queryA, const TraceModel& b, const StackQuery& queryB,
                          size_t maxFunctions);
// Both sides of a diff weighed alike: when either side's "auto" is TraceEvent's thread time
// (WithDefaultWeight), both are.
void ResolveDiffWeights(const TraceModel& a, StackQuery* queryA, const TraceModel& b, StackQuery* queryB);
// The diff as "a;b;c weightA weightB" lines (difffolded.pl's format).
std::string StackDiffFolded(const TraceModel& a, const StackQuery& queryA, const TraceModel& b,
                            const StackQuery& queryB);

}  // namespace nettrace
