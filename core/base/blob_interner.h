// core/base — interned byte strings: equal byte strings get one index, assigned in order of
// first appearance from 1 (index 0 is "none", the empty entry). Used for stack IP arrays
// (NetPerf's inline stacks in format/, every stack and label list in model/), so the
// bytes are kept once, in one arena, and looking one up allocates nothing: an
// open-addressing table of indices, with each entry's hash kept to skip most compares.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace nettrace {

class BlobInterner {
 public:
  BlobInterner();
  // The index of these bytes, adding them when new.
  uint32_t Intern(std::span<const uint8_t> bytes);
  // Whether the last Intern added its bytes (false when they were there already).
  bool lastAdded() const { return lastAdded_; }
  std::span<const uint8_t> Get(uint32_t index) const {
    return {arena_.data() + offsets_[index], offsets_[index + 1] - offsets_[index]};
  }
  size_t size() const { return offsets_.size() - 1; }  // including "none"
  size_t residentBytes() const;

 private:
  void Grow();

  std::vector<uint8_t> arena_;
  std::vector<size_t> offsets_;    // entry i spans [offsets_[i], offsets_[i+1])
  std::vector<uint64_t> hashes_;   // per entry
  std::vector<uint32_t> slots_;    // entry index, 0 = empty; size a power of two
  bool lastAdded_ = false;
};

}  // namespace nettrace
