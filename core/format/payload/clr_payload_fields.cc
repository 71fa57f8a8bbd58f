#include "format/payload/clr_payload_fields.h"

#include "format/payload/clr_field_read.h"
#include "io/byte_cursor.h"

namespace nettrace {

std::optional<uint64_t> ClrPayloadFields::FindUInt(std::string_view name) {
  if (!decoded_) {
    const ClrFieldRead r = ReadClrIntegerField(layout_, payload_, name);
    if (r.result == ClrFieldRead::Result::kValue) return r.value;
    if (r.result == ClrFieldRead::Result::kAbsent) return std::nullopt;
  }
  return DecodedUInt(name);
}

std::optional<uint64_t> ClrPayloadFields::DecodedUInt(std::string_view name) {
  const PayloadValue* v = Decoded().Find(name);
  if (!v || !v->isInteger()) return std::nullopt;
  return v->asUInt();
}

uint64_t ClrPayloadFields::UInt(std::string_view name, uint64_t fallback) { return FindUInt(name).value_or(fallback); }

bool ClrPayloadFields::Text(std::string_view name, std::string* out) {
  if (!decoded_) {
    const ClrStringRead r = ReadClrStringField(layout_, payload_, name);
    if (r.result == ClrFieldRead::Result::kValue) {
      out->clear();
      AppendUtf16AsUtf8(r.utf16.data(), r.utf16.size() / 2, out);
      return true;
    }
    if (r.result == ClrFieldRead::Result::kAbsent) return false;
  }
  const PayloadValue* v = Decoded().Find(name);
  if (!v || v->kind() != PayloadValue::Kind::kString) return false;
  out->assign(v->text());
  return true;
}

const DecodedPayload& ClrPayloadFields::Decoded() {
  if (!decoded_) decoded_ = DecodePayload(m_, payload_, pointerSize_, formatMajor_);
  return *decoded_;
}

}  // namespace nettrace
