// core/format/payload — GC/AllocationTick's allocated bytes and kind, one rule for every reader:
// the GC statistics, the runtime signals' allocations by type, and the bytes weight of stacks.
// With a rule each, a tick of an old runtime (a negative Int32 amount) weighed 4 GB in one
// view and counted as a bad tick in another. The type resolver reads each tick once
// (ResolvedEvent::allocationTick, carried to the time-ordered readers by the sorted tap);
// each reader then applies the clamp with its own flag.
//
// The rule is TraceEvent's GCAllocationTickTraceData.GetAllocAmount, which GCStats and
// PerfView's "GC Heap Alloc Ignore Free (Coarse Sampling)" stacks both use:
//   - AllocationAmount64 (V2+); where it is absent or 0, AllocationAmount read as an Int32
//     (TraceEvent's GetInt32At, although the manifest calls it UInt32);
//   - once a negative amount is seen (old runtimes wrote bad ones), every amount after it is
//     held to 90 KB..110 KB for a small object, 90 KB..2 MB for any other kind. Each reader
//     keeps its own "seen" flag, as each of TraceEvent's does: the GC statistics one per
//     process, in time order (GCStats); the runtime signals one for the trace, in time
//     order; the bytes weight of stacks (symbols/symbol_collector.h) one for the trace, in
//     file order, where PerfView's stack view meets ticks in time order. So after one bad
//     tick in a trace of several processes, the GC statistics of the other processes still
//     count their ticks unclamped while the other two clamp them; and the stacks differ from
//     PerfView's only if a negative tick came later in the file than a tick after it in time
//     (TraceEvent: "we get bad values in old runtimes"; no committed trace has one).
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>

#include "format/payload/clr_field_read.h"
#include "format/payload/clr_payload_fields.h"

namespace nettrace {

struct AllocationTickValue {
  int64_t amount = 0;        // bytes, before the clamp (ClampAllocationAmount)
  uint32_t kind = 0;         // AllocationKind: 0 small, 1 large, 2 pinned
  bool complete = false;     // AllocationAmount and AllocationKind are both there
};

// The fields ticks are read with (by the resolver): their slots are found once per layout.
class AllocationTickFields {
 public:
  AllocationTickValue Read(ClrPayloadFields& p) {
    AllocationTickValue t;
    const std::optional<uint64_t> amount = p.FindUInt(amount_);
    const std::optional<uint64_t> kind = p.FindUInt(kind_);
    t.complete = amount.has_value() && kind.has_value();
    t.kind = static_cast<uint32_t>(kind.value_or(0));
    t.amount = static_cast<int64_t>(p.UInt(amount64_));
    if (t.amount == 0) t.amount = static_cast<int32_t>(static_cast<uint32_t>(amount.value_or(0)));
    return t;
  }

 private:
  ClrIntegerField amount64_{"AllocationAmount64"}, amount_{"AllocationAmount"}, kind_{"AllocationKind"};
};

// The amount a reader counts: GetAllocAmount's clamp, with that reader's flag (see above).
// Never negative: a negative amount sets the flag, and the clamp then holds it to >= 90 KB.
inline int64_t ClampAllocationAmount(const AllocationTickValue& t, bool* seenBad) {
  int64_t amount = t.amount;
  if (amount < 0) *seenBad = true;
  if (*seenBad) amount = std::min<int64_t>(std::max<int64_t>(amount, 90 * 1024), t.kind == 0 ? 110 * 1024 : 2 * 1024 * 1024);
  return amount;
}

}  // namespace nettrace
