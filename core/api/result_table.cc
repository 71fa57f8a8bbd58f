// Which JSON document each query prints (ResultSpecs), and the shapes of the documents that are
// not the summary's or an event view's: events and stacks, flame graphs, top functions, the
// sandwich, the A/B diff, the histogram, GC and JIT statistics, `ps --json` (api/result_schema.h).
#include "api/result_schema.h"

namespace nettrace::api {

namespace {
constexpr uint8_t S = kShapeRow, O = kOptional, N = kNullable;
}  // namespace

Rows<ResultSpec> ResultSpecs() {
  static const ResultSpec specs[] = {
      {"summary", "json", "Summary", false, "The summary document."},
      {"events", "json", "TraceEvent", true, "One event per line."},
      {"stack", "json", "EventStack", false, "One event's stack."},
      {"histogram", "json", "HistogramJson", false, "Event counts over time buckets."},
      {"flame", "json", "FlameGraphJson", false, "The laid-out flame graph."},
      {"top", "json", "TopFunctions", false, "The heaviest functions."},
      {"sandwich", "json", "SandwichJson", false, "Callers and callees of one function."},
      {"diff", "json", "StackDiffResult", false, "The A/B stack diff."},
      {"gc", "json", "GcStats", false, "TraceEvent's GCStats."},
      {"jit", "json", "JitStats", false, "TraceEvent's JITStats."},
      {"exceptions", "json", "ExceptionsView", false, "The exceptions view."},
      {"contention", "json", "ContentionView", false, "The contention view."},
      {"activities", "json", "ActivitiesView", false, "The activities view."},
      {"counters", "json", "CountersView", false, "The counters view."},
      {"threadpool", "json", "ThreadPoolView", false, "The thread pool view."},
      {"allocations", "json", "AllocationsView", false, "Allocations by type and function (estimated from AllocationSampled)."},
      {"ps", "json", "DiagProcess[]", false, "`ps --json`: the processes with a diagnostics port."},
      {"heap", "json", "HeapSnapshot", false, "The heap snapshot's views (without --baseline)."},
      {"check", "json", "CheckResult", false, "The verdicts of a budget file."},
      {"diff", "runs", "RunDiffResult", false, "`diff --baseline … --compare …`: many runs a side compared."},
  };
  return {specs, sizeof specs / sizeof specs[0]};
}

Rows<ResultRow> StackResultRows() {
  static const ResultRow rows[] = {
      {"TraceEvent", nullptr, S,
       "One event as the engine describes it (a `nettrace events` line). `detail` is true when its block could be "
       "re-read: processor, sequence number and payload fields are then set."},
      {"index", "integer", 0, "Store row (time order)."},
      {"timestamp", "integer", 0, nullptr},
      {"timeMs", "number", 0, nullptr},
      {"utc", "string", N, "Null when the time is not a representable date (a damaged sync time)."},
      {"provider", "string", 0, nullptr},
      {"name", "string", 0, nullptr},
      {"eventId", "integer", 0, nullptr},
      {"version", "integer", 0, nullptr},
      {"threadId", "integer", N, nullptr},
      {"processId", "integer", N, nullptr},
      {"threadName", "string", O, nullptr},
      {"stack", "integer", 0, "The stack's id (0: none)."},
      {"labels", "EventLabels", 0, nullptr},
      {"detail", "boolean", 0, nullptr},
      {"processor", "integer", O | N, "Null when the runtime did not record it (.NET 5 on)."},
      {"sequenceNumber", "integer", O, nullptr},
      {"payloadOffset", "integer", O, nullptr},
      {"payloadSize", "integer", O, nullptr},
      {"payload", "EventPayload", O, nullptr},
      {"frames", "string[]", O, "`events --frames`: the stack as named frames, leaf first."},

      {"EventLabels", nullptr, S, "The event's labels: activity ids, v6 label lists' keys and values."},
      {"activityId", "string", O, nullptr},
      {"relatedActivityId", "string", O, nullptr},
      {"traceId", "string", O, nullptr},
      {"spanId", "string", O, nullptr},
      {"opcode", "integer", O, nullptr},
      {"keywords", "integer", O, nullptr},
      {"level", "integer", O, nullptr},
      {"version", "integer", O, nullptr},
      {"*", "unknown", 0, "A v6 string or integer key-value label."},

      {"EventPayload", nullptr, S, "An event's decoded payload (`event.payload` when `detail` is true)."},
      {"schema", "enum:metadata|clr|none", 0,
       "\"metadata\" (the trace's own field descriptions), \"clr\" (the CLR manifest table) or \"none\"."},
      {"template", "string", O, "The CLR template used, e.g. \"GCStart_V2\"."},
      {"templateVersion", "integer", O, nullptr},
      {"fields", "PayloadField[]", 0, nullptr},
      {"shorterThanTemplate", "boolean", 0, nullptr},
      {"trailingBytes", "integer", 0, nullptr},
      {"hasErrors", "boolean", 0, nullptr},
      {"stoppedAtError", "boolean", 0, nullptr},
      {"dateTime", "enum:systemtime|filetime", O, nullptr},
      {"exceptionMessageOmitted", "boolean", O, nullptr},

      {"PayloadField", nullptr, S,
       "One decoded payload field (core/format/payload_decoder.h). `display` is present only for fields TraceEvent "
       "shows by name (CLR enums and flags), rendered as .NET's Enum.ToString() does."},
      {"name", "string", 0, nullptr},
      {"value", "unknown", 0, "The number, string or structure as decoded."},
      {"display", "string", O, nullptr},

      {"EventStack", nullptr, S, "`nettrace stack`: one event's stack as named frames, leaf first."},
      {"index", "integer", 0, nullptr},
      {"frames", "string[]", 0, nullptr},
      {"addresses", "string[]", 0, "Each frame's return address (0x…), leaf first: TraceEvent compares code addresses, not names, to tell a recursive task."},

      {"HistogramJson", nullptr, S, "Event counts over time buckets (the npm CLI's `histogram`)."},
      {"fromMs", "number", 0, "The bucketed range in ms from the sync time: the query's, or first to last event."},
      {"toMs", "number", 0, nullptr},
      {"bucketMs", "number", 0, nullptr},
      {"buckets", "integer", 0, nullptr},
      {"total", "integer", 0, "Events counted."},
      {"series", "string[]", 0, "Series names, sorted (\"all\" when not grouped)."},
      {"counts", "integer[]", 0, "Series-major: `counts[s * buckets + b]` is series s in bucket b."},

      {"AsyncStitching", nullptr, S,
       "\"traceevent-thread-time\" only: whether async stitching was applied (\"on\"), turned off (\"off\"), or "
       "cannot be (\"unavailable\", with the reason)."},
      {"state", "enum:on|off|unavailable", 0, nullptr},
      {"reason", "string", O, nullptr},

      {"FlameGraphJson", nullptr, S,
       "A flame graph laid out by the engine (core/analysis/flame_graph.h), struct of arrays: one entry per node in "
       "depth-first order; x runs in weight units from 0 to `total`. Entry 0 is the root."},
      {"unit", "string", 0, "\"samples\", \"bytes\", \"nanoseconds\" or \"objects\" (alloc-objects)."},
      {"total", "number", 0, nullptr},
      {"frames", "string[]", 0, "Frame names; `frame[i]` indexes this list."},
      {"frameDetails", "string[]", O,
       "Per frame name, what the name leaves out (a JIT'd method's optimization level in Linux-profiler traces, "
       "e.g. \"OptimizedTier1\"; \"\" for none): present only when some frame has one."},
      {"frame", "integer[]", 0, nullptr},
      {"parent", "integer[]", 0, "Parent node (the root is its own parent, 0)."},
      {"depth", "integer[]", 0, nullptr},
      {"start", "number[]", 0, "x range [start, end) of the node, weight units."},
      {"end", "number[]", 0, nullptr},
      {"self", "number[]", 0, "Exclusive weight."},
      {"count", "number[]", 0, "Events through the node."},
      {"asyncStitching", "AsyncStitching", O, nullptr},

      {"SandwichJson", nullptr, S,
       "The sandwich of one function (core/analysis/top_functions.h): `callers` grows outward (children of a node are "
       "its callers), `callees` inward."},
      {"function", "string", 0, nullptr},
      {"callers", "FlameGraphJson", 0, nullptr},
      {"callees", "FlameGraphJson", 0, nullptr},

      {"TopFunction", nullptr, S, nullptr},
      {"name", "string", 0, nullptr},
      {"inclusive", "number", 0, nullptr},
      {"exclusive", "number", 0, nullptr},
      {"inclusiveCount", "integer", 0, nullptr},
      {"exclusiveCount", "integer", 0, nullptr},

      {"TopFunctions", nullptr, S, "The heaviest functions by exclusive weight."},
      {"unit", "string", 0, nullptr},
      {"total", "number", 0, nullptr},
      {"functions", "TopFunction[]", 0, nullptr},

      {"StackDiffSide", nullptr, S, "One side of a stack diff: its weight unit and total weight."},
      {"unit", "string", 0, nullptr},
      {"total", "number", 0, nullptr},

      {"StackDiffFunction", nullptr, S, "A function (frame name) in a stack diff, with its weights on both sides (A = baseline, B = comparison)."},
      {"name", "string", 0, nullptr},
      {"inclusiveA", "number", 0, nullptr},
      {"inclusiveB", "number", 0, nullptr},
      {"exclusiveA", "number", 0, nullptr},
      {"exclusiveB", "number", 0, nullptr},
      {"inclusiveDelta", "number", 0, "Share of B's total minus share of A's total (fractions, 9 decimals)."},
      {"exclusiveDelta", "number", 0, nullptr},

      {"StackDiffTree", nullptr, S, "The merged call tree (depth-first, children by name) laid out on B's weights."},
      {"layout", "string", 0, nullptr},
      {"frames", "string[]", 0, nullptr},
      {"frame", "integer[]", 0, nullptr},
      {"parent", "integer[]", 0, nullptr},
      {"depth", "integer[]", 0, nullptr},
      {"inclusiveA", "number[]", 0, nullptr},
      {"exclusiveA", "number[]", 0, nullptr},
      {"inclusiveB", "number[]", 0, nullptr},
      {"exclusiveB", "number[]", 0, nullptr},
      {"start", "number[]", 0, nullptr},
      {"end", "number[]", 0, nullptr},
      {"delta", "number[]", 0, "Per node: inclusive share in B minus inclusive share in A (a view colours by it)."},

      {"StackDiffResult", nullptr, S,
       "The A/B diff of two stack views (core/analysis/stack_diff.h): per-function changes, by |exclusiveDelta| then "
       "|inclusiveDelta|, and the merged call tree. A node only in the baseline has start === end (zero width)."},
      {"baseline", "StackDiffSide", 0, nullptr},
      {"comparison", "StackDiffSide", 0, nullptr},
      {"functions", "StackDiffFunction[]", 0, nullptr},
      {"tree", "StackDiffTree", 0, nullptr},

      {"HeapSnapshot", nullptr, S,
       "A heap snapshot (core/heap/heap_report.h; docs/format/gcdump.md): where it came from, totals, root "
       "categories, types by count, shallow, retained (dominator tree) and PerfView-inclusive size, the largest "
       "objects, and with --paths-to the paths from the roots to a type."},
      {"source", "enum:gcdump|nettrace", 0, nullptr},
      {"processName", "string", 0, nullptr},
      {"processId", "integer", 0, nullptr},
      {"pointerSize", "integer", 0, "4, 8, or 0 when unknown."},
      {"creationTool", "string", 0, nullptr},
      {"timeCollectedTicks", "integer", 0, ".NET DateTime ticks; 0: unknown."},
      {"gcNumber", "integer", 0, "The GC the heap-dump events came from; -1 for a .gcdump."},
      {"weakRootsIgnored", "integer", 0, nullptr},
      {"unknownTypes", "integer", 0, nullptr},
      {"nodeLimitReached", "boolean", 0, "The reader stopped at 10,000,000 nodes, as dotnet-gcdump does."},
      {"totals", "HeapTotals", 0, nullptr},
      {"roots", "HeapRootCategory[]", 0, nullptr},
      {"types", "HeapTypeRow[]", 0, nullptr},
      {"largest", "HeapObject[]", 0, nullptr},
      {"pathsTo", "HeapPaths", N, "Null without --paths-to."},

      {"HeapTotals", nullptr, S, "Nodes and edges of the graph (pseudo-nodes included); objects and bytes without them."},
      {"nodes", "integer", 0, nullptr},
      {"edges", "integer", 0, nullptr},
      {"objects", "integer", 0, nullptr},
      {"bytes", "integer", 0, nullptr},
      {"types", "integer", 0, nullptr},
      {"unreachableObjects", "integer", 0, nullptr},
      {"unreachableBytes", "integer", 0, nullptr},

      {"HeapRootCategory", nullptr, S, "A child of the root pseudo-node ([static vars], [local vars], ...)."},
      {"node", "integer", 0, nullptr},
      {"name", "string", 0, nullptr},
      {"retained", "integer", 0, "Bytes only this category keeps alive (dominator tree)."},
      {"inclusive", "integer", 0, "Bytes PerfView's spanning tree puts under it."},

      {"HeapTypeRow", nullptr, S, "One type (by name and module)."},
      {"name", "string", 0, nullptr},
      {"module", "string", 0, nullptr},
      {"count", "integer", 0, nullptr},
      {"size", "integer", 0, "Shallow: the objects' own bytes."},
      {"retained", "integer", 0, "Dominator tree: bytes the type's objects keep alive, nested objects of the type once."},
      {"inclusive", "integer", 0, "PerfView's spanning tree (the Inc column of its By Name view)."},

      {"HeapObject", nullptr, S, "One of the largest objects by retained size."},
      {"node", "integer", 0, nullptr},
      {"name", "string", 0, nullptr},
      {"module", "string", 0, nullptr},
      {"address", "string", 0, "Hexadecimal."},
      {"size", "integer", 0, nullptr},
      {"retained", "integer", 0, nullptr},
      {"root", "string", 0, "The pseudo-nodes on its shortest path from the root."},

      {"HeapPaths", nullptr, S, "Paths from the roots to the instances of a type (--paths-to)."},
      {"type", "string", 0, "The text asked for."},
      {"matched", "HeapTypeName[]", 0, nullptr},
      {"instances", "integer", 0, nullptr},
      {"roots", "HeapPathRoot[]", 0, nullptr},
      {"paths", "HeapPath[]", 0, nullptr},

      {"HeapTypeName", nullptr, S, nullptr},
      {"name", "string", 0, nullptr},
      {"module", "string", 0, nullptr},

      {"HeapPathRoot", nullptr, S, "The instances per root they are reached from."},
      {"root", "string", 0, nullptr},
      {"kind", "string", 0, nullptr},
      {"count", "integer", 0, nullptr},
      {"size", "integer", 0, nullptr},
      {"retained", "integer", 0, nullptr},

      {"HeapPath", nullptr, S, "One instance (largest retained first) and its shortest path from the root."},
      {"node", "integer", 0, nullptr},
      {"address", "string", 0, nullptr},
      {"size", "integer", 0, nullptr},
      {"retained", "integer", 0, nullptr},
      {"root", "string", 0, nullptr},
      {"kind", "string", 0, nullptr},
      {"steps", "HeapPathStep[]", 0, nullptr},

      {"HeapPathStep", nullptr, S, nullptr},
      {"node", "integer", 0, nullptr},
      {"type", "string", 0, nullptr},
      {"address", "string", O, "Absent for pseudo-nodes."},
      {"size", "integer", 0, nullptr},
  };
  return {rows, sizeof rows / sizeof rows[0]};
}

}  // namespace nettrace::api
