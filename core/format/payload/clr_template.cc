#include "format/payload/clr_template.h"

#include <cstring>
#include <limits>


namespace nettrace::payload {

namespace {

using clr::Field;
using clr::FieldKind;

constexpr size_t kHuge = std::numeric_limits<size_t>::max() / 4;
size_t SatMul(size_t a, size_t b) { return (b != 0 && a > kHuge / b) ? kHuge : a * b; }

// Walks one template's flattened field array: each struct is immediately followed by its
// members (clr_events.generated.h Field::firstChild/childCount), so a field's subtree is
// a contiguous index range.
class ClrWalker {
 public:
  ClrWalker(const clr::EventInfo& info, uint32_t pointerSize, DecodeState& s)
      : info_(info), ptr_(pointerSize), s_(s), counts_(info.fieldCount, 0), known_(info.fieldCount, false) {}

  ClrDecodeResult DecodeTop(ByteCursor& c, std::vector<PayloadField>* out) {
    ClrDecodeResult r;
    out->reserve(info_.topLevelFieldCount);
    size_t i = 0;
    for (uint16_t top = 0; top < info_.topLevelFieldCount && i < info_.fieldCount; ++top) {
      const Field& f = info_.fields[i];
      // Ended exactly between fields: a payload of an older version of the event.
      if (c.empty() && MinSize(i, 0) > 0) {
        s_.shorter = true;
        return r;
      }
      out->push_back({f.name, {}, f.enumType});
      PayloadValue& v = out->back().value;
      // ExceptionThrown: runtimes before .NET 6 leave out an EMPTY ExceptionMessage
      // altogether (notes-metadata-and-event-blocks.txt). What follows the message is
      // ExceptionEIP (pointer), HRESULT (u32), Flags (u16), ClrInstanceID (u16): if exactly
      // that much is left, the message is absent and means "".
      if (info_.provider == clr::Provider::kRuntime && info_.id == 80 && std::strcmp(f.name, "ExceptionMessage") == 0 &&
          c.remaining() == size_t{ptr_} + 8) {
        v = PayloadValue::String("");
        r.exceptionMessageOmitted = true;
      } else if (DecodeField(i, c, 0, &v) == Step::kStop) {
        r.stopped = true;
        return r;
      }
      i = SubtreeEnd(i, 0);
    }
    return r;
  }

 private:
  // Index just past field i and, for a struct, all its members.
  size_t SubtreeEnd(size_t i, int depth) const {
    const Field& f = info_.fields[i];
    if (f.kind != FieldKind::kStruct || f.childCount == 0 || depth > kMaxPayloadDepth) return i + 1;
    size_t j = f.firstChild;
    for (uint16_t k = 0; k < f.childCount && j < info_.fieldCount; ++k) j = SubtreeEnd(j, depth + 1);
    return j;
  }

  size_t ScalarSize(FieldKind k) const {
    switch (k) {
      case FieldKind::kUInt8:
      case FieldKind::kInt8: return 1;
      case FieldKind::kUInt16:
      case FieldKind::kInt16: return 2;
      case FieldKind::kUInt32:
      case FieldKind::kInt32:
      case FieldKind::kFloat:
      case FieldKind::kBool32: return 4;
      case FieldKind::kUInt64:
      case FieldKind::kInt64:
      case FieldKind::kDouble:
      case FieldKind::kFileTime: return 8;
      case FieldKind::kPointer: return ptr_;
      case FieldKind::kGuid:
      case FieldKind::kSystemTime: return 16;
      case FieldKind::kUnicodeString: return 2;  // at least the terminator
      case FieldKind::kAnsiString: return 1;
      default: return 0;  // binary (length given elsewhere), struct
    }
  }

  // Fewest bytes one element of field i takes.
  size_t ElementMinSize(size_t i, int depth) const {
    const Field& f = info_.fields[i];
    if (f.kind != FieldKind::kStruct) return f.kind == FieldKind::kBinary ? 1 : ScalarSize(f.kind);
    size_t total = 0, j = f.firstChild;
    for (uint16_t k = 0; k < f.childCount && j < info_.fieldCount && depth <= kMaxPayloadDepth; ++k) {
      total += MinSize(j, depth + 1);
      j = SubtreeEnd(j, depth + 1);
    }
    return total;
  }

