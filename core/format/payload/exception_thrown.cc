#include "format/payload/exception_thrown.h"

#include <cstring>

#include "format/clr_events.generated.h"
#include "format/provider_family.h"
#include "io/byte_cursor.h"

namespace nettrace {

namespace {

constexpr uint32_t kExceptionThrownId = 80;

bool IsUnicodeString(const clr::EventInfo& info, uint16_t i, const char* name) {
  // A NUL-terminated string: not counted, not an array.
  return i < info.fieldCount && info.fields[i].kind == clr::FieldKind::kUnicodeString &&
         info.fields[i].countField < 0 && info.fields[i].fixedCount == 0 && std::strcmp(info.fields[i].name, name) == 0;
}

}  // namespace

bool ReadExceptionThrownStrings(const EventMetadata& m, std::span<const uint8_t> payload, uint32_t pointerSize,
                                std::string* type, std::string* message) {
  if (!m.fields.empty() || m.eventId != kExceptionThrownId) return false;
  if (ClrProviderOf(m.providerName) != clr::Provider::kRuntime) return false;
  // DecodePayload's template choice: version 0 has no fields, yet runtimes send version 1's
  // layout under it.
  const clr::EventInfo* info = clr::FindEvent(clr::Provider::kRuntime, kExceptionThrownId, m.version);
  if (info && info->fieldCount == 0 && !payload.empty()) info = clr::FindEvent(clr::Provider::kRuntime, kExceptionThrownId, 1);
  if (!info || !info->layoutKnown) return false;
  type->clear();
  if (message) message->clear();
  if (info->fieldCount == 0) return true;
  if (!IsUnicodeString(*info, 0, "ExceptionType") || !IsUnicodeString(*info, 1, "ExceptionMessage"))
    return false;
  ByteCursor c(payload, 0);
  // A payload that ends between fields is an older version's: the fields after are absent.
  if (c.empty()) return true;
  if (!c.ReadNullTerminatedUtf16(type)) return false;
  if (c.empty()) return true;
  // Runtimes before .NET 6 leave out an empty message: exactly ExceptionEIP, HRESULT, Flags
  // and ClrInstanceID are left (the template decoder's rule, clr_template.cc).
  if (c.remaining() == size_t{pointerSize} + 8) return true;
  if (!message) return true;  // the type is read; what follows does not change it
  return c.ReadNullTerminatedUtf16(message);
}

}  // namespace nettrace
