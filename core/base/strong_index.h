// core/model — index types of the interned tables. Distinct types so a thread index can
// never be passed where a stack index is meant; 0 means "none" for stacks and labels
// (as in the file format).
#pragma once

#include <cstdint>

namespace nettrace {

template <typename Tag, typename Rep>
struct StrongIndex {
  Rep value = 0;
  constexpr StrongIndex() = default;
  constexpr explicit StrongIndex(Rep v) : value(v) {}
  friend constexpr bool operator==(StrongIndex a, StrongIndex b) { return a.value == b.value; }
  friend constexpr bool operator!=(StrongIndex a, StrongIndex b) { return a.value != b.value; }
  friend constexpr bool operator<(StrongIndex a, StrongIndex b) { return a.value < b.value; }
};

using EventTypeIndex = StrongIndex<struct EventTypeTag, uint16_t>;
using ThreadIndex = StrongIndex<struct ThreadTag, uint16_t>;
using StackIndex = StrongIndex<struct StackTag, uint32_t>;      // 0: no stack
using LabelListIndex = StrongIndex<struct LabelTag, uint32_t>;  // 0: no labels

}  // namespace nettrace
