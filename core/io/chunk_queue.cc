#include "io/chunk_queue.h"

#include <algorithm>
#include <cstring>

namespace nettrace {

void ChunkQueue::Lend(const uint8_t* data, size_t size) {
  KeepUnread();  // one loan at a time: a caller that forgot KeepUnread loses nothing
  lent_ = std::span<const uint8_t>(data, size);
  lentPos_ = 0;
  received_ += size;
}

void ChunkQueue::KeepUnread() {
  if (lentUnread() > 0) KeepLent(lentUnread());
  lent_ = {};
  lentPos_ = 0;
}

void ChunkQueue::KeepLent(size_t n) {
  if (keptPos_ > 0 && keptPos_ >= keptUnread()) {
    std::memmove(kept_.data(), kept_.data() + keptPos_, keptUnread());
    kept_.resize(keptUnread());
    keptPos_ = 0;
  }
  // Room for the whole request a Peek could not answer (a block that goes on in the next
  // chunk), so that its start is copied once and its rest appended, not copied again by
  // each doubling of the buffer.
  const size_t wanted = std::max(kept_.size() + n, keptPos_ + wanted_);
  if (wanted > kept_.capacity()) kept_.reserve(std::max(wanted, kept_.size() + kept_.size() / 2));
  kept_.insert(kept_.end(), lent_.data() + lentPos_, lent_.data() + lentPos_ + n);
  lentPos_ += n;
  copied_ += n;
}

bool ChunkQueue::Peek(size_t n, std::span<const uint8_t>* out) {
  if (n > available()) {
    // Capped: a corrupt size must not reserve more than a real block could need.
    wanted_ = std::max(wanted_, std::min(n, kReserveAheadMax));
    return false;
  }
  if (keptUnread() == 0) {
    *out = lent_.subspan(lentPos_, n);
    return true;
  }
  // Straddles the kept bytes and the lent ones: move just the missing part over.
  if (keptUnread() < n) KeepLent(n - keptUnread());
  *out = std::span<const uint8_t>(kept_.data() + keptPos_, n);
  return true;
}

void ChunkQueue::Consume(size_t n) {
  position_ += n;
  const size_t fromKept = std::min(n, keptUnread());
  keptPos_ += fromKept;
  lentPos_ += n - fromKept;
  wanted_ = wanted_ > n ? wanted_ - n : 0;
  if (keptUnread() == 0) {
    // Everything kept is read: start the buffer over, and give back a big one (one huge
    // block must not pin its size for the rest of the read).
    if (kept_.capacity() > kShrinkAbove) std::vector<uint8_t>().swap(kept_);
    kept_.clear();
    keptPos_ = 0;
  }
}

}  // namespace nettrace
