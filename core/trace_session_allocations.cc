// TraceSession's allocations view (analysis/allocation_view.h), apart from the stack views:
// the allocation events' own selection, named by the same resolver the flame graph uses.
#include "analysis/allocation_samples.h"
#include "analysis/allocation_view.h"
#include "analysis/call_tree.h"
#include "analysis/stack_frames.h"
#include "trace_session.h"

namespace nettrace {

std::string TraceSession::AllocationsView(bool csv, double confidence, size_t functions) const {
  StackResolver resolver(model(), symbols());
  StackQuery query;
  query.weight = WeightKind::kAllocBytes;
  const StackSelection sel = SelectStacks(model(), symbols(), &resolver, allocations().Retarget(query));
  AllocationViewOptions options;
  options.confidence = confidence;
  options.functions = functions;
  options.format = csv ? ViewFormat::kCsv : ViewFormat::kJson;
  return WriteAllocationView(allocations(), model(), symbols(), sel, &resolver, options);
}

}  // namespace nettrace
