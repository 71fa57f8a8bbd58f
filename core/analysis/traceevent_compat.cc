#include "analysis/traceevent_compat.h"

namespace nettrace {

namespace {

constexpr uint32_t kMethodFlagDynamic = 0x1;
constexpr uint32_t kMethodFlagJitted = 0x8;

// MethodFlags where the manifest's template puts it (TraceEvent's parsers read it there).
bool MethodFlags(const ClrFieldLayout* layout, std::span<const uint8_t> payload, uint32_t* flags) {
  const ClrFieldRead r = ReadClrIntegerField(layout, payload, "MethodFlags");
  if (r.result != ClrFieldRead::Result::kValue) return false;
  *flags = static_cast<uint32_t>(r.value);
  return true;
}

}  // namespace

bool IsTraceLogBookkeeping(EventKind kind, const ClrFieldLayout* layout, std::span<const uint8_t> payload) {
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
      return MethodFlags(layout, payload, &flags) && !(flags & (kMethodFlagJitted | kMethodFlagDynamic));
    case EventKind::kMethodUnloadVerbose: return MethodFlags(layout, payload, &flags) && !(flags & kMethodFlagJitted);
    default: return false;
  }
}

}  // namespace nettrace
