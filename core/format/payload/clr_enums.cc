#include "format/payload/clr_enums.h"

#include <vector>

namespace nettrace::clr {

namespace {

uint64_t SizeMask(uint8_t size) { return size >= 8 ? ~uint64_t{0} : (uint64_t{1} << (8 * size)) - 1; }

uint64_t StorageOf(const EnumInfo& e, int64_t value) { return static_cast<uint64_t>(value) & SizeMask(e.size); }

// Storage bits as the underlying type's value, in decimal ("-1" for an int's 0xFFFFFFFF).
std::string Number(const EnumInfo& e, uint64_t storage) {
  if (!e.isSigned || e.size >= 8) {
    return e.isSigned ? std::to_string(static_cast<int64_t>(storage)) : std::to_string(storage);
  }
  const uint64_t sign = uint64_t{1} << (8 * e.size - 1);
  int64_t v = (storage & sign) ? static_cast<int64_t>(storage | ~SizeMask(e.size)) : static_cast<int64_t>(storage);
  return std::to_string(v);
}

// TraceEvent's IndexOfSetBit (GCPerHeapHistoryTraceData): 0 and indexes at or beyond `count`
// give the fallback ("not_specified").
int64_t LowestSetBitIndex(uint32_t bits, uint32_t count, int32_t fallback) {
  if (bits == 0) return fallback;
  uint32_t index = 0;
  while ((bits & 1u) == 0) {
    bits >>= 1;
    ++index;
  }
  return index < count ? static_cast<int64_t>(index) : fallback;
}

}  // namespace

uint64_t EnumStorage(const EnumInfo& e, uint64_t raw, uint8_t width) {
  int64_t v = 0;
  switch (width) {
    case 1: v = static_cast<int64_t>(raw & 0xFF); break;
    case 2: v = static_cast<int16_t>(static_cast<uint16_t>(raw)); break;
    case 4: v = static_cast<int32_t>(static_cast<uint32_t>(raw)); break;
    default: v = static_cast<int64_t>(raw); break;
  }
  switch (e.read) {
    case EnumRead::kValue: break;
    // (uint)GetInt32At(..) & mask: the mask applies to the 32-bit pattern.
    case EnumRead::kMasked: v = static_cast<int64_t>(static_cast<uint32_t>(v) & e.readParam); break;
    case EnumRead::kLowestSetBit: v = LowestSetBitIndex(static_cast<uint32_t>(v), e.readParam, e.readFallback); break;
  }
  return StorageOf(e, v);
}

std::string FormatEnum(const EnumInfo& e, uint64_t storage) {
  storage &= SizeMask(e.size);
  for (uint16_t i = 0; i < e.memberCount; ++i)
    if (StorageOf(e, e.members[i].value) == storage) return e.members[i].name;
  if (!e.flags) return Number(e, storage);
  // No member has this exact value; members[0] is the 0-valued one when there is one.
  if (storage == 0) return Number(e, storage);
  // .NET walks the members from the highest value down, taking each whose bits are all still
  // set, and gives up (prints the number) if bits remain.
  std::vector<const char*> found;  // descending
  uint64_t rest = storage;
  for (uint16_t i = e.memberCount; i-- > 0 && rest != 0;) {
    uint64_t bits = StorageOf(e, e.members[i].value);
    if (bits == 0 || (rest & bits) != bits) continue;
    rest &= ~bits;
    found.push_back(e.members[i].name);
  }
  if (rest != 0) return Number(e, storage);
  std::string out;
  for (size_t i = found.size(); i-- > 0;) {
    out += found[i];
    if (i) out += ", ";
  }
  return out;
}

std::string FormatEnumField(const EnumInfo& e, const PayloadValue& v) {
  if (!v.isInteger()) return "";
  return FormatEnum(e, EnumStorage(e, v.asUInt(), v.width()));
}

}  // namespace nettrace::clr
