// core/base — a map from 64-bit keys to 32-bit values with open addressing (linear probing,
// at most half full): 12 bytes a slot, where std::unordered_map spends a node of 24 bytes plus
// its allocation and a bucket pointer per entry. For the interning tables of call stacks and
// call-tree children, which hold an entry per stack frame: a stack 500,000 frames deep took
// 28 MB in an unordered_map. No erase (the tables only grow).
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace nettrace {

class FlatU64Map {
 public:
  // The value of `key`, inserted as `value` when absent; second: whether it was inserted.
  std::pair<uint32_t, bool> Emplace(uint64_t key, uint32_t value) {
    if (key == kEmpty) {  // the one key the table cannot hold in a slot
      const bool added = !hasEmptyKey_;
      if (added) hasEmptyKey_ = true, emptyKeyValue_ = value, ++size_;
      return {emptyKeyValue_, added};
    }
    if (2 * (size_ + 1) > keys_.size()) Grow();
    for (size_t i = Slot(key);; i = (i + 1) & (keys_.size() - 1)) {
      if (keys_[i] == key) return {values_[i], false};
      if (keys_[i] == kEmpty) {
        keys_[i] = key, values_[i] = value, ++size_;
        return {value, true};
      }
    }
  }
  const uint32_t* Find(uint64_t key) const {
    if (key == kEmpty) return hasEmptyKey_ ? &emptyKeyValue_ : nullptr;
    if (keys_.empty()) return nullptr;
    for (size_t i = Slot(key);; i = (i + 1) & (keys_.size() - 1)) {
      if (keys_[i] == key) return &values_[i];
      if (keys_[i] == kEmpty) return nullptr;
    }
  }
  size_t size() const { return size_; }

 private:
  static constexpr uint64_t kEmpty = ~uint64_t{0};
  size_t Slot(uint64_t key) const {
    // Fibonacci hashing: the high bits of the product, as many as the table has.
    return static_cast<size_t>((key * 0x9E3779B97F4A7C15ull) >> shift_);
  }
  void Grow() {
    std::vector<uint64_t> keys = std::move(keys_);
    std::vector<uint32_t> values = std::move(values_);
    const size_t capacity = keys.empty() ? 16 : keys.size() * 2;
    keys_.assign(capacity, kEmpty);
    values_.assign(capacity, 0);
    shift_ = 64;
    for (size_t c = capacity; c > 1; c >>= 1) --shift_;
    for (size_t i = 0; i < keys.size(); ++i) {
      if (keys[i] == kEmpty) continue;
      size_t j = Slot(keys[i]);
      while (keys_[j] != kEmpty) j = (j + 1) & (capacity - 1);
      keys_[j] = keys[i], values_[j] = values[i];
    }
  }
  std::vector<uint64_t> keys_;
  std::vector<uint32_t> values_;
  size_t size_ = 0;
  int shift_ = 64;
  bool hasEmptyKey_ = false;
  uint32_t emptyKeyValue_ = 0;
};

}  // namespace nettrace
