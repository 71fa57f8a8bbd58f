#include "analysis/traceevent_compat.h"

#include <cstring>

namespace nettrace {

namespace {

// MethodLoadVerbose / MethodDCStartVerbose / MethodUnloadVerbose: MethodID, ModuleID,
// MethodStartAddress (3 × 8), MethodSize, MethodToken (2 × 4), then MethodFlags.
constexpr size_t kMethodFlagsOffset = 32;
constexpr uint32_t kMethodFlagDynamic = 0x1;
constexpr uint32_t kMethodFlagJitted = 0x8;

bool MethodFlags(std::span<const uint8_t> payload, uint32_t* flags) {
  if (payload.size() < kMethodFlagsOffset + 4) return false;
  std::memcpy(flags, payload.data() + kMethodFlagsOffset, 4);
  return true;
}

}  // namespace

bool IsTraceLogBookkeeping(EventKind kind, std::span<const uint8_t> payload) {
  uint32_t flags = 0;
  switch (kind) {
    case EventKind::kRundownMethodDCEndVerbose:  // Method/DCStopVerbose
    case EventKind::kRundownILToNativeMapDCEnd:
    case EventKind::kMethodILToNativeMap:
    case EventKind::kMethodDCStartVerboseV2:
    case EventKind::kMethodDCEndVerboseV2:
    case EventKind::kClrStackWalk:
    case EventKind::kPrivateClrStackWalk:
    case EventKind::kThreadStackWalk: return true;
    case EventKind::kRundownMethodDCStartVerbose:
    case EventKind::kMethodLoadVerbose:
      return MethodFlags(payload, &flags) && !(flags & (kMethodFlagJitted | kMethodFlagDynamic));
    case EventKind::kMethodUnloadVerbose: return MethodFlags(payload, &flags) && !(flags & kMethodFlagJitted);
    default: return false;
  }
}

}  // namespace nettrace
