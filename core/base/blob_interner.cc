#include "base/blob_interner.h"

#include <algorithm>

namespace nettrace {

namespace {

uint64_t Fnv1a(std::span<const uint8_t> b) {
  uint64_t h = 1469598103934665603ull;
  for (uint8_t c : b) h = (h ^ c) * 1099511628211ull;
  return h;
}

}  // namespace

BlobInterner::BlobInterner() : offsets_{0, 0}, hashes_{0}, slots_(64, 0) {}

uint32_t BlobInterner::Intern(std::span<const uint8_t> bytes) {
  const uint64_t h = Fnv1a(bytes);
  const size_t mask = slots_.size() - 1;
  size_t slot = static_cast<size_t>(h) & mask;
  for (;; slot = (slot + 1) & mask) {
    const uint32_t index = slots_[slot];
    if (index == 0) break;
    if (hashes_[index] != h) continue;
    const std::span<const uint8_t> existing = Get(index);
    if (existing.size() == bytes.size() && std::equal(existing.begin(), existing.end(), bytes.begin())) {
      lastAdded_ = false;
      return index;
    }
  }
  const uint32_t index = static_cast<uint32_t>(offsets_.size() - 1);
  arena_.insert(arena_.end(), bytes.begin(), bytes.end());
  offsets_.push_back(arena_.size());
  hashes_.push_back(h);
  slots_[slot] = index;
  lastAdded_ = true;
  // At most half full, so probes stay short.
  if (2 * size() > slots_.size()) Grow();
  return index;
}

void BlobInterner::Grow() {
  std::vector<uint32_t> slots(slots_.size() * 2, 0);
  const size_t mask = slots.size() - 1;
  for (uint32_t index = 1; index < hashes_.size(); ++index) {
    size_t slot = static_cast<size_t>(hashes_[index]) & mask;
    while (slots[slot] != 0) slot = (slot + 1) & mask;
    slots[slot] = index;
  }
  slots_.swap(slots);
}

size_t BlobInterner::residentBytes() const {
  return arena_.capacity() + offsets_.capacity() * sizeof(size_t) + hashes_.capacity() * sizeof(uint64_t) +
         slots_.capacity() * sizeof(uint32_t);
}

}  // namespace nettrace
