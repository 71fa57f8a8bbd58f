#include "format/payload/clr_field_read.h"

#include <algorithm>
#include <cstring>

#include "format/clr_events.generated.h"
#include "format/payload_decoder.h"
#include "format/provider_family.h"
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

// The shift that sign-extends an integer of this kind and size from 64 bits: the template
// decoder sign-extends the signed kinds (Int8/16/32; Int64 needs none), 0 for the others.
uint8_t SignShift(clr::FieldKind kind, size_t size) {
  const bool isSigned = kind == clr::FieldKind::kInt8 || kind == clr::FieldKind::kInt16 || kind == clr::FieldKind::kInt32;
  return isSigned ? static_cast<uint8_t>(64 - 8 * size) : 0;
}

// The integer at p as the template decoder stores it.
uint64_t ReadInteger(clr::FieldKind kind, const uint8_t* p, size_t size) {
  uint64_t raw = 0;
  std::memcpy(&raw, p, size);  // little-endian hosts only, as everywhere here
  const uint8_t shift = SignShift(kind, size);
  return shift == 0 ? raw : static_cast<uint64_t>(static_cast<int64_t>(raw << shift) >> shift);
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

// Places the members of f, the first field of variable size at a fixed offset, when it is a
// counted array of structs whose members are all integers of fixed size.
void PlaceStructArray(const clr::EventInfo& info, const clr::Field& f, uint32_t pointerSize, ClrFieldLayout* layout) {
  if (f.kind != clr::FieldKind::kStruct || f.countField < 0 || f.fixedCount != 0 || f.childCount == 0) return;
  if (static_cast<size_t>(f.countField) >= info.fieldCount || f.firstChild + size_t{f.childCount} > info.fieldCount) return;
  std::vector<ClrFieldSlot> members;
  uint32_t size = 0;
  for (uint16_t k = 0; k < f.childCount; ++k) {
    const clr::Field& m = info.fields[f.firstChild + k];
    const size_t bytes = FixedSize(m, pointerSize);
    if (!IsInteger(m.kind) || bytes == 0) return;  // a member of variable size, a struct, a float...
    ClrFieldSlot slot;
    slot.name = m.name;
    slot.nameLength = static_cast<uint8_t>(std::min<size_t>(std::strlen(m.name), 255));
    slot.offset = size;
    slot.size = static_cast<uint8_t>(bytes);
    slot.kind = m.kind;
    members.push_back(slot);
    size += static_cast<uint32_t>(bytes);
  }
  layout->arrayName = f.name;
  layout->arrayCountName = info.fields[f.countField].name;
  layout->elementMembers = std::move(members);
  layout->elementSize = size;
}

}  // namespace

ClrFieldLayout BuildClrFieldLayout(const EventMetadata& metadata, uint32_t pointerSize, bool templateEvenIfDescribed) {
  ClrFieldLayout layout;
  // Metadata that describes fields is decoded by it; GC/DynamicEvent is re-decoded by its
  // inner name and ExceptionThrown may omit a field: those stay DecodePayload's.
  if (!metadata.fields.empty() && !templateEvenIfDescribed) return layout;
  const clr::Provider provider = ClrProviderOf(metadata.providerName);
  if (provider == clr::Provider::kNone) return layout;
  if (provider == clr::Provider::kRuntime && (metadata.eventId == 80 || metadata.eventId == clr::kGcDynamicEventId))
    return layout;
  const clr::EventInfo* info = clr::FindEvent(provider, metadata.eventId, metadata.version);
  if (!info || !info->layoutKnown) return layout;
  uint32_t offset = 0;  // from the payload's start, then from the end of the last string
  uint8_t strings = 0;  // plain strings placed so far
  layout.complete = true;
  for (uint16_t i = 0, top = 0; top < info->topLevelFieldCount && i < info->fieldCount; ++top, ++i) {
    const clr::Field& f = info->fields[i];
    ClrFieldSlot slot;
    slot.name = f.name;
    slot.nameLength = static_cast<uint8_t>(std::min<size_t>(std::strlen(f.name), 255));
    slot.offset = offset;
    slot.size = static_cast<uint8_t>(FixedSize(f, pointerSize));
    slot.kind = f.kind;
    slot.plainString = f.kind == clr::FieldKind::kUnicodeString && f.countField < 0 && f.fixedCount == 0;
    slot.stringsBefore = strings;
    layout.fields.push_back(slot);
    // A top-level field of fixed size has no members to skip. Strings are walked, but only
    // as one run: after other fields of variable size, or a string after fixed-size fields
    // that follow the run, nothing is placed.
    if (slot.size != 0) {
      offset += slot.size;
      continue;
    }
    if (!slot.plainString || (strings > 0 && offset != 0) || strings == 255) {
      layout.complete = top + 1 == info->topLevelFieldCount && i + 1 == info->fieldCount;
      if (strings == 0) PlaceStructArray(*info, f, pointerSize, &layout);
      break;
    }
    if (strings == 0) layout.stringsStart = offset;
    ++strings, offset = 0;
  }
  return layout;
}

