// core/io — chunk boundaries are this class's problem and nobody else's. Chunks of any
// size are appended; format code asks for "N contiguous bytes at the read position" and
// gets either a view or "not yet". A view lies inside one chunk when it can (no copy);
// only a request that straddles chunks is assembled into a scratch buffer. Consumed
// chunks are freed at once, so memory holds at most the unconsumed bytes: one block
// in progress plus the newest chunk.
#pragma once

#include <cstdint>
#include <deque>
#include <span>
#include <vector>

namespace nettrace {

class ChunkQueue {
 public:
  void Append(const uint8_t* data, size_t size);

  // Absolute file offset of the read position.
  uint64_t position() const { return position_; }
  // Total bytes ever appended.
  uint64_t received() const { return received_; }
  uint64_t available() const { return received_ - position_; }

  // A contiguous view of the n bytes at the read position, or false when fewer than n
  // bytes have arrived. The view stays valid until the next Append/Consume/Peek.
  bool Peek(size_t n, std::span<const uint8_t>* out);
  // Drops n bytes (n <= available()).
  void Consume(size_t n);

  // Bytes held in memory (chunks not yet consumed plus scratch), for memory tests.
  size_t residentBytes() const;

 private:
  std::deque<std::vector<uint8_t>> chunks_;
  size_t headPos_ = 0;  // read position inside chunks_.front()
  uint64_t position_ = 0;
  uint64_t received_ = 0;
  std::vector<uint8_t> scratch_;
};

}  // namespace nettrace
