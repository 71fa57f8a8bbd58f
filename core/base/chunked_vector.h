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

  ChunkedVector() = default;
  // The source is left empty (its write position pointed into chunks it no longer owns).
  ChunkedVector(ChunkedVector&& o) noexcept { *this = std::move(o); }
  ChunkedVector& operator=(ChunkedVector&& o) noexcept {
    if (this == &o) return *this;
    chunks_ = std::move(o.chunks_);
    size_ = o.size_, tail_ = o.tail_, tailEnd_ = o.tailEnd_;
    o.chunks_.clear();
    o.size_ = 0, o.tail_ = o.tailEnd_ = nullptr;
    return *this;
  }

  // The store appends five columns per event: a write position in the current chunk makes
  // an append a compare and a store.
  void push_back(const T& v) {
    if (tail_ == tailEnd_) Reposition();
    *tail_++ = v;
    ++size_;
  }
  T& operator[](size_t i) { return chunks_[i >> kChunkShift][i & (kChunkSize - 1)]; }
  const T& operator[](size_t i) const { return chunks_[i >> kChunkShift][i & (kChunkSize - 1)]; }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T& back() { return (*this)[size_ - 1]; }
  void pop_back() {
    --size_;
    tail_ = tailEnd_ = nullptr;  // the next push_back finds its place again
  }
  void clear() {
    chunks_.clear();
    size_ = 0;
    tail_ = tailEnd_ = nullptr;
  }
  // For columns one owner fills in step (the event store's five, one check per row for all
  // of them): element i's chunk, allocated when it does not exist yet, to be written
  // directly. Such a column is not push_back'ed: its size() stays 0 and the owner counts.
  T* ChunkOf(size_t i) {
    const size_t c = i >> kChunkShift;
    while (chunks_.size() <= c) chunks_.emplace_back(new T[kChunkSize]);
    return chunks_[c].get();
  }
  size_t residentBytes() const { return chunks_.size() * kChunkSize * sizeof(T) + chunks_.capacity() * sizeof(void*); }

 private:
  // Points the write position at element size_'s slot. After pop_back the chunks past the
  // new end stay allocated (and are reused), so "the last chunk" is not necessarily the one
  // being written: allocate only when size_ has run past every chunk.
  void Reposition() {
    const size_t c = size_ >> kChunkShift;
    if (c == chunks_.size()) chunks_.emplace_back(new T[kChunkSize]);
    tail_ = chunks_[c].get() + (size_ & (kChunkSize - 1));
    tailEnd_ = chunks_[c].get() + kChunkSize;
  }

  std::vector<std::unique_ptr<T[]>> chunks_;
  size_t size_ = 0;
  T* tail_ = nullptr;  // where element size_ goes, up to tailEnd_ (null: find it)
  T* tailEnd_ = nullptr;
};

}  // namespace nettrace
