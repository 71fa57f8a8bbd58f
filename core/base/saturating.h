// core/base — sums of stack weights. A hostile trace can make weights (thread time over a
// huge gap, an allocation size field) whose sum does not fit uint64: a wrapped sum would
// put a flame-graph child outside its parent and show tiny totals. Saturating sums keep
// every partial sum <= the saturated total, so layouts stay nested.
#pragma once

#include <cstdint>

namespace nettrace {

inline uint64_t SatAdd(uint64_t a, uint64_t b) { return a > UINT64_MAX - b ? UINT64_MAX : a + b; }

}  // namespace nettrace
