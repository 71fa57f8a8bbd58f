#include "cli/diff_command.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "analysis/call_tree.h"
#include "trace_session.h"

namespace nettrace_cli {

namespace {

constexpr size_t kChunkSize = 1 << 20;

// Streams a whole file into a session; prints the error and returns false on failure. A
// damaged trace still diffs what was read before the fault (like the other commands).
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

bool Load(const char* path, nettrace::TraceSession* session) {
  FILE* f = std::fopen(path, "rb");
  if (!f) {
    std::fprintf(stderr, "nettrace: cannot open %s\n", path);
    return false;
  }
  std::vector<uint8_t> buffer(kChunkSize);
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

bool Number(const char* flag, const char* text, double* out) {
  char* end;
  *out = std::strtod(text, &end);
  if (*end || end == text) {
    std::fprintf(stderr, "nettrace: %s takes a number, not '%s'\n", flag, text);
    return false;
  }
  return true;
}

bool Weight(const std::string& w, nettrace::WeightKind* out) {
  if (w == "count") *out = nettrace::WeightKind::kCount;
  else if (w == "bytes") *out = nettrace::WeightKind::kBytes;
  else if (w == "thread-time") *out = nettrace::WeightKind::kThreadTime;
  else if (w == "managed-thread-time") *out = nettrace::WeightKind::kManagedThreadTime;
  else if (w == "traceevent-thread-time") *out = nettrace::WeightKind::kTraceEventThreadTime;
  else return false;
  return true;
}

// Parses one option at argv[*i] into the shared query or one side's range; false on error.
bool Option(int argc, char** argv, int* i, nettrace::StackQuery* both, nettrace::StackQuery* a,
            nettrace::StackQuery* b, std::string* format, size_t* topN) {
  const char* opt = argv[*i];
  const bool hasValue = *i + 1 < argc;
  double v;
  auto value = [&] { return argv[++*i]; };
  // Grouping, folding, include/exclude (analysis/stack_transform_options.h), both sides.
  if (const int used = nettrace::SetStackTransformOption(opt, hasValue ? argv[*i + 1] : nullptr, &both->transform)) {
    if (used < 0) std::fprintf(stderr, "nettrace: %s takes a ';'-separated pattern list\n", opt);
    *i += used > 0 ? used - 1 : 0;
    return used > 0;
  }
  if (!std::strcmp(opt, "--by-thread")) return both->groupByThread = true;
  if (!std::strcmp(opt, "--by-process")) return both->groupByProcess = true;
  if (!hasValue) {
    std::fprintf(stderr, "nettrace: unknown option '%s' (or missing value)\n", opt);
    return false;
  }
  if (!std::strcmp(opt, "--event")) return both->event = value(), true;
  if (!std::strcmp(opt, "--provider")) return both->provider = value(), true;
  if (!std::strcmp(opt, "--format")) return *format = value(), true;
  if (!std::strcmp(opt, "--weight")) {
    if (Weight(value(), &both->weight)) return true;
    std::fprintf(stderr, "nettrace: --weight takes count, bytes, thread-time, managed-thread-time or traceevent-thread-time\n");
    return false;
  }
  if (!Number(opt, value(), &v)) return false;
  if (!std::strcmp(opt, "--thread") && v >= 0) return both->thread = static_cast<uint64_t>(v), true;
  if (!std::strcmp(opt, "--process") && v >= 0) return both->process = static_cast<uint64_t>(v), true;
  if (!std::strcmp(opt, "-n") && v >= 0) return *topN = static_cast<size_t>(v), true;
  if (!std::strcmp(opt, "--from")) return both->fromMs = v, true;
  if (!std::strcmp(opt, "--to")) return both->toMs = v, true;
  if (!std::strcmp(opt, "--a-from")) return a->fromMs = v, true;
  if (!std::strcmp(opt, "--a-to")) return a->toMs = v, true;
  if (!std::strcmp(opt, "--b-from")) return b->fromMs = v, true;
  if (!std::strcmp(opt, "--b-to")) return b->toMs = v, true;
  std::fprintf(stderr, "nettrace: unknown option '%s'\n", opt);
  return false;
}

}  // namespace

int RunDiff(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr,
                 "usage: nettrace diff A B [--format json|folded] [-n N] [--event NAME] [--provider P]\n"
                 "       [--thread T] [--process PID] [--by-thread] [--by-process] [--weight W]\n"
                 "       [--from MS] [--to MS] [--a-from MS] [--a-to MS] [--b-from MS] [--b-to MS]\n"
                 "       [--group-by-module] [--just-my-code] [--drop-time-leaves] [--group-pats P]\n"
                 "       [--fold-pats P] [--exclude-pats P] [--include-pats P]\n");
    return 2;
  }
  nettrace::StackQuery both, rangeA, rangeB;
  std::string format = "json";
  size_t topN = SIZE_MAX;
  for (int i = 4; i < argc; ++i)
    if (!Option(argc, argv, &i, &both, &rangeA, &rangeB, &format, &topN)) return 2;
  if (format != "json" && format != "folded") {
    std::fprintf(stderr, "nettrace: diff --format takes json or folded\n");
    return 2;
  }
  // Each side: the shared options, its own range overriding the shared one.
  nettrace::StackQuery qa = both, qb = both;
  if (rangeA.fromMs) qa.fromMs = rangeA.fromMs;
  if (rangeA.toMs) qa.toMs = rangeA.toMs;
  if (rangeB.fromMs) qb.fromMs = rangeB.fromMs;
  if (rangeB.toMs) qb.toMs = rangeB.toMs;
  // The same file twice (two ranges of one trace) is read once.
  const bool same = !std::strcmp(argv[2], argv[3]);
  nettrace::TraceSession a, b;
  if (!Load(argv[2], &a) || (!same && !Load(argv[3], &b))) return 1;
  const nettrace::TraceSession& sideB = same ? a : b;
  const std::string out = format == "folded" ? nettrace::StackDiffFolded(a, qa, sideB, qb)
                                             : nettrace::StackDiffJson(a, qa, sideB, qb, topN) + "\n";
  std::fwrite(out.data(), 1, out.size(), stdout);
  return a.status().ok() && sideB.status().ok() ? 0 : 1;
}

}  // namespace nettrace_cli
