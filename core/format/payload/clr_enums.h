// core/format/payload — payload fields TraceEvent returns as .NET enums (GC/Start Reason,
// Loader/ModuleLoad ModuleFlags, …), rendered the way TraceEvent shows them: .NET's
// Enum.ToString() of the enum value TraceEvent derives from the field. The enums and which
// field uses which come from the generated table (clr_events.generated.h EnumInfo).
#pragma once

#include <cstdint>
#include <string>

#include "format/clr_events.generated.h"
#include "format/payload_value.h"

namespace nettrace::clr {

// The enum value TraceEvent converts a field's raw integer to, as the enum's storage bits
// (its underlying type as unsigned). TraceEvent reads 1-byte fields unsigned (GetByteAt) and
// 2-, 4-byte fields signed (GetInt16At / GetInt32At) before casting, then applies e.read.
uint64_t EnumStorage(const EnumInfo& e, uint64_t raw, uint8_t width);

// .NET's Enum.ToString() of the storage bits `storage`:
//   - a value equal to a member: that member's name;
//   - [Flags]: 0 is the 0-valued member's name, else "0"; otherwise the members whose bits are
//     all set, taken from the highest value down, joined ", " in ascending order — or the
//     number when bits no member covers remain;
//   - otherwise the number, in decimal, signed when the underlying type is.
std::string FormatEnum(const EnumInfo& e, uint64_t storage);

// The text TraceEvent shows for a decoded field of enum type `e`; "" when the value is not an
// integer (an error marker, say).
std::string FormatEnumField(const EnumInfo& e, const PayloadValue& v);

}  // namespace nettrace::clr
