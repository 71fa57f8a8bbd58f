// core/base — an append-only column stored in fixed chunks of 4 Ki elements. Unlike a
// std::vector it never over-allocates by doubling (resident bytes stay within one chunk
// of the payload: the event store's 16-bytes-per-event budget counts real memory) and
// never needs one huge allocation (wasm: single allocations must stay below 2 GB).
// Chunks are small so the unused tail of the last one stays negligible per event.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace nettrace {

template <typename T>
class ChunkedVector {
 public:
  static constexpr size_t kChunkShift = 12;
  static constexpr size_t kChunkSize = size_t{1} << kChunkShift;

  // Writes into the chunk that element size_ belongs to. After pop_back the chunks past
  // the new end stay allocated (and are reused), so "the last chunk" is not necessarily
  // the one being written: allocate only when size_ has run past every chunk.
  void push_back(const T& v) {
    if ((size_ >> kChunkShift) == chunks_.size()) chunks_.emplace_back(new T[kChunkSize]);
    chunks_[size_ >> kChunkShift][size_ & (kChunkSize - 1)] = v;
    ++size_;
  }
  T& operator[](size_t i) { return chunks_[i >> kChunkShift][i & (kChunkSize - 1)]; }
  const T& operator[](size_t i) const { return chunks_[i >> kChunkShift][i & (kChunkSize - 1)]; }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T& back() { return (*this)[size_ - 1]; }
  void pop_back() { --size_; }
  void clear() {
    chunks_.clear();
    size_ = 0;
  }
  size_t residentBytes() const { return chunks_.size() * kChunkSize * sizeof(T) + chunks_.capacity() * sizeof(void*); }

 private:
  std::vector<std::unique_ptr<T[]>> chunks_;
  size_t size_ = 0;
};

}  // namespace nettrace
