// memcpy, memmove and memset of the wasm build, each one bulk-memory instruction (memory.copy,
// memory.fill), in place of emcc 3.1.6's libc versions: those copy in a wasm loop and call out
// to JavaScript (emscripten_memcpy_big: HEAPU8.copyWithin) for every copy of 512 bytes or more,
// 16 % of a profile of HeartRateMonitor (the symbols keep method-name bytes) and memset 4 % of
// one of a sample-heavy trace. Measured in Node, warm instances in one process, runs
// interleaved: HeartRateMonitor 0.88x the time (median of 25), only_managed_samples x20 0.97x
// (median of 15); outputs identical, and the static data the same bytes after a read and its
// queries as without this file.
//
// Why only these three, compiled alone (wasm/CMakeLists.txt: -mbulk-memory without -flto):
// with bulk memory on the whole LTO module, wasm-ld 14 keeps embind's thread-locals and, without
// shared memory, addresses them 1024 bytes past their segment (queries overwrote constant
// strings). The libc definitions are weak or pulled from an archive only when missing, so
// these win; the calls LTO leaves to memcpy/memmove/memset land here.
#include <cstddef>

extern "C" {

void* memcpy(void* __restrict dest, const void* __restrict src, std::size_t n) {
  __builtin_memcpy(dest, src, n);  // memory.copy: the -mbulk-memory backend never calls out
  return dest;
}

void* memmove(void* dest, const void* src, std::size_t n) {
  __builtin_memmove(dest, src, n);  // memory.copy allows overlap
  return dest;
}

void* memset(void* dest, int c, std::size_t n) {
  __builtin_memset(dest, c, n);  // memory.fill
  return dest;
}

}  // extern "C"
