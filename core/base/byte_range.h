// core/base — a range of the trace file's bytes, as a caller reads it again (event blocks,
// method names kept in source).
#pragma once

#include <cstdint>

namespace nettrace {

struct ByteRange {
  uint64_t offset = 0;
  uint64_t size = 0;
};

}  // namespace nettrace
