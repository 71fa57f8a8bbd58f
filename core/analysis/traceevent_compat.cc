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

bool IsTraceLogBookkeeping(KnownProvider provider, uint32_t id, std::span<const uint8_t> payload) {
  uint32_t flags = 0;
  switch (provider) {
    case KnownProvider::kClrRundown:
      if (id == 144 || id == 150) return true;  // Method/DCStopVerbose, ILToNativeMapDCStop
      if (id == 143) return MethodFlags(payload, &flags) && !(flags & (kMethodFlagJitted | kMethodFlagDynamic));
      return false;
    case KnownProvider::kClrRuntime:
      if (id == 190 || id == 139 || id == 140 || id == 82) return true;  // ILToNativeMap, DC*VerboseV2, ClrStackWalk
      if (id == 143) return MethodFlags(payload, &flags) && !(flags & (kMethodFlagJitted | kMethodFlagDynamic));
      if (id == 144) return MethodFlags(payload, &flags) && !(flags & kMethodFlagJitted);
      return false;
    case KnownProvider::kClrPrivate: return id == 151;      // ClrStackWalk
    case KnownProvider::kSampleProfiler: return id == 1;    // Thread/StackWalk
    default: return false;
  }
}

}  // namespace nettrace
