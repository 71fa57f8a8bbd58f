#include "cli/diff_command.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "analysis/stacks/call_tree.h"
#include "api/query_options.h"
#include "cli/huge_page_heap.h"
#include "trace_session.h"

namespace nettrace_cli {

namespace {

constexpr size_t kChunkSize = 1 << 20;

// NetPerf v1/v2: the file's last bytes, read with one seek, before reading on.
nettrace::Status ProvideTail(FILE* f, nettrace::TraceSession* session) {
  const off_t here = ftello(f);
  std::vector<uint8_t> tail;
  if (here >= 0 && fseeko(f, 0, SEEK_END) == 0) {
    const uint64_t size = static_cast<uint64_t>(ftello(f));
    tail.resize(static_cast<size_t>(std::min<uint64_t>(session->TailWanted(), size)));
    if (fseeko(f, static_cast<off_t>(size - tail.size()), SEEK_SET) == 0 &&
        std::fread(tail.data(), 1, tail.size(), f) == tail.size() && fseeko(f, here, SEEK_SET) == 0)
      return session->ProvideTail(tail.data(), tail.size(), size);
  }
  return nettrace::Status::Error(nettrace::ErrorCode::kInvalidArgument, nettrace::kNoOffset,
                                 "the file cannot be read from its end (NetPerf versions 1 and 2 need it)");
}

}  // namespace

// A damaged trace still diffs (and goes into a dataset with) what was read before the
// fault, like the other commands.
bool LoadTrace(const char* path, size_t chunkSize, nettrace::TraceSession* session) {
  FILE* f = std::fopen(path, "rb");
  if (!f) {
    std::fprintf(stderr, "nettrace: cannot open %s\n", path);
    return false;
  }
  std::vector<uint8_t> buffer(chunkSize);
  nettrace::Status status;
  for (;;) {
    const size_t n = std::fread(buffer.data(), 1, buffer.size(), f);
    if (n > 0 && !(status = session->PushChunk(buffer.data(), n)).ok()) break;
    if (n > 0 && session->TailWanted() > 0 && !(status = ProvideTail(f, session)).ok()) break;  // NetPerf v1/v2
    if (n < buffer.size()) {
      if (std::ferror(f)) {
        std::fprintf(stderr, "nettrace: read error on %s\n", path);
        std::fclose(f);
        return false;
      }
      status = session->Finish();
      break;
    }
  }
  std::fclose(f);
  if (!status.ok()) std::fprintf(stderr, "nettrace: %s: %s\n", path, status.ToString().c_str());
  return true;
}

int RunDiff(const nettrace::api::Request& request, const char* pathA, const char* pathB) {
  const std::string format = request.format.empty() ? "json" : request.format;
  const size_t topN = request.count ? static_cast<size_t>(*request.count) : SIZE_MAX;
  const size_t chunkSize = request.chunkSize.value_or(kChunkSize);
  // Each side: the shared options, its own range overriding the shared one.
  nettrace::StackQuery qa = request.stack, qb = request.stack;
  if (request.aFromMs) qa.fromMs = request.aFromMs;
  if (request.aToMs) qa.toMs = request.aToMs;
  if (request.bFromMs) qb.fromMs = request.bFromMs;
  if (request.bToMs) qb.toMs = request.bToMs;
  // The same file twice (two ranges of one trace) is read once.
  const bool same = !std::strcmp(pathA, pathB);
  nettrace::TraceSession a, b;
  ReadyHeapForTraces(pathA, same ? nullptr : pathB);
  if (!LoadTrace(pathA, chunkSize, &a) || (!same && !LoadTrace(pathB, chunkSize, &b))) return 1;
  const nettrace::TraceSession& sideB = same ? a : b;
  nettrace::ResolveDiffWeights(a, &qa, sideB, &qb);
  const std::string out = format == "folded" ? nettrace::StackDiffFolded(a, qa, sideB, qb)
                                             : nettrace::StackDiffJson(a, qa, sideB, qb, topN) + "\n";
  std::fwrite(out.data(), 1, out.size(), stdout);
  return a.status().ok() && sideB.status().ok() ? 0 : 1;
}

}  // namespace nettrace_cli
