// core/base — a range of the trace file's bytes, as a caller reads it again (event blocks,
// method names kept in source).
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

namespace nettrace {

struct ByteRange {
  uint64_t offset = 0;
  uint64_t size = 0;
};

// Reads `size` bytes at `offset` of the trace file into *out; false on failure. How a
// caller that can read the file again hands the engine a way to (fread; the browser's
// Blob.slice() is asynchronous and provides ranges itself instead).
using BlockReader = std::function<bool(uint64_t offset, uint64_t size, std::vector<uint8_t>* out)>;

}  // namespace nettrace
