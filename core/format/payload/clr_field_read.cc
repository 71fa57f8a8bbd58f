#include "format/payload/clr_field_read.h"

#include <cstring>

#include "format/clr_events.generated.h"
#include "format/payload_decoder.h"
#include "io/byte_cursor.h"

namespace nettrace {

namespace {

using Result = ClrFieldRead::Result;

// Bytes of one field of fixed size, 0 when its size varies (strings, binary, structs,
// arrays) or the pointer size is not one the decoder accepts.
size_t FixedSize(const clr::Field& f, uint32_t pointerSize) {
  if (f.countField >= 0 || f.fixedCount > 0) return 0;
  switch (f.kind) {
    case clr::FieldKind::kUInt8:
    case clr::FieldKind::kInt8: return 1;
    case clr::FieldKind::kUInt16:
    case clr::FieldKind::kInt16: return 2;
    case clr::FieldKind::kUInt32:
    case clr::FieldKind::kInt32:
    case clr::FieldKind::kFloat:
    case clr::FieldKind::kBool32: return 4;
    case clr::FieldKind::kUInt64:
    case clr::FieldKind::kInt64:
    case clr::FieldKind::kDouble:
    case clr::FieldKind::kFileTime: return 8;
    case clr::FieldKind::kGuid:
    case clr::FieldKind::kSystemTime: return 16;
    case clr::FieldKind::kPointer: return pointerSize == 4 || pointerSize == 8 ? pointerSize : 0;
    default: return 0;
  }
}

// The integer at p as the template decoder stores it: signed kinds sign-extended.
uint64_t ReadInteger(clr::FieldKind kind, const uint8_t* p, size_t size) {
  uint64_t raw = 0;
  std::memcpy(&raw, p, size);  // little-endian hosts only, as everywhere here
  switch (kind) {
    case clr::FieldKind::kInt8: return static_cast<uint64_t>(int64_t{static_cast<int8_t>(raw)});
    case clr::FieldKind::kInt16: return static_cast<uint64_t>(int64_t{static_cast<int16_t>(raw)});
    case clr::FieldKind::kInt32: return static_cast<uint64_t>(int64_t{static_cast<int32_t>(raw)});
    default: return raw;
  }
}

bool IsInteger(clr::FieldKind kind) {
  switch (kind) {
    case clr::FieldKind::kUInt8:
    case clr::FieldKind::kInt8:
    case clr::FieldKind::kUInt16:
    case clr::FieldKind::kInt16:
    case clr::FieldKind::kUInt32:
    case clr::FieldKind::kInt32:
    case clr::FieldKind::kUInt64:
    case clr::FieldKind::kInt64:
    case clr::FieldKind::kPointer: return true;
    default: return false;
  }
}

}  // namespace

namespace {

// Where the first top-level field named `name` starts, when every field before it has a fixed
// size; nullptr when that is not answerable here.
const clr::Field* Locate(const EventMetadata& metadata, uint32_t pointerSize, std::string_view name, size_t* offset) {
  // Metadata that describes fields is decoded by it; GC/DynamicEvent is re-decoded by its
  // inner name and ExceptionThrown may omit a field: those stay DecodePayload's.
  if (!metadata.fields.empty()) return nullptr;
  const clr::Provider provider = TemplateProviderOf(metadata.providerName);
  if (provider == clr::Provider::kNone) return nullptr;
  if (provider == clr::Provider::kRuntime && (metadata.eventId == 80 || metadata.eventId == clr::kGcDynamicEventId))
    return nullptr;
  const clr::EventInfo* info = clr::FindEvent(provider, metadata.eventId, metadata.version);
  if (!info || !info->layoutKnown) return nullptr;
  *offset = 0;
  for (uint16_t i = 0, top = 0; top < info->topLevelFieldCount && i < info->fieldCount; ++top) {
    const clr::Field& f = info->fields[i];
    if (name == f.name) return &f;
    const size_t size = FixedSize(f, pointerSize);
    if (size == 0) return nullptr;  // a top-level field of fixed size has no members to skip
    *offset += size;
    ++i;
  }
  return nullptr;
}

}  // namespace

ClrFieldRead ReadClrIntegerField(const EventMetadata& metadata, std::span<const uint8_t> payload,
                                 uint32_t pointerSize, std::string_view name) {
  size_t offset = 0;
  const clr::Field* f = Locate(metadata, pointerSize, name, &offset);
  if (!f || !IsInteger(f->kind)) return {};
  const size_t size = FixedSize(*f, pointerSize);
  if (size == 0) return {};
  // Ending before the field ends leaves DecodePayload without it, or with an error value.
  if (payload.size() < offset + size) return {Result::kAbsent, 0};
  return {Result::kValue, ReadInteger(f->kind, payload.data() + offset, size)};
}

ClrStringRead ReadClrStringField(const EventMetadata& metadata, std::span<const uint8_t> payload,
                                 uint32_t pointerSize, std::string_view name) {
  ClrStringRead out;
  size_t offset = 0;
  const clr::Field* f = Locate(metadata, pointerSize, name, &offset);
  if (!f || f->kind != clr::FieldKind::kUnicodeString || f->countField >= 0 || f->fixedCount > 0) return out;
  if (payload.size() < offset) return out;  // DecodePayload stopped earlier: its error, its answer
  ByteCursor c(payload.subspan(offset), 0);
  std::span<const uint8_t> units;
  if (!c.ReadNullTerminatedUtf16Bytes(&units)) return out;  // no terminator: an error value there
  out.result = Result::kValue;
  out.utf16 = units;
  return out;
}

}  // namespace nettrace