  // Fewest bytes field i takes as a whole (a counted field may have 0 elements).
  size_t MinSize(size_t i, int depth) const {
    const Field& f = info_.fields[i];
    if (f.countField >= 0) return 0;
    if (f.fixedCount > 0) return SatMul(f.fixedCount, ElementMinSize(i, depth));
    return f.kind == FieldKind::kBinary ? 0 : ElementMinSize(i, depth);
  }

  Step DecodeField(size_t i, ByteCursor& c, int depth, PayloadValue* out) {
    if (depth > kMaxPayloadDepth) {
      *out = s_.Error("template nests deeper than 32 levels");
      return Step::kStop;
    }
    const Field& f = info_.fields[i];
    bool counted = f.countField >= 0 || f.fixedCount > 0;
    uint64_t count = f.fixedCount;
    if (f.countField >= 0) {
      if (static_cast<size_t>(f.countField) >= info_.fieldCount || !known_[f.countField]) {
        *out = s_.Error("count field of " + std::string(f.name) + " was not decoded");
        return Step::kStop;
      }
      count = counts_[f.countField];
    }
    if (f.kind == FieldKind::kBinary) {
      // win:Binary: `count` bytes (its length= attribute).
      if (!counted) {
        *out = s_.Error("binary field without a length");
        return Step::kStop;
      }
      if (count > c.remaining()) {
        *out = s_.Truncated(c, count, "binary field");
        return Step::kStop;
      }
      if (!s_.TakeBudget(out)) return Step::kStop;
      *out = PayloadValue::Bytes(c.current(), count);
      c.Skip(count);
      return Step::kOk;
    }
    if (!counted) return DecodeElement(i, c, depth, out);
    // A counted array / struct array: check the count against the bytes left first.
    size_t min = ElementMinSize(i, depth);
    if (SatMul(count > kHuge ? kHuge : count, min) > c.remaining()) {
      *out = s_.Truncated(c, SatMul(count > kHuge ? kHuge : count, min),
                          (std::to_string(count) + " elements of " + f.name).c_str());
      return Step::kStop;
    }
    if (count > s_.budget) {
      *out = s_.Error(std::to_string(count) + " elements of " + f.name + " exceed this payload's value budget");
      return Step::kStop;
    }
    if (!s_.TakeBudget(out)) return Step::kStop;
    std::vector<PayloadValue> items;
    items.reserve(count);
    for (uint64_t k = 0; k < count; ++k) {
      items.emplace_back();
      Step st = DecodeElement(i, c, depth + 1, &items.back());
      if (st != Step::kOk) {
        *out = PayloadValue::Array(std::move(items));
        return st;
      }
    }
    *out = PayloadValue::Array(std::move(items));
    return Step::kOk;
  }

