// core/io — chunk boundaries are this class's problem and nobody else's. The caller's
// bytes are lent for the duration of one push (Lend), the format code asks for "N
// contiguous bytes at the read position" and gets either a view or "not yet", and before
// the push returns the unread rest of the lent bytes is kept (KeepUnread). So a chunk is
// parsed where it lies: the only bytes copied are those a push leaves unread (at most one
// unfinished block) and, for a request that straddles the kept bytes and the lent ones,
// the part of the lent bytes that the request needs. Memory holds the unconsumed kept
// bytes only (plus their buffer's slack, given back once it exceeds kShrinkAbove).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace nettrace {

class ChunkQueue {
 public:
  static constexpr size_t kShrinkAbove = size_t{256} << 10;
  // At most this much is reserved ahead of the bytes for a request not yet answerable
  // (a v6 block's content is at most 16 MiB).
  static constexpr size_t kReserveAheadMax = size_t{16} << 20;

  // Appends bytes that the caller may reuse at once: Lend + KeepUnread.
  void Append(const uint8_t* data, size_t size) {
    Lend(data, size);
    KeepUnread();
  }
  // Makes `size` bytes at `data` readable after those already queued, without copying.
  // They must stay valid until KeepUnread(); one loan at a time.
  void Lend(const uint8_t* data, size_t size);
  // Ends the loan: copies the lent bytes not yet consumed into the queue's own buffer.
  void KeepUnread();

  // Absolute file offset of the read position.
  uint64_t position() const { return position_; }
  // Total bytes ever appended.
  uint64_t received() const { return received_; }
  uint64_t available() const { return received_ - position_; }

  // A contiguous view of the n bytes at the read position, or false when fewer than n
  // bytes have arrived. The view stays valid until the next Lend/KeepUnread/Consume/Peek.
  bool Peek(size_t n, std::span<const uint8_t>* out);
  // Drops n bytes (n <= available()).
  void Consume(size_t n);

  // Bytes held in memory (the kept buffer's capacity), for memory tests.
  size_t residentBytes() const { return kept_.capacity(); }
  // Bytes copied into the kept buffer so far (the cost of chunk boundaries), for tests
  // and benchmarks.
  uint64_t bytesCopied() const { return copied_; }

 private:
  size_t keptUnread() const { return kept_.size() - keptPos_; }
  size_t lentUnread() const { return lent_.size() - lentPos_; }
  // Moves n lent bytes to the end of the kept buffer, first dropping its consumed prefix
  // when that prefix is at least as long as what stays (so each byte moves O(1) times).
  void KeepLent(size_t n);

  std::vector<uint8_t> kept_;  // owned bytes: [keptPos_, size) unread, before the lent ones
  size_t keptPos_ = 0;
  std::span<const uint8_t> lent_;
  size_t lentPos_ = 0;
  uint64_t position_ = 0;
  uint64_t received_ = 0;
  uint64_t copied_ = 0;
  // The largest request from the read position that found too few bytes (its size less
  // what was consumed since): what the kept buffer will have to hold.
  size_t wanted_ = 0;
};

}  // namespace nettrace
