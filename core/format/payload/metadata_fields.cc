#include "format/payload/metadata_fields.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <optional>


namespace nettrace::payload {

namespace {

constexpr size_t kHuge = std::numeric_limits<size_t>::max() / 4;

size_t SatMul(size_t a, size_t b) { return (b != 0 && a > kHuge / b) ? kHuge : a * b; }
size_t SatAdd(size_t a, size_t b) { return a + b > kHuge ? kHuge : a + b; }

bool IsCodeUnit(TypeCode t) { return t == TypeCode::kUTF8CodeUnit || t == TypeCode::kUTF16CodeUnit; }

// Size of a scalar type code, 0 for the others.
size_t ScalarSize(TypeCode t, uint8_t dateTimeWidth) {
  switch (t) {
    case TypeCode::kSByte:
    case TypeCode::kByte:
    case TypeCode::kUTF8CodeUnit:
    case TypeCode::kBoolean8: return 1;
    case TypeCode::kInt16:
    case TypeCode::kUInt16:
    case TypeCode::kUTF16CodeUnit: return 2;
    case TypeCode::kInt32:
    case TypeCode::kUInt32:
    case TypeCode::kSingle:
    case TypeCode::kBoolean32:
    case TypeCode::kRelLoc:
    case TypeCode::kDataLoc: return 4;
    case TypeCode::kInt64:
    case TypeCode::kUInt64:
    case TypeCode::kDouble: return 8;
    case TypeCode::kGuid: return 16;
    case TypeCode::kDateTime: return dateTimeWidth;
    default: return 0;
  }
}

// NetTraceFormat.md §MetadataBlock, fixed-size rule: Object iff all fields are,
// FixedLengthArray iff its element is; Array and NullTerminatedUTF16String are not; nor
// are VarInt/VarUInt (format-pitfalls.md §11). RelLoc/DataLoc are 4 bytes themselves.
std::optional<size_t> FixedSize(const FieldType& t, uint8_t dtw, int depth) {
  if (depth > kMaxPayloadDepth) return std::nullopt;
  if (size_t n = ScalarSize(t.code, dtw)) return n;
  if (t.code == TypeCode::kFixedLengthArray && t.element.size() == 1) {
    auto e = FixedSize(t.element[0], dtw, depth + 1);
    if (!e) return std::nullopt;
    return SatMul(*e, t.fixedLength);
  }
  if (t.code == TypeCode::kObject) {
    size_t total = 0;
    for (const auto& f : t.fields) {
      auto n = FixedSize(f.type, dtw, depth + 1);
      if (!n) return std::nullopt;
      total = SatAdd(total, *n);
    }
    return total;
  }
  return std::nullopt;
}

// The fewest bytes a value of type t can take: bounds an element count by the bytes left
// before anything proportional to the count is allocated.
size_t MinSize(const FieldType& t, uint8_t dtw, int depth) {
  if (depth > kMaxPayloadDepth) return 0;
  if (size_t n = ScalarSize(t.code, dtw)) return n;
  switch (t.code) {
    case TypeCode::kNullTerminatedUTF16String:
    case TypeCode::kArray: return 2;  // the terminator / the uint16 count
    case TypeCode::kVarInt:
    case TypeCode::kVarUInt: return 1;
    case TypeCode::kFixedLengthArray:
      return t.element.size() == 1 ? SatMul(MinSize(t.element[0], dtw, depth + 1), t.fixedLength) : 0;
    case TypeCode::kObject: {
      size_t total = 0;
      for (const auto& f : t.fields) total = SatAdd(total, MinSize(f.type, dtw, depth + 1));
      return total;
    }
    default: return 0;
  }
}

Step DecodeValue(const FieldType& t, DecodeState& s, ByteCursor& c, int depth, PayloadValue* out);

// `count` elements of `element`, no prefix (Array after its count, FixedLengthArray,
// RelLoc/DataLoc ranges). Code units become one string (v6-test-scenarios.md §B 9-11),
// bytes one byte blob.
Step DecodeElements(const FieldType& element, size_t count, DecodeState& s, ByteCursor& c, int depth,
                    PayloadValue* out) {
  if (IsCodeUnit(element.code)) {
    size_t unit = element.code == TypeCode::kUTF8CodeUnit ? 1 : 2;
    if (SatMul(count, unit) > c.remaining()) {
      *out = s.Truncated(c, count * unit, "string of code units");
      return Step::kStop;
    }
    std::span<const uint8_t> bytes;
    c.ReadBytes(count * unit, &bytes);
    *out = unit == 1 ? PayloadValue::String(std::string(reinterpret_cast<const char*>(bytes.data()), bytes.size()))
                     : Utf16Value(bytes.data(), count);
    return Step::kOk;
  }
  if (element.code == TypeCode::kByte) {
    // byte[] is one blob (TraceEvent shows it as hex bytes too), not a value per byte.
    if (count > c.remaining()) {
      *out = s.Truncated(c, count, "byte array");
      return Step::kStop;
    }
    *out = PayloadValue::Bytes(c.current(), count);
    c.Skip(count);
    return Step::kOk;
  }
  size_t min = MinSize(element, s.dateTimeWidth, depth);
  if (SatMul(count, min) > c.remaining()) {
    *out = s.Truncated(c, SatMul(count, min), ("array of " + std::to_string(count) + " elements").c_str());
    return Step::kStop;
  }
  if (count > s.budget) {
    *out = s.Error("array of " + std::to_string(count) + " elements exceeds this payload's value budget");
    return Step::kStop;
  }
  std::vector<PayloadValue> items;
  items.reserve(count);  // bounded: count * min <= remaining, count <= budget
  for (size_t i = 0; i < count; ++i) {
    items.emplace_back();
    Step st = DecodeValue(element, s, c, depth + 1, &items.back());
    if (st != Step::kOk) {
      *out = PayloadValue::Array(std::move(items));
      return st;
    }
  }
  *out = PayloadValue::Array(std::move(items));
  return Step::kOk;
}

// RelLoc / DataLoc: 4 bytes, size in the high 16 bits, offset in the low 16; RelLoc counts
// from the end of its own field, DataLoc from the payload start (NetTraceFormat.md
// §MetadataBlock; format-pitfalls.md §12). A bad reference spoils only this field: the
// walk goes on after its 4 bytes (v6-test-scenarios.md §B 13).
Step DecodeLocation(const FieldType& t, DecodeState& s, ByteCursor& c, int depth, PayloadValue* out) {
  uint32_t loc = 0;
  if (!c.ReadU32(&loc)) {
    *out = s.Truncated(c, 4, t.code == TypeCode::kRelLoc ? "RelLoc" : "DataLoc");
    return Step::kStop;
  }
  size_t size = loc >> 16;
  size_t start = (t.code == TypeCode::kRelLoc ? c.fileOffset() : 0) + (loc & 0xFFFF);
  if (t.element.size() != 1) {
    *out = s.Error("location without an element type");
    return Step::kSkipped;
  }
  auto elementSize = FixedSize(t.element[0], s.dateTimeWidth, depth + 1);
  if (!elementSize) {
    *out = s.Error("location of a variable-size element type");
    return Step::kSkipped;
  }
  if (start > s.payload.size() || size > s.payload.size() - start) {
    *out = s.Error("location " + std::to_string(start) + "+" + std::to_string(size) + " is outside the " +
                   std::to_string(s.payload.size()) + "-byte payload");
    return Step::kSkipped;
  }
  if (*elementSize == 0 ? size != 0 : size % *elementSize != 0) {
    *out = s.Error("location size " + std::to_string(size) + " is not a multiple of the element size " +
                   std::to_string(*elementSize));
    return Step::kSkipped;
  }
  s.referencedEnd = std::max(s.referencedEnd, start + size);
  ByteCursor sub(s.payload.subspan(start, size), start);
  size_t count = *elementSize == 0 ? 0 : size / *elementSize;
  Step st = DecodeElements(t.element[0], count, s, sub, depth, out);
  return st == Step::kOk ? Step::kOk : Step::kSkipped;
}

Step DecodeFieldList(const std::vector<FieldDescription>& fields, DecodeState& s, ByteCursor& c, int depth,
                     std::vector<PayloadField>* out) {
  out->reserve(fields.size());
  for (const auto& f : fields) {
    out->push_back({f.name, {}});
    Step st = DecodeValue(f.type, s, c, depth + 1, &out->back().value);
    if (st == Step::kStop) return st;
  }
  return Step::kOk;
}

template <typename T>
bool ReadRaw(ByteCursor& c, T* v) {
  std::span<const uint8_t> b;
  if (!c.ReadBytes(sizeof(T), &b)) return false;
  std::memcpy(v, b.data(), sizeof(T));
  return true;
}

Step DecodeValue(const FieldType& t, DecodeState& s, ByteCursor& c, int depth, PayloadValue* out) {
  if (depth > kMaxPayloadDepth) {
    *out = s.Error("values nest deeper than 32 levels");
    return Step::kStop;
  }
  if (!s.TakeBudget(out)) {
    s.hasErrors = true;
    return Step::kStop;
  }
  size_t need = ScalarSize(t.code, s.dateTimeWidth);
  if (need != 0 && t.code != TypeCode::kRelLoc && t.code != TypeCode::kDataLoc && c.remaining() < need) {
    *out = s.Truncated(c, need, "field");
    return Step::kStop;
  }
  switch (t.code) {
    case TypeCode::kBoolean8: { uint8_t v = 0; c.ReadU8(&v); *out = PayloadValue::Bool(v != 0, 1); return Step::kOk; }
    case TypeCode::kBoolean32: { uint32_t v = 0; c.ReadU32(&v); *out = PayloadValue::Bool(v != 0, 4); return Step::kOk; }
    case TypeCode::kSByte: { uint8_t v = 0; c.ReadU8(&v); *out = PayloadValue::Int(static_cast<int8_t>(v), 1); return Step::kOk; }
    case TypeCode::kByte: { uint8_t v = 0; c.ReadU8(&v); *out = PayloadValue::UInt(v, 1); return Step::kOk; }
    case TypeCode::kInt16: { int16_t v = 0; c.ReadI16(&v); *out = PayloadValue::Int(v, 2); return Step::kOk; }
    case TypeCode::kUInt16: { uint16_t v = 0; c.ReadU16(&v); *out = PayloadValue::UInt(v, 2); return Step::kOk; }
    case TypeCode::kInt32: { int32_t v = 0; c.ReadI32(&v); *out = PayloadValue::Int(v, 4); return Step::kOk; }
    case TypeCode::kUInt32: { uint32_t v = 0; c.ReadU32(&v); *out = PayloadValue::UInt(v, 4); return Step::kOk; }
    case TypeCode::kInt64: { int64_t v = 0; c.ReadI64(&v); *out = PayloadValue::Int(v, 8); return Step::kOk; }
    case TypeCode::kUInt64: { uint64_t v = 0; c.ReadU64(&v); *out = PayloadValue::UInt(v, 8); return Step::kOk; }
    case TypeCode::kSingle: { float v = 0; ReadRaw(c, &v); *out = PayloadValue::Double(v, true); return Step::kOk; }
    case TypeCode::kDouble: { double v = 0; ReadRaw(c, &v); *out = PayloadValue::Double(v); return Step::kOk; }
    case TypeCode::kUTF8CodeUnit: { uint8_t v = 0; c.ReadU8(&v); *out = Utf8UnitValue(v); return Step::kOk; }
    case TypeCode::kUTF16CodeUnit: { *out = Utf16Value(c.current(), 1); c.Skip(2); return Step::kOk; }
    case TypeCode::kGuid: *out = ReadGuidValue(c); return Step::kOk;
    case TypeCode::kDateTime:
      s.sawDateTime = true;
      ReadDateTime(c, s.dateTimeWidth, out);
      return Step::kOk;
    case TypeCode::kNullTerminatedUTF16String: {
      std::string text;
      if (!c.ReadNullTerminatedUtf16(&text)) {
        *out = s.Truncated(c, c.remaining() + 2, "NUL-terminated UTF-16 string");
        return Step::kStop;
      }
      *out = PayloadValue::String(std::move(text));
      return Step::kOk;
    }
    case TypeCode::kVarInt: {
      int64_t v = 0;
      if (!c.ReadVarInt64(&v)) {
        *out = s.Truncated(c, c.remaining() + 1, "VarInt");
        return Step::kStop;
      }
      *out = PayloadValue::Int(v, 0);
      return Step::kOk;
    }
    case TypeCode::kVarUInt: {
      uint64_t v = 0;
      if (!c.ReadVarUInt64(&v)) {
        *out = s.Truncated(c, c.remaining() + 1, "VarUInt");
        return Step::kStop;
      }
      *out = PayloadValue::UInt(v, 0);
      return Step::kOk;
    }
    case TypeCode::kArray: {
      // A uint16 element count, then the elements (v5 V2Params arrays alike).
      uint16_t count = 0;
      if (t.element.size() != 1) break;
      if (!c.ReadU16(&count)) {
        *out = s.Truncated(c, 2, "array count");
        return Step::kStop;
      }
      return DecodeElements(t.element[0], count, s, c, depth, out);
    }
    case TypeCode::kFixedLengthArray:
      if (t.element.size() != 1) break;
      return DecodeElements(t.element[0], t.fixedLength, s, c, depth, out);
    case TypeCode::kRelLoc:
    case TypeCode::kDataLoc: return DecodeLocation(t, s, c, depth, out);
    case TypeCode::kObject: {
      std::vector<PayloadField> fields;
      Step st = DecodeFieldList(t.fields, s, c, depth, &fields);
      *out = PayloadValue::Object(std::move(fields));
      return st;
    }
    default: break;
  }
  // Empty, DBNull, Decimal, unknown codes or a malformed type: the size is unknown.
  *out = s.Error("cannot decode type code " + std::to_string(static_cast<int>(t.code)));
  return Step::kStop;
}

}  // namespace

bool ContainsDateTime(const std::vector<FieldDescription>& fields, int depth) {
  if (depth > kMaxPayloadDepth) return false;
  for (const auto& f : fields) {
    const FieldType* t = &f.type;
    // Walk down element types (Array<Array<DateTime>>…), bounded by the depth limit.
    for (int d = depth; d <= kMaxPayloadDepth && t->element.size() == 1; ++d) t = &t->element[0];
    if (t->code == TypeCode::kDateTime) return true;
    if (t->code == TypeCode::kObject && ContainsDateTime(t->fields, depth + 1)) return true;
  }
  return false;
}

void DecodeMetadataFields(const std::vector<FieldDescription>& fields, DecodeState& s, ByteCursor& c,
                          std::vector<PayloadField>* out, bool* stopped) {
  *stopped = false;
  out->reserve(fields.size());
  for (const auto& f : fields) {
    // Ended exactly between fields: an older/shorter layout, not a broken field.
    if (c.empty() && MinSize(f.type, s.dateTimeWidth, 0) > 0) {
      s.shorter = true;
      return;
    }
    out->push_back({f.name, {}});
    if (DecodeValue(f.type, s, c, 0, &out->back().value) == Step::kStop) {
      *stopped = true;
      return;
    }
  }
}

}  // namespace nettrace::payload
