#include "analysis/stacks/tpl_tasks.h"

namespace nettrace {

TplOp TplOpOf(const EventType& type) {
  if (type.knownProvider != KnownProvider::kTpl) return TplOp::kNone;
  switch (type.metadata.eventId) {
    case 7: return TplOp::kScheduled;
    case 8: return TplOp::kExecuteStart;
    case 9: return TplOp::kExecuteStop;
    case 10: return TplOp::kWaitBegin;
    case 11: return TplOp::kWaitEnd;
    case 12: return TplOp::kContinuationScheduled;
    default: return TplOp::kNone;
  }
}

uint64_t RawActivityId(RawIdKind kind, uint64_t pid, uint64_t id) {
  // TraceEvent computes the high part in 32-bit arithmetic (a large pid wraps).
  const uint32_t high = static_cast<uint32_t>((pid << 8) + (static_cast<uint64_t>(kind) << 28));
  return (uint64_t{high} << 32) + id;
}

}  // namespace nettrace
