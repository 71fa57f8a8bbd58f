// tests/bench — heap_gen: writes a seeded random heap graph (random_heap.h) as a .gcdump,
// for scripts/heap-oracle.sh --check (PerfView's reader and `nettrace heap` on 1,000,000
// objects) and for the memory and time figures of big snapshots (docs/performance.md).
//
//   heap_gen --objects N [--seed S] -o OUT.gcdump
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "gcdump_writer.h"
#include "random_heap.h"

int main(int argc, char** argv) {
  uint64_t objects = 0, seed = 1;
  const char* out = nullptr;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--objects") == 0) objects = std::strtoull(argv[i + 1], nullptr, 10);
    else if (std::strcmp(argv[i], "--seed") == 0) seed = std::strtoull(argv[i + 1], nullptr, 10);
    else if (std::strcmp(argv[i], "-o") == 0) out = argv[i + 1];
  }
  // The file's labels and counts are 32-bit: far below that, a blob past 2 GB is the limit.
  if (out == nullptr || objects == 0 || objects > 50'000'000) {
    std::fprintf(stderr, "usage: heap_gen --objects N (1 to 50000000) [--seed S] -o OUT.gcdump\n");
    return 2;
  }
  const nettrace::bench::GcdumpGraph graph = nettrace::bench::RandomHeap(static_cast<uint32_t>(objects), seed);
  const std::vector<uint8_t> bytes = nettrace::bench::GcdumpWriter().Write(graph);
  FILE* f = std::fopen(out, "wb");
  if (f == nullptr || std::fwrite(bytes.data(), 1, bytes.size(), f) != bytes.size() || std::fclose(f) != 0) {
    std::fprintf(stderr, "heap_gen: cannot write %s\n", out);
    return 1;
  }
  std::fprintf(stderr, "heap_gen: %s: %u nodes, %zu edges, %zu bytes\n", out, static_cast<unsigned>(graph.nodeType.size()),
               graph.children.size(), bytes.size());
  return 0;
}
