// The native command-line tool over the TraceSession facade (the same engine the wasm
// module wraps). It streams the file in chunks, so it never holds a whole trace.
//
//   nettrace summary FILE [--chunk-size N]   trace summary as JSON
//   nettrace counts FILE [--chunk-size N]    per-type counts in TraceEvent's baseline form
//
// On a damaged file it prints what was read before the fault (stdout), the error with
// its byte offset (stderr), and exits 1.
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "trace_session.h"

namespace {

constexpr size_t kDefaultChunkSize = 1 << 20;

int Usage(FILE* out) {
  std::fprintf(out,
               "usage: nettrace <command> FILE [--chunk-size BYTES]\n"
               "commands:\n"
               "  summary   trace summary as JSON (format, time range, event types, threads, blocks, anomalies)\n"
               "  counts    per-type event counts as 'Provider/Event, count' lines, TraceEvent's baseline form\n");
  return out == stderr ? 2 : 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc >= 2 && (!std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "-h"))) return Usage(stdout);
  if (argc < 3) return Usage(stderr);
  const std::string command = argv[1];
  const char* path = argv[2];
  size_t chunkSize = kDefaultChunkSize;
  for (int i = 3; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--chunk-size") && i + 1 < argc) {
      char* end;
      unsigned long long v = std::strtoull(argv[++i], &end, 10);
      if (*end || v == 0 || v > (1ull << 30)) {
        std::fprintf(stderr, "nettrace: --chunk-size takes a number of bytes from 1 to 1073741824\n");
        return 2;
      }
      chunkSize = static_cast<size_t>(v);
    } else {
      std::fprintf(stderr, "nettrace: unknown option '%s'\n", argv[i]);
      return Usage(stderr);
    }
  }
  if (command != "summary" && command != "counts") {
    std::fprintf(stderr, "nettrace: unknown command '%s'\n", command.c_str());
    return Usage(stderr);
  }

  FILE* f = std::fopen(path, "rb");
  if (!f) {
    std::fprintf(stderr, "nettrace: cannot open %s: %s\n", path, std::strerror(errno));
    return 1;
  }
  nettrace::TraceSession session;
  std::vector<uint8_t> buffer(chunkSize);
  nettrace::Status status;
  for (;;) {
    size_t n = std::fread(buffer.data(), 1, buffer.size(), f);
    if (n > 0) {
      status = session.PushChunk(buffer.data(), n);
      if (!status.ok()) break;
    }
    if (n < buffer.size()) {
      if (std::ferror(f)) {
        std::fprintf(stderr, "nettrace: read error on %s: %s\n", path, std::strerror(errno));
        std::fclose(f);
        return 1;
      }
      status = session.Finish();
      break;
    }
  }
  std::fclose(f);

  const std::string out = command == "summary" ? session.SummaryJson() + "\n" : session.TraceEventCounts();
  std::fwrite(out.data(), 1, out.size(), stdout);
  if (!status.ok()) {
    std::fprintf(stderr, "nettrace: %s: %s\n", path, status.ToString().c_str());
    return 1;
  }
  return 0;
}
