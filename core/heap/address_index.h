// core/heap — object address → node index, the interning table of PerfView's
// MemoryGraph.GetNodeIndex, as an open-addressing hash table (linear probing, power-of-two
// capacity, at most half full): 16 bytes a slot, no allocation per entry, for the
// millions of addresses a heap-dump trace names. Address 0 is the empty marker, so it is
// kept apart.
#pragma once

#include <cstdint>
#include <vector>

namespace nettrace::heap {

class AddressIndex {
 public:
  // The index of `address`, or the one `next` gives it when absent (*added: whether it was).
  uint32_t FindOrAdd(uint64_t address, uint32_t next, bool* added) {
    if (address == 0) {
      *added = !hasZero_;
      if (!hasZero_) hasZero_ = true, zero_ = next;
      return zero_;
    }
    if ((size_ + 1) * 2 > slots_.size()) Grow();
    const size_t mask = slots_.size() - 1;
    for (size_t i = Hash(address) & mask;; i = (i + 1) & mask) {
      Slot& s = slots_[i];
      if (s.address == address) {
        *added = false;
        return s.index;
      }
      if (s.address == 0) {
        s.address = address;
        s.index = next;
        ++size_;
        *added = true;
        return next;
      }
    }
  }
  void Clear() { std::vector<Slot>().swap(slots_), size_ = 0, hasZero_ = false; }
  uint64_t MemoryBytes() const { return slots_.capacity() * sizeof(Slot); }

 private:
  struct Slot {
    uint64_t address = 0;
    uint32_t index = 0;
  };
  static uint64_t Hash(uint64_t a) {  // objects are 8-aligned: mix the high bits down
    a ^= a >> 33;
    a *= 0xff51afd7ed558ccdULL;
    a ^= a >> 33;
    return a;
  }
  void Grow() {
    std::vector<Slot> old;
    old.swap(slots_);
    slots_.assign(old.empty() ? 1024 : old.size() * 2, Slot{});
    const size_t mask = slots_.size() - 1;
    for (const Slot& s : old) {
      if (s.address == 0) continue;
      size_t i = Hash(s.address) & mask;
      while (slots_[i].address != 0) i = (i + 1) & mask;
      slots_[i] = s;
    }
  }

  std::vector<Slot> slots_;
  size_t size_ = 0;
  bool hasZero_ = false;
  uint32_t zero_ = 0;
};

}  // namespace nettrace::heap
