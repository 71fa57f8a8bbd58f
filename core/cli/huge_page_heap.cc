#include "cli/huge_page_heap.h"

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <filesystem>
#include <system_error>

// 64-bit glibc on Linux only: the heap and the thresholds below are glibc's, and on a 32-bit
// process a reserve of up to 256 MiB would take too much of its address space.
#if defined(__linux__) && defined(__GLIBC__) && UINTPTR_MAX == UINT64_MAX
#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>
#define NETTRACE_HUGE_PAGE_HEAP 1
#endif

namespace nettrace_cli {
namespace {

constexpr uint64_t kMiB = uint64_t{1} << 20;
// The reserve is address space, backed only where touched (it is still charged in full
// where the administrator chose strict overcommit accounting: a failed growth then skips).
constexpr uint64_t kMinReserve = 64 * kMiB;
// At most 256 MiB on huge pages, the rest of a big read's heap on small ones. Measured in
// interleaved rounds against glibc's plain heap (docs/performance.md, scripts/bench_huge_pages.sh):
// the advice saved 5-40 % of a read's CPU where the read touched up to ~100 MiB; advising the
// whole heap of reads that touched 530-830 MiB (0.7-1.1 GB of small events) cost 12-20 % more
// CPU than plain pages (presumably the kernel compacting memory to find each 2 MiB page: THP
// defrag "madvise" compacts synchronously for advised memory), and with the reserve
// capped here those reads cost what plain pages cost, within the machine's noise.
constexpr uint64_t kMaxReserve = 256 * kMiB;

#ifdef NETTRACE_HUGE_PAGE_HEAP
constexpr uint64_t kHugePage = 2 * kMiB;  // x86-64's and arm64's (4 KiB granule) PMD size
// Blocks up to this size come from the heap; larger ones are mmapped, as by default. 32 MiB is
// the largest threshold glibc accepted up to 2.34 (HEAP_MAX_SIZE / 2), and ample for the
// engine's growing vectors and chunks.
constexpr uint64_t kMmapThreshold = 32 * kMiB;

// A block that makes glibc grow the heap: just larger than the free room at its top, so that
// the new top's header (written at once) lies at the start of the new room, below the first
// whole huge page, and not inside the advised range, where it would keep one 2 MiB range on
// small pages. (mallinfo2 is glibc 2.33's; before it, a block of most of the threshold.)
size_t GrowingBlockSize() {
#if __GLIBC_PREREQ(2, 33)
  const size_t top = mallinfo2().keepcost;
  if (top + 64 < kMmapThreshold) return top + 64;
#endif
  return static_cast<size_t>(kMmapThreshold - kMiB);
}
#endif

}  // namespace

uint64_t ExpectedReadHeap(uint64_t fileBytes) {
  // Peak RSS of `nettrace summary` per byte of trace: 2.2 on objver4 (an allocation tick in a
  // third of its events: GC marks, held events), 0.5 on HeartRateMonitor (rundown, samples).
  // Past the reserve the heap grows as before, without the advice: slower, never wrong.
  const uint64_t want = kMinReserve + 3 * std::min(fileBytes, kMaxReserve);  // (capped below)
  return std::clamp(want, kMinReserve, kMaxReserve);
}

HugePageHeap ReadyHeapForRead(uint64_t expectedBytes) {
  HugePageHeap h;
#ifndef NETTRACE_HUGE_PAGE_HEAP
  (void)expectedBytes;
  h.skipped = "not 64-bit Linux with glibc";
  return h;
#else
  const uint64_t reserve = std::clamp(expectedBytes, kMinReserve, kMaxReserve);
  // Blocks up to 32 MiB come from the heap, where the advice applies (glibc's default mmaps
  // any block from 128 KiB up: each a fresh mapping, faulted in 4 KiB at a time, unmapped
  // when freed, so the next block of that size faults again). Free memory at the top stays
  // mapped: giving it back would shrink the advised range, and the heap's next growth would
  // be a new mapping without the advice.
  if (mallopt(M_MMAP_THRESHOLD, static_cast<int>(kMmapThreshold)) != 1 || mallopt(M_TRIM_THRESHOLD, INT_MAX) != 1) {
    h.skipped = "glibc refused the thresholds";
    return h;
  }
  // The next growth of the heap adds the reserve (M_TOP_PAD); the growing block forces it,
  // and freed, it joins the top again.
  mallopt(M_TOP_PAD, static_cast<int>(reserve));
  const uintptr_t before = reinterpret_cast<uintptr_t>(sbrk(0));
  // volatile: a compiler may drop a malloc whose block is only freed.
  void* volatile block = std::malloc(GrowingBlockSize());
  const uintptr_t blockAt = reinterpret_cast<uintptr_t>(block);
  std::free(block);
  mallopt(M_TOP_PAD, 128 * 1024);  // glibc's default, for any growth past the reserve
  const uintptr_t after = reinterpret_cast<uintptr_t>(sbrk(0));
  if (block == nullptr || before == UINTPTR_MAX || after == UINTPTR_MAX || after <= before) {
    h.skipped = "the heap could not grow (an address-space or data limit)";
    return h;
  }
  // Huge pages are whole aligned 2 MiB ranges of the mapping; the first partial one stays small.
  const uintptr_t begin = (before + kHugePage - 1) & ~(kHugePage - 1);
  const uintptr_t end = after & ~(kHugePage - 1);
  if (end <= begin) {
    h.skipped = "the heap grew by less than a huge page";
    return h;
  }
  if (madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE) != 0) {
    h.skipped = "the kernel has no transparent huge pages";
    return h;
  }
  // The room's first partial huge page, below `begin`, would take the read's first blocks (its
  // 1 MiB read buffer among them: ~200 faults on objver4) in 4 KiB pages. A block in the freed
  // one's place that ends at `begin` fills it (glibc's chunk of n bytes asked, n a multiple of
  // 16: n + 16, from blockAt - 16) and stays allocated, untouched but for its header. Not when
  // the freed block lies elsewhere (a heap that is not contiguous).
  static void* filler = nullptr;
  if (begin > blockAt && begin - blockAt >= 64 && filler == nullptr)
    filler = std::malloc(static_cast<size_t>(begin - blockAt));
  h.begin = begin, h.end = end;
  return h;
#endif
}

HugePageHeap ReadyHeapForTraces(const char* a, const char* b) {
  uint64_t bytes = 0;
  for (const char* path : {a, b}) {
    std::error_code ec;
    const uintmax_t size = path ? std::filesystem::file_size(path, ec) : 0;
    if (!ec) bytes += std::min<uintmax_t>(size, kMaxReserve);
  }
  return ReadyHeapForRead(ExpectedReadHeap(bytes));
}

}  // namespace nettrace_cli