namespace {

const ClrFieldSlot* Find(const ClrFieldLayout* layout, std::string_view name) {
  return layout ? layout->Find(name) : nullptr;
}

// Where slot f starts in this payload; false when a string before it does not end within
// the payload (DecodePayload then has an error value there, and nothing after it).
bool StartOf(const ClrFieldLayout& layout, const ClrFieldSlot& f, std::span<const uint8_t> payload, size_t* at) {
  if (f.stringsBefore == 0) {
    *at = f.offset;
    return true;
  }
  if (payload.size() < layout.stringsStart) return false;
  ByteCursor c(payload.subspan(layout.stringsStart), 0);
  std::span<const uint8_t> units;
  for (uint8_t k = 0; k < f.stringsBefore; ++k)
    if (!c.ReadNullTerminatedUtf16Bytes(&units)) return false;
  *at = layout.stringsStart + c.position() + f.offset;
  return true;
}

}  // namespace

const ClrFieldSlot* ClrFieldLayout::Find(std::string_view name) const {
  for (const ClrFieldSlot& f : fields)
    if (f.nameLength == name.size() && std::memcmp(f.name, name.data(), name.size()) == 0) return &f;
  return nullptr;
}

ClrFieldRead ReadClrIntegerField(const ClrFieldLayout* layout, std::span<const uint8_t> payload,
                                 std::string_view name) {
  const ClrFieldSlot* f = Find(layout, name);
  if (!f && layout && layout->complete) return {Result::kAbsent, 0};
  if (!f || f->size == 0 || !IsInteger(f->kind)) return {};
  size_t at = 0;
  if (!StartOf(*layout, *f, payload, &at)) return {};
  // Ending before the field ends leaves DecodePayload without it, or with an error value.
  if (payload.size() < at + f->size) return {Result::kAbsent, 0};
  return {Result::kValue, ReadInteger(f->kind, payload.data() + at, f->size)};
}

void ClrIntegerField::Bind(const ClrFieldLayout* layout) {
  layout_ = layout;
  const ClrFieldSlot* f = Find(layout, name_);
  absent_ = !f && layout && layout->complete;
  direct_ = f && f->size != 0 && f->size <= 8 && IsInteger(f->kind) && f->stringsBefore == 0;
  if (!direct_) return;
  offset_ = f->offset, size_ = f->size;
  signShift_ = SignShift(f->kind, f->size);
}

ClrFieldRead ReadClrIntegerField(const EventMetadata& metadata, std::span<const uint8_t> payload,
                                 uint32_t pointerSize, std::string_view name) {
  const ClrFieldLayout layout = BuildClrFieldLayout(metadata, pointerSize);
  return ReadClrIntegerField(&layout, payload, name);
}

namespace {

// The plain string named `name`, if the layout places one.
const ClrFieldSlot* FindPlainString(const ClrFieldLayout* layout, std::string_view name) {
  const ClrFieldSlot* f = Find(layout, name);
  return f && f->plainString ? f : nullptr;
}

}  // namespace

ClrStringRead ReadClrStringField(const ClrFieldLayout* layout, std::span<const uint8_t> payload,
                                 std::string_view name) {
  const ClrFieldSlot* f = FindPlainString(layout, name);
  return f ? ReadClrStringSlot(*layout, *f, payload) : ClrStringRead{};
}

void ClrStringField::Bind(const ClrFieldLayout* layout) {
  layout_ = layout;
  slot_ = FindPlainString(layout, name_);
}

ClrStringRead ReadClrStringSlot(const ClrFieldLayout& layout, const ClrFieldSlot& slot, std::span<const uint8_t> payload) {
  ClrStringRead out;
  size_t at = 0;
  if (!StartOf(layout, slot, payload, &at)) return out;
  if (payload.size() < at) return out;  // DecodePayload stopped earlier: its error, its answer
  ByteCursor c(payload.subspan(at), 0);
  std::span<const uint8_t> units;
  if (!c.ReadNullTerminatedUtf16Bytes(&units)) return out;  // no terminator: an error value there
  out.result = Result::kValue;
  out.utf16 = units;
  return out;
}

ClrStringRead ReadClrStringField(const EventMetadata& metadata, std::span<const uint8_t> payload,
                                 uint32_t pointerSize, std::string_view name) {
  const ClrFieldLayout layout = BuildClrFieldLayout(metadata, pointerSize);
  return ReadClrStringField(&layout, payload, name);
}

bool ReadClrStructArray(const ClrFieldLayout* layout, std::span<const uint8_t> payload, std::string_view name,
                        ClrStructArray* out) {
  if (!layout || layout->elementSize == 0 || name != layout->arrayName) return false;
  const ClrFieldSlot* array = layout->Find(name);
  if (!array || array->stringsBefore != 0) return false;
  const ClrFieldRead count = ReadClrIntegerField(layout, payload, layout->arrayCountName);
  if (count.result != ClrFieldRead::Result::kValue || array->offset > payload.size()) return false;
  if (count.value > (payload.size() - array->offset) / layout->elementSize) return false;  // ends inside it
  out->layout = layout;
  out->data = payload.data() + array->offset;
  out->count = static_cast<uint32_t>(count.value);
  return true;
}

uint64_t ClrStructArray::UInt(uint32_t i, std::string_view name) const {
  for (const ClrFieldSlot& m : layout->elementMembers)
    if (m.nameLength == name.size() && std::memcmp(m.name, name.data(), name.size()) == 0)
      return ReadInteger(m.kind, data + size_t{i} * layout->elementSize + m.offset, m.size);
  return 0;
}

}  // namespace nettrace
