// web/src/reader — the engine's heap readied ahead of a read: grown and written once, page by
// page, then freed back to the engine's allocator.
//
// Why: a browser backs wasm memory with the operating system's pages only as each is first
// written, and each such page fault is paid during the read that first writes it. In headless
// Chromium on the benchmark machine (a VM, ~11 µs a fault), HeartRateMonitor (28 MiB) parsed
// from memory in a fresh worker on the shared, optimized module took 75-117 ms on its first
// read against 20-29 ms on the next ones; with 32 MiB readied first (81-84 ms, while the page
// waits for a drop), 25-35 ms. Growing the memory without writing it gained nothing (75-100
// ms): it is the first writes, not the growth.
//
// The cost: what is written stays resident for the worker's life (wasm memory never shrinks).

/** What readyHeap needs of the engine module (NetTraceModule has it). */
export interface HeapOwner {
  _malloc(size: number): number;
  _free(pointer: number): void;
  readonly HEAPU8: Uint8Array;
}

/** The smallest page an OS backs memory with: one write in each faults it in. */
const OS_PAGE_BYTES = 4096;

/** The most readyHeap writes: one wasm allocation (the engine's malloc takes 32-bit sizes, and
 *  its memory is at most 4 GiB). */
export const MAX_READY_HEAP_BYTES = 1 << 30;

/** Whether `bytes` is a size readyHeap takes: a whole number from 0 to MAX_READY_HEAP_BYTES
 *  (prewarmEngine rejects any other before a worker starts). */
export function isReadyHeapSize(bytes: number): boolean {
  return Number.isSafeInteger(bytes) && bytes >= 0 && bytes <= MAX_READY_HEAP_BYTES;
}

/**
 * Grows the engine's heap by `bytes` (at most: what its allocator already has free is used
 * first), writes one byte in each OS page of it and frees it: the engine's next allocations,
 * up to that much, reuse memory the OS has already backed.
 * @returns the engine's wasm memory size afterwards (unchanged when the allocation failed)
 */
export function readyHeap(engine: HeapOwner, bytes: number): number {
  // Any other size does nothing: the engine's 32-bit malloc would cut it down, and the loop
  // below would write past the block.
  if (!isReadyHeapSize(bytes) || bytes === 0) return engine.HEAPU8.length;
  const pointer = engine._malloc(bytes) >>> 0; // an address past 2 GiB comes back negative
  if (pointer === 0) return engine.HEAPU8.length;
  const heap = engine.HEAPU8; // read after the malloc: growing the memory replaces it
  for (let at = pointer; at < pointer + bytes; at += OS_PAGE_BYTES) heap[at] = 0;
  engine._free(pointer);
  return engine.HEAPU8.length;
}
