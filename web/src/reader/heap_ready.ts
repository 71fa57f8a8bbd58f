// web/src/reader — the engine's heap readied ahead of a read: grown and written once, page by
// page, then freed back to the engine's allocator.
//
// Why: a browser backs wasm memory with the operating system's pages only as each is first
// written, and each such page fault is paid during the read that first writes it. In headless
// Chromium on the benchmark machine (a VM, ~11 µs a fault) the first parse of HeartRateMonitor
// (28 MiB) in a freshly prewarmed worker took 93-117 ms against 21-29 ms for the next ones in
// that worker; with 48 MiB readied at prewarm time, 27-43 ms. Growing the memory without
// writing it gained nothing (99-107 ms): it is the first writes, not the growth. The page
// faults then happen while the page waits for a trace to be dropped, not after.
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

/**
 * Grows the engine's heap by `bytes` (at most: what its allocator already has free is used
 * first), writes one byte in each OS page of it and frees it: the engine's next allocations,
 * up to that much, reuse memory the OS has already backed.
 * @returns the engine's wasm memory size afterwards (unchanged when the allocation failed)
 */
export function readyHeap(engine: HeapOwner, bytes: number): number {
  if (bytes <= 0) return engine.HEAPU8.length;
  const pointer = engine._malloc(bytes);
  if (pointer === 0) return engine.HEAPU8.length;
  const heap = engine.HEAPU8; // read after the malloc: growing the memory replaces it
  for (let at = pointer; at < pointer + bytes; at += OS_PAGE_BYTES) heap[at] = 0;
  engine._free(pointer);
  return engine.HEAPU8.length;
}
