// core/dataset — SHA-256 (FIPS 180-4), streamed: a trace's id in the dataset is the SHA-256
// of its file's bytes, in lower-case hex, so `sha256sum trace.nettrace` names its partition
// (docs/dataset.md "Trace id"). Chunks of any size, in order; Hex() ends the stream.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

namespace nettrace {

class Sha256 {
 public:
  Sha256();
  void Update(const uint8_t* data, size_t size);
  std::array<uint8_t, 32> Digest();  // pads and ends; call once
  std::string Hex();                 // Digest() as 64 lower-case hex digits

 private:
  void Block(const uint8_t* block);

  std::array<uint32_t, 8> h_;
  std::array<uint8_t, 64> buffer_{};
  size_t buffered_ = 0;
  uint64_t length_ = 0;  // bytes hashed
};

}  // namespace nettrace
