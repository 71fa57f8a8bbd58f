// tests/shapes — writes one extreme shape (extreme_shapes.h) to a file, for measuring a
// command on it by hand or with the npm CLI:
//   nettrace_write_shape SHAPE N OUT      e.g. nettrace_write_shape deep-stack 500000 deep.nettrace
//   nettrace_write_shape --list           the shapes, with their CI sizes
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "shapes/extreme_shapes.h"

int main(int argc, char** argv) {
  using namespace nettrace::shapes;
  if (argc == 2 && !std::strcmp(argv[1], "--list")) {
    for (const ShapeInfo& s : AllShapes()) std::printf("%s %zu\n", s.name, s.ciSize);
    return 0;
  }
  if (argc != 4) {
    std::fprintf(stderr, "usage: nettrace_write_shape SHAPE N OUT | --list\n");
    return 2;
  }
  for (const ShapeInfo& s : AllShapes()) {
    if (s.name != std::string(argv[1])) continue;
    std::vector<uint8_t> bytes;
    const nettrace::Status st = WriteShape(s.shape, std::strtoull(argv[2], nullptr, 10), &bytes);
    if (!st.ok()) {
      std::fprintf(stderr, "nettrace_write_shape: %s\n", st.ToString().c_str());
      return 1;
    }
    FILE* f = std::fopen(argv[3], "wb");
    const bool ok = f && std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size();
    if (!f || std::fclose(f) != 0 || !ok) {
      std::fprintf(stderr, "nettrace_write_shape: cannot write %s\n", argv[3]);
      return 1;
    }
    return 0;
  }
  std::fprintf(stderr, "nettrace_write_shape: unknown shape '%s' (--list)\n", argv[1]);
  return 2;
}