  // One element of field i: a struct's members, or one scalar/string.
  Step DecodeElement(size_t i, ByteCursor& c, int depth, PayloadValue* out) {
    if (!s_.TakeBudget(out)) return Step::kStop;
    const Field& f = info_.fields[i];
    if (f.kind == FieldKind::kStruct) {
      std::vector<PayloadField> members;
      size_t j = f.firstChild;
      for (uint16_t k = 0; k < f.childCount && j < info_.fieldCount; ++k) {
        members.push_back({info_.fields[j].name, {}});
        Step st = DecodeField(j, c, depth + 1, &members.back().value);
        if (st == Step::kStop) {
          *out = PayloadValue::Object(std::move(members));
          return st;
        }
        j = SubtreeEnd(j, depth + 1);
      }
      *out = PayloadValue::Object(std::move(members));
      return Step::kOk;
    }
    if (f.kind == FieldKind::kPointer && ptr_ != 4 && ptr_ != 8) {
      *out = s_.Error("pointer field with an unknown pointer size " + std::to_string(ptr_));
      return Step::kStop;
    }
    if (f.kind == FieldKind::kUnicodeString) {
      std::string text;
      if (!c.ReadNullTerminatedUtf16(&text)) {
        *out = s_.Truncated(c, c.remaining() + 2, "NUL-terminated UTF-16 string");
        return Step::kStop;
      }
      *out = PayloadValue::String(std::move(text));
      return Step::kOk;
    }
    if (f.kind == FieldKind::kAnsiString) {
      const void* nul = std::memchr(c.current(), 0, c.remaining());
      if (!nul) {
        *out = s_.Truncated(c, c.remaining() + 1, "NUL-terminated ANSI string");
        return Step::kStop;
      }
      size_t n = static_cast<const uint8_t*>(nul) - c.current();
      *out = PayloadValue::String(std::string(reinterpret_cast<const char*>(c.current()), n));
      c.Skip(n + 1);
      return Step::kOk;
    }
    size_t need = ScalarSize(f.kind);
    if (c.remaining() < need) {
      *out = s_.Truncated(c, need, "field");
      return Step::kStop;
    }
    uint64_t raw = 0;  // integer value, kept for fields that count later ones
    bool integer = true;
    switch (f.kind) {
      case FieldKind::kUInt8: { uint8_t v = 0; c.ReadU8(&v); raw = v; *out = PayloadValue::UInt(v, 1, f.hex); break; }
      case FieldKind::kInt8: { uint8_t v = 0; c.ReadU8(&v); raw = v; *out = PayloadValue::Int(static_cast<int8_t>(v), 1, f.hex); break; }
      case FieldKind::kUInt16: { uint16_t v = 0; c.ReadU16(&v); raw = v; *out = PayloadValue::UInt(v, 2, f.hex); break; }
      case FieldKind::kInt16: { int16_t v = 0; c.ReadI16(&v); raw = static_cast<uint16_t>(v); *out = PayloadValue::Int(v, 2, f.hex); break; }
      case FieldKind::kUInt32: { uint32_t v = 0; c.ReadU32(&v); raw = v; *out = PayloadValue::UInt(v, 4, f.hex); break; }
      case FieldKind::kInt32: { int32_t v = 0; c.ReadI32(&v); raw = static_cast<uint32_t>(v); *out = PayloadValue::Int(v, 4, f.hex); break; }
      case FieldKind::kUInt64: { uint64_t v = 0; c.ReadU64(&v); raw = v; *out = PayloadValue::UInt(v, 8, f.hex); break; }
      case FieldKind::kInt64: { int64_t v = 0; c.ReadI64(&v); raw = static_cast<uint64_t>(v); *out = PayloadValue::Int(v, 8, f.hex); break; }
      case FieldKind::kPointer: {
        uint64_t v = 0;
        if (ptr_ == 4) { uint32_t v32 = 0; c.ReadU32(&v32); v = v32; } else { c.ReadU64(&v); }
        raw = v;
        *out = PayloadValue::UInt(v, static_cast<uint8_t>(ptr_), true);
        break;
      }
      case FieldKind::kBool32: { uint32_t v = 0; c.ReadU32(&v); raw = v; *out = PayloadValue::Bool(v != 0, 4); break; }
      case FieldKind::kFloat: {
        float v = 0; std::memcpy(&v, c.current(), 4); c.Skip(4);
        *out = PayloadValue::Double(v, true); integer = false; break;
      }
      case FieldKind::kDouble: {
        double v = 0; std::memcpy(&v, c.current(), 8); c.Skip(8);
        *out = PayloadValue::Double(v); integer = false; break;
      }
      case FieldKind::kGuid: *out = ReadGuidValue(c); integer = false; break;
      case FieldKind::kSystemTime: ReadDateTime(c, 16, out); integer = false; break;
      case FieldKind::kFileTime: ReadDateTime(c, 8, out); integer = false; break;
      default:
        *out = s_.Error("unsupported template field kind " + std::to_string(static_cast<int>(f.kind)));
        return Step::kStop;
    }
    if (integer) {
      counts_[i] = raw;
      known_[i] = true;
    }
    return Step::kOk;
  }

  const clr::EventInfo& info_;
  uint32_t ptr_;
  DecodeState& s_;
  // Last decoded value of each integer field, for countField references.
  std::vector<uint64_t> counts_;
  std::vector<bool> known_;
};

}  // namespace

ClrDecodeResult DecodeClrTemplate(const clr::EventInfo& info, uint32_t pointerSize, DecodeState& s, ByteCursor& c,
                                  std::vector<PayloadField>* out) {
  if (info.fieldCount == 0 || info.fields == nullptr) return {};
  ClrWalker walker(info, pointerSize, s);
  return walker.DecodeTop(c, out);
}

}  // namespace nettrace::payload
