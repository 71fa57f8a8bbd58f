// core/format/payload — the one way the analyses read fields of a CLR event: integers and
// strings where the manifest template puts them (clr_field_read), and DecodePayload, once,
// only when a field is not answerable there (metadata-described fields, a field of variable
// size before it). Runtime signals, GC statistics and symbol collection read AllocationTick,
// GC/Start, SuspendEEStart and MethodLoad through it, so a payload is never walked by hand
// and never decoded once per reader.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "format/payload/clr_field_read.h"
#include "format/payload_decoder.h"
#include "format/records.h"

namespace nettrace {

class ClrPayloadFields {
 public:
  // layout: BuildClrFieldLayout(m, pointerSize), as the resolver keeps it
  // (ResolvedType::clrLayout); null when the event has no template.
  ClrPayloadFields(const EventMetadata& m, const ClrFieldLayout* layout, std::span<const uint8_t> payload,
                   uint32_t pointerSize, int formatMajor)
      : m_(m), layout_(layout), payload_(payload), pointerSize_(pointerSize), formatMajor_(formatMajor) {}

  // The integer field `name` as DecodePayload's asUInt gives it; `fallback` when the event
  // has no such integer (an older template, a payload that ends before it).
  uint64_t UInt(std::string_view name, uint64_t fallback = 0);
  // The integer field `name`, or nullopt when the event has no such integer.
  std::optional<uint64_t> FindUInt(std::string_view name);
  // The same through a call site's field (its slot found once per layout): what the hot
  // readers (GC statistics, runtime signals, symbols) use.
  std::optional<uint64_t> FindUInt(ClrIntegerField& field) {
    if (!decoded_) {
      const ClrFieldRead r = field.Read(layout_, payload_);
      if (r.result == ClrFieldRead::Result::kValue) return r.value;
      if (r.result == ClrFieldRead::Result::kAbsent) return std::nullopt;
    }
    return DecodedUInt(field.name());
  }
  uint64_t UInt(ClrIntegerField& field, uint64_t fallback = 0) { return FindUInt(field).value_or(fallback); }
  // The string field `name` as UTF-8 into *out (its capacity is reused: no allocation per
  // event once it has grown); false when the event has no such string.
  bool Text(std::string_view name, std::string* out);
  // A string field's UTF-16 code units where the template puts them, unconverted, through a
  // call site's field (its slot found once per layout); false when Text must answer (a field
  // to decode, or none).
  bool Utf16InPlace(ClrStringField& field, std::span<const uint8_t>* units) const {
    if (decoded_) return false;
    const ClrStringRead r = field.Read(layout_, payload_);
    if (r.result != ClrFieldRead::Result::kValue) return false;
    *units = r.utf16;
    return true;
  }
  // Every field (decoded on first use, then kept).
  const DecodedPayload& Decoded();

 private:
  std::optional<uint64_t> DecodedUInt(std::string_view name);
  const EventMetadata& m_;
  const ClrFieldLayout* layout_;
  std::span<const uint8_t> payload_;
  uint32_t pointerSize_;
  int formatMajor_;
  std::optional<DecodedPayload> decoded_;
};

}  // namespace nettrace
