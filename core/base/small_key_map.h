// core/base — a map from 64-bit keys that are mostly small integers (v6 thread indexes
// count up from 0 or 1) to values: keys below kDense, or beyond it while the keys stay at
// least half dense, index a vector, one load and no hashing, and other keys (v4/v5 OS thread
// ids) go to a hash map, so memory stays bounded whatever the keys. The reading path asks per event when capture threads interleave (a
// v6 block may hold events of many threads).
//
// A reference to a value stays valid until a later At() adds a key, or Erase/Clear.
#pragma once

#include <algorithm>
#include <cstdint>
#include <unordered_map>
#include <vector>

namespace nettrace {

template <typename V>
class SmallKeyMap {
 public:
  // The value of `key`, added (value-initialised) when absent; *added says whether it was.
  V& At(uint64_t key, bool* added) {
    // A key present in the dense part: the usual case, a load and a test, inlined where the
    // slow path below is not.
    if (key < present_.size() && present_[key]) {
      *added = false;
      return dense_[key];
    }
    return Add(key, added);
  }
  // The value of `key`, or null when absent (nothing is added).
  V* Find(uint64_t key) {
    if (key < present_.size() && present_[key]) return &dense_[key];
    return sparse_.empty() ? nullptr : FindSparse(key);
  }
  const V* Find(uint64_t key) const { return const_cast<SmallKeyMap*>(this)->Find(key); }
  bool Contains(uint64_t key) const { return Find(key) != nullptr; }
  // Whether the key was there.
  bool Erase(uint64_t key) {
    if (key < present_.size() && present_[key]) {
      present_[key] = 0;
      --denseCount_;
      return true;
    }
    return sparse_.erase(key) != 0;
  }
  // How many keys the hash part holds (a million keys counting up from 1 hold none).
  size_t SparseSize() const { return sparse_.size(); }
  void Clear() {
    present_.clear(), dense_.clear();
    sparse_.clear();
    denseCount_ = 0;
  }

 private:
  // Keys below this go to the dense part; beyond it, while they stay at least half dense:
  // a million v6 thread indexes (1, 2, 3, …) are a vector, not a million hash nodes of 50
  // bytes. A key lives in one part only: it stays where it was added.
  static constexpr uint64_t kDense = 4096;
  uint64_t DenseLimit() const { return std::max<uint64_t>(kDense, 2 * (uint64_t{denseCount_} + 1)); }
  [[gnu::noinline]] V& Add(uint64_t key, bool* added) {
    if (!sparse_.empty()) {
      if (auto it = sparse_.find(key); it != sparse_.end()) {
        *added = false;
        return it->second;
      }
    }
    if (key < present_.size() || key < DenseLimit()) {
      if (key >= present_.size()) present_.resize(key + 1, 0), dense_.resize(key + 1);
      *added = true;
      present_[key] = 1, dense_[key] = V{};
      ++denseCount_;
      return dense_[key];
    }
    auto [it, inserted] = sparse_.try_emplace(key);
    *added = inserted;
    return it->second;
  }
  [[gnu::noinline]] V* FindSparse(uint64_t key) {
    auto it = sparse_.find(key);
    return it == sparse_.end() ? nullptr : &it->second;
  }
  std::vector<uint8_t> present_;
  std::vector<V> dense_;
  size_t denseCount_ = 0;
  std::unordered_map<uint64_t, V> sparse_;
};

}  // namespace nettrace
