// Byte vectors written as lists of numbers and characters, for the dataset tests' expected
// encodings.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <vector>

namespace nettrace::parquet::test {

inline std::vector<uint8_t> Bytes(std::initializer_list<int> values) {
  std::vector<uint8_t> out;
  for (int v : values) out.push_back(static_cast<uint8_t>(v));
  return out;
}

}  // namespace nettrace::parquet::test
