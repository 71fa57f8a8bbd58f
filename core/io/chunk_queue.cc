#include "io/chunk_queue.h"

#include <algorithm>
#include <cstring>

namespace nettrace {

void ChunkQueue::Append(const uint8_t* data, size_t size) {
  if (size == 0) return;
  // Small chunks (a byte at a time in tests, tiny network reads) are merged into the last
  // chunk so the deque does not grow one node per byte.
  if (!chunks_.empty() && chunks_.back().size() < 64 * 1024) {
    chunks_.back().insert(chunks_.back().end(), data, data + size);
  } else {
    chunks_.emplace_back(data, data + size);
  }
  received_ += size;
}

bool ChunkQueue::Peek(size_t n, std::span<const uint8_t>* out) {
  if (n > available()) return false;
  if (n == 0) {
    *out = {};
    return true;
  }
  const std::vector<uint8_t>& head = chunks_.front();
  if (head.size() - headPos_ >= n) {
    *out = std::span<const uint8_t>(head.data() + headPos_, n);
    return true;
  }
  // Straddles chunks: assemble. Shrink a scratch buffer that grew for one huge block, so
  // a single big block does not pin its size for the rest of the read.
  if (scratch_.capacity() > 4 * n && scratch_.capacity() > (1u << 20)) {
    std::vector<uint8_t>().swap(scratch_);
  }
  scratch_.resize(n);
  size_t copied = 0;
  size_t pos = headPos_;
  for (const std::vector<uint8_t>& chunk : chunks_) {
    size_t take = std::min(chunk.size() - pos, n - copied);
    std::memcpy(scratch_.data() + copied, chunk.data() + pos, take);
    copied += take;
    pos = 0;
    if (copied == n) break;
  }
  *out = std::span<const uint8_t>(scratch_.data(), n);
  return true;
}

void ChunkQueue::Consume(size_t n) {
  position_ += n;
  while (n > 0 && !chunks_.empty()) {
    size_t inHead = chunks_.front().size() - headPos_;
    if (n < inHead) {
      headPos_ += n;
      return;
    }
    n -= inHead;
    chunks_.pop_front();
    headPos_ = 0;
  }
}

size_t ChunkQueue::residentBytes() const {
  size_t total = scratch_.capacity();
  for (const auto& c : chunks_) total += c.capacity();
  return total;
}

}  // namespace nettrace
