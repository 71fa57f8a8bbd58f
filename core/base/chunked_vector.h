// core/base — an append-only column stored in fixed chunks of 4 Ki elements. Unlike a
// std::vector it never over-allocates by doubling (resident bytes stay within one chunk
// of the payload: the event store's 16-bytes-per-event budget counts real memory) and
// never needs one huge allocation (wasm: single allocations must stay below 2 GB).
// Chunks are small so the unused tail of the last one stays negligible per event.
// A chunk is raw storage, each element constructed when it is appended: `new T[n]` of a
// struct with default member initializers wrote all of it, and a GC statistic's first chunk
// of marks then paged in 224 KiB for a trace with a handful of GCs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <type_traits>
#include <vector>

namespace nettrace {

template <typename T>
class ChunkedVector {
  // Elements are never destroyed one by one, and their storage is the default new's.
  static_assert(std::is_trivially_destructible_v<T> && std::is_trivially_copyable_v<T>);
  static_assert(alignof(T) <= __STDCPP_DEFAULT_NEW_ALIGNMENT__);

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
    ::new (static_cast<void*>(tail_++)) T(v);
    ++size_;
  }
  T& operator[](size_t i) { return chunks_[i >> kChunkShift].get()[i & (kChunkSize - 1)]; }
  const T& operator[](size_t i) const { return chunks_[i >> kChunkShift].get()[i & (kChunkSize - 1)]; }
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
  // directly (its elements are uninitialised until then). Such a column is not push_back'ed:
  // its size() stays 0 and the owner counts.
  T* ChunkOf(size_t i) {
    const size_t c = i >> kChunkShift;
    while (chunks_.size() <= c) chunks_.push_back(NewChunk());
    return chunks_[c].get();
  }
  // In a column kept in ascending order: the first index whose element is not before key
  // (less(element, key) false), size() when there is none; std::lower_bound's answer.
  template <typename Key, typename Less>
  size_t LowerBound(const Key& key, Less less) const {
    size_t first = 0;
    for (size_t count = size_; count > 0;) {
      const size_t half = count / 2;
      if (less((*this)[first + half], key)) first += half + 1, count -= half + 1;
      else count = half;
    }
    return first;
  }
  size_t residentBytes() const { return chunks_.size() * kChunkSize * sizeof(T) + chunks_.capacity() * sizeof(void*); }

 private:
  // Points the write position at element size_'s slot. After pop_back the chunks past the
  // new end stay allocated (and are reused), so "the last chunk" is not necessarily the one
  // being written: allocate only when size_ has run past every chunk.
  void Reposition() {
    const size_t c = size_ >> kChunkShift;
    if (c == chunks_.size()) chunks_.push_back(NewChunk());
    tail_ = chunks_[c].get() + (size_ & (kChunkSize - 1));
    tailEnd_ = chunks_[c].get() + kChunkSize;
  }

  struct FreeChunk {
    void operator()(T* p) const { ::operator delete(static_cast<void*>(p)); }
  };
  using Chunk = std::unique_ptr<T, FreeChunk>;
  static Chunk NewChunk() { return Chunk(static_cast<T*>(::operator new(kChunkSize * sizeof(T)))); }

  std::vector<Chunk> chunks_;
  size_t size_ = 0;
  T* tail_ = nullptr;  // where element size_ goes, up to tailEnd_ (null: find it)
  T* tailEnd_ = nullptr;
};

}  // namespace nettrace
