#include "resolve/traceevent_bookkeeping.h"

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

bool IsMethodBookkeeping(EventKind kind, const ClrFieldLayout* layout, std::span<const uint8_t> payload) {
  uint32_t flags = 0;
  if (!MethodFlags(layout, payload, &flags)) return false;
  // Unloads of jitted code are kept; loads and rundowns of jitted or dynamic code are kept.
  return kind == EventKind::kMethodUnloadVerbose ? !(flags & kMethodFlagJitted)
                                                 : !(flags & (kMethodFlagJitted | kMethodFlagDynamic));
}

}  // namespace nettrace
