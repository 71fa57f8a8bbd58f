// core/cli — the native tool's heap, readied for a read: room reserved at the heap's top and
// advised for transparent huge pages, so that the engine's growing stores, sorter runs and
// held events fault in 2 MiB at a time instead of 4 KiB.
//
// Why: a read touches about as many fresh pages as its store, sorter and analyses hold, once
// each. On this project's benchmark machine (a VM) a 4 KiB page fault costs ~10 µs: on objver4
// (4.8 MB, 105 k events) 2,451 faults were more than half of `nettrace summary`'s 42 ms, and on
// HeartRateMonitor 2,919 of its 42 ms. Linux gives huge pages to anonymous memory only where
// the process asks (madvise), unless its administrator set THP to "always"; glibc asks for
// its own heap only under a tunable read from the environment at start-up
// (GLIBC_TUNABLES=glibc.malloc.hugetlb=1), which a tool cannot set for itself.
//
// A process-wide setting, so it belongs to the tool (core/cli), never to the engine: the wasm
// module and a program embedding core/ keep their allocator as it is.
//
// The kernel's default THP defrag policy ("madvise") compacts memory synchronously to find a
// huge page for an advised range: on a host whose memory is badly fragmented a fault can then
// cost more than the small faults it replaces. Where THP is off ("never") the advice is
// accepted and changes nothing: the reserve and the thresholds still apply, on small pages.
#pragma once

#include <cstddef>
#include <cstdint>

namespace nettrace_cli {

struct HugePageHeap {
  // The advised range [begin, end) at the heap's top (empty: nothing was advised).
  uintptr_t begin = 0, end = 0;
  const char* skipped = nullptr;  // why nothing was advised (not 64-bit glibc, no THP, ...)
};

// Reserves `expectedBytes` (64 MiB to 256 MiB) at the top of the heap, advises it for huge
// pages and keeps blocks up to 32 MiB in the heap, where the advice applies. Call once, before
// the read allocates: a block freed earlier could take the read's first blocks instead. Memory
// is backed only where it is touched, 2 MiB at a time: a read's peak RSS grows by a few MiB.
// 64-bit Linux with glibc only; elsewhere it does nothing (`skipped` says why).
HugePageHeap ReadyHeapForRead(uint64_t expectedBytes);

// The heap a read of `fileBytes` of trace is expected to need (what ReadyHeapForRead reserves).
uint64_t ExpectedReadHeap(uint64_t fileBytes);

// ReadyHeapForRead for reading the files at these paths (nullptr: none; an unreadable one
// counts 0 bytes: opening it reports the error).
HugePageHeap ReadyHeapForTraces(const char* a, const char* b = nullptr);

}  // namespace nettrace_cli
