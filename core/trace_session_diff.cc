// The A/B stack diff over two sessions' public flame graphs (issue 13), apart from the
// stack views so that their weighting and stitching stay in one place.
#include "analysis/flame_graph.h"
#include "analysis/stack_diff.h"
#include "trace_session.h"

namespace nettrace {

StackDiff BuildStackDiff(const TraceSession& a, const StackQuery& queryA, const TraceSession& b,
                         const StackQuery& queryB) {
  StackQuery qa = queryA, qb = queryB;
  qa.inverted = qb.inverted = false;  // paths are compared root first
  return DiffFlameGraphs(a.BuildFlameGraph(qa), b.BuildFlameGraph(qb));
}

std::string StackDiffJson(const TraceSession& a, const StackQuery& queryA, const TraceSession& b,
                          const StackQuery& queryB, size_t maxFunctions) {
  const StackDiff diff = BuildStackDiff(a, queryA, b, queryB);
  return StackDiffToJson(diff, DiffFunctions(diff), maxFunctions);
}

std::string StackDiffFolded(const TraceSession& a, const StackQuery& queryA, const TraceSession& b,
                            const StackQuery& queryB) {
  return StackDiffToFolded(BuildStackDiff(a, queryA, b, queryB));
}

void ResolveDiffWeights(const TraceSession& a, StackQuery* queryA, const TraceSession& b, StackQuery* queryB) {
  const WeightKind resolvedA = a.WithDefaultWeight(*queryA).weight, resolvedB = b.WithDefaultWeight(*queryB).weight;
  if (resolvedA != queryA->weight) queryA->weight = queryB->weight = resolvedA;
  else if (resolvedB != queryB->weight) queryA->weight = queryB->weight = resolvedB;
}

}  // namespace nettrace
