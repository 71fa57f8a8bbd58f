#include "cli/heap_command.h"

#include <sys/stat.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "heap/heap_session.h"

namespace nettrace_cli {

namespace {

constexpr size_t kChunkSize = 1 << 20;

// Streams the file into the session and analyses it; prints a reading error. False when
// there is no graph to show.
bool LoadHeap(const char* path, size_t chunkSize, nettrace::heap::HeapSession* session) {
  FILE* f = std::fopen(path, "rb");
  if (!f) {
    std::fprintf(stderr, "nettrace: cannot open %s\n", path);
    return false;
  }
  struct stat st {};
  if (fstat(fileno(f), &st) == 0 && st.st_size > 0) session->SetFileSize(static_cast<uint64_t>(st.st_size));
  std::vector<uint8_t> buffer(chunkSize);
  for (;;) {
    const size_t n = std::fread(buffer.data(), 1, buffer.size(), f);
    if (n > 0 && !session->PushChunk(buffer.data(), n).ok()) break;
    if (n < buffer.size()) break;
  }
  const bool readError = std::ferror(f) != 0;
  std::fclose(f);
  if (readError) {
    std::fprintf(stderr, "nettrace: read error on %s\n", path);
    return false;
  }
  const nettrace::Status status = session->Finish();
  if (!status.ok()) std::fprintf(stderr, "nettrace: %s: %s\n", path, status.ToString().c_str());
  if (!session->hasGraph()) return false;
  session->Analyze();
  return true;
}

}  // namespace

int RunHeap(const nettrace::api::Request& request, const char* path) {
  const size_t chunkSize = request.chunkSize.value_or(kChunkSize);
  const bool csv = request.format == "csv";
  nettrace::heap::HeapSession current, baseline;
  if (!LoadHeap(path, chunkSize, &current)) return 1;
  std::string out;
  if (!request.heap.baseline.empty()) {
    if (!LoadHeap(request.heap.baseline.c_str(), chunkSize, &baseline)) return 1;
    out = csv ? nettrace::heap::HeapDiffCsv(baseline.snapshot(), current.snapshot())
              : nettrace::heap::HeapDiffJson(baseline.snapshot(), current.snapshot()) + "\n";
  } else {
    nettrace::heap::HeapQuery query;
    query.pathsTo = request.heap.pathsTo;
    query.largest = static_cast<uint32_t>(std::min<uint64_t>(request.heap.largest, UINT32_MAX));
    query.paths = static_cast<uint32_t>(std::min<uint64_t>(request.heap.paths, UINT32_MAX));
    out = csv ? nettrace::heap::HeapTypesCsv(current.snapshot()) : nettrace::heap::HeapJson(current.snapshot(), query) + "\n";
  }
  std::fwrite(out.data(), 1, out.size(), stdout);
  return current.status().ok() && baseline.status().ok() ? 0 : 1;
}

}  // namespace nettrace_cli
