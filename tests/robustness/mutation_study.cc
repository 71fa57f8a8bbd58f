// tests/robustness — the mutation study: every real trace, damaged thousands of ways, read
// by the release reading path (release_path.h), one forked child per input so that each
// input's peak memory (wait4's ru_maxrss), a crash (a signal) and a hang (SIGALRM after
// --timeout seconds) are all observable. Each input must give either a complete read or
// an error that names a byte offset inside the input, within 20 × input size + 40 MB.
//
//   nettrace_mutation_study [--full] [--jobs N] [--timeout S] [--seed N] [--failures DIR] PATH...
//     PATH: trace files or directories searched recursively for *.nettrace / *.netperf,
//           and heap snapshots (*.gcdump), read along `nettrace heap`'s path
//     default: the CI subset — per trace the first inputs of the full plan, as many as fit a
//              fixed byte budget (at least 40 byte changes and 10 cuts, at most the full plan)
//     --full:  2,000 single-byte changes and 500 truncations per trace
//     --failures DIR: also write each failing input there, as a file, to reproduce it
// Prints one table row per trace; exits 1 if any input failed. Deterministic: the same
// seed and traces give the same inputs (mutated_input.h).
#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <new>
#include <string>
#include <vector>

#include "base/status.h"
#include "mutated_input.h"
#include "release_path.h"

namespace fs = std::filesystem;
using namespace nettrace::robustness;

namespace {

constexpr size_t kFullMutations = 2000, kFullTruncations = 500;
// CI: bytes read per trace (input size × inputs); measured to keep the whole study near
// two minutes on two cores (tests/robustness/README.md).
constexpr uint64_t kCiByteBudget = 320ull << 20;
constexpr int kExitOutOfMemory = 3;

struct Options {
  bool full = false;
  int jobs = 2;
  unsigned timeout = 10;
  uint64_t seed = 1;
  std::string failures;
  std::vector<fs::path> traces;
};

struct Row {
  size_t inputs = 0, complete = 0, cleanErrors = 0, failures = 0;
  double maxPeakMb = 0, maxPeakRatio = 0, maxSeconds = 0, cpuSeconds = 0;
};

uint64_t LimitBytes(uint64_t inputSize) { return 20 * inputSize + (40ull << 20); }

// In the child: the work, then the result down the pipe. Memory is capped (address
// space) so a runaway input fails alone instead of taking the shared machine with it.
[[noreturn]] void Child(const fs::path& trace, uint64_t size, const Mutation& m, int pipeFd, unsigned timeout) {
  alarm(timeout);
  const uint64_t cap = 2 * LimitBytes(MutatedFile(-1, size, m).size()) + (512ull << 20);
  rlimit limit{cap, cap};
  setrlimit(RLIMIT_AS, &limit);
  std::set_new_handler([] { _exit(kExitOutOfMemory); });
  const int fd = open(trace.c_str(), O_RDONLY);
  if (fd < 0) _exit(4);
  const MutatedFile file(fd, size, m);
  const ChildResult r = trace.extension() == ".gcdump" ? RunHeapPath(file) : RunReleasePath(file);
  if (write(pipeFd, &r, sizeof r) != static_cast<ssize_t>(sizeof r)) _exit(5);
  _exit(0);
}

void SaveFailure(const Options& o, const fs::path& trace, uint64_t size, const Mutation& m) {
  if (o.failures.empty()) return;
  fs::create_directories(o.failures);
  const int fd = open(trace.c_str(), O_RDONLY);
  std::vector<uint8_t> bytes;
  MutatedFile(fd, size, m).Read(0, size, &bytes);
  close(fd);
  const std::string name = trace.stem().string() + (m.kind == Mutation::Kind::kTruncate ? "-cut" : "-byte") +
                           std::to_string(m.offset) + trace.extension().string();
  if (FILE* f = std::fopen((fs::path(o.failures) / name).c_str(), "wb")) {
    std::fwrite(bytes.data(), 1, bytes.size(), f);
    std::fclose(f);
  }
}

// Judges one reaped child; returns an empty string when the input passed.
std::string Judge(int status, const rusage& ru, int pipeFd, uint64_t inputSize, unsigned timeout, Row* row) {
  ChildResult r;
  const bool gotResult = read(pipeFd, &r, sizeof r) == static_cast<ssize_t>(sizeof r);
  const double peak = static_cast<double>(ru.ru_maxrss) * 1024.0;
  row->maxPeakMb = std::max(row->maxPeakMb, peak / (1 << 20));
  row->maxPeakRatio = std::max(row->maxPeakRatio, peak / static_cast<double>(LimitBytes(inputSize)));
  row->cpuSeconds += static_cast<double>(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
                     static_cast<double>(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
  if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM) {
    row->maxSeconds = std::max<double>(row->maxSeconds, timeout);
    return "hang: no result after " + std::to_string(timeout) + " s";
  }
  if (WIFSIGNALED(status)) return std::string("crash: killed by signal ") + strsignal(WTERMSIG(status));
  if (WIFEXITED(status) && WEXITSTATUS(status) == kExitOutOfMemory) return "out of memory (address-space cap)";
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || !gotResult)
    return "child failed: exit status " + std::to_string(WEXITSTATUS(status));
  row->maxSeconds = std::max(row->maxSeconds, r.seconds);
  if (peak > static_cast<double>(LimitBytes(inputSize)))
    return "peak memory " + std::to_string(ru.ru_maxrss / 1024) + " MB above 20 x input + 40 MB";
  if (r.complete) {
    ++row->complete;
    return "";
  }
  if (r.errorOffset == nettrace::kNoOffset) return std::string("error without a byte offset: ") + r.message;
  if (r.errorOffset > inputSize) return std::string("error offset beyond the input: ") + r.message;
  ++row->cleanErrors;
  return "";
}

// Runs `plan` on one trace with up to o.jobs children at a time.
Row Study(const Options& o, const fs::path& trace, const std::vector<Mutation>& plan) {
  const uint64_t size = fs::file_size(trace);
  Row row;
  struct Running {
    size_t index;
    int pipeFd;
  };
  std::map<pid_t, Running> running;
  size_t next = 0;
  while (next < plan.size() || !running.empty()) {
    while (next < plan.size() && running.size() < static_cast<size_t>(o.jobs)) {
      int fds[2];
      if (pipe(fds) != 0) std::abort();
      const pid_t pid = fork();
      if (pid < 0) std::abort();
      if (pid == 0) {
        close(fds[0]);
        Child(trace, size, plan[next], fds[1], o.timeout);
      }
      close(fds[1]);
      running[pid] = {next++, fds[0]};
    }
    int status = 0;
    rusage ru{};
    const pid_t pid = wait4(-1, &status, 0, &ru);
    if (pid < 0) std::abort();
    auto it = running.find(pid);
    if (it == running.end()) continue;
    const Mutation& m = plan[it->second.index];
    const std::string problem = Judge(status, ru, it->second.pipeFd, MutatedFile(-1, size, m).size(), o.timeout, &row);
    close(it->second.pipeFd);
    running.erase(it);
    ++row.inputs;
    if (!problem.empty()) {
      ++row.failures;
      std::printf("FAIL %s, %s: %s\n", trace.filename().c_str(), Describe(m).c_str(), problem.c_str());
      SaveFailure(o, trace, size, m);
    }
  }
  return row;
}

bool ParseArgs(int argc, char** argv, Options* o) {
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const bool value = i + 1 < argc;
    if (a == "--full") o->full = true;
    else if (a == "--jobs" && value) o->jobs = std::max(1, std::atoi(argv[++i]));
    else if (a == "--timeout" && value) o->timeout = static_cast<unsigned>(std::max(1, std::atoi(argv[++i])));
    else if (a == "--seed" && value) o->seed = std::strtoull(argv[++i], nullptr, 10);
    else if (a == "--failures" && value) o->failures = argv[++i];
    else if (!a.empty() && a[0] == '-') return false;
    else if (fs::is_directory(a)) {
      for (const auto& e : fs::recursive_directory_iterator(a)) {
        const std::string ext = e.path().extension().string();
        if (e.is_regular_file() && (ext == ".nettrace" || ext == ".netperf" || ext == ".gcdump")) o->traces.push_back(e.path());
      }
    } else if (fs::is_regular_file(a)) {
      o->traces.push_back(a);
    } else {
      std::fprintf(stderr, "mutation study: no such file or directory: %s\n", a.c_str());
      return false;
    }
  }
  std::sort(o->traces.begin(), o->traces.end());
  return !o->traces.empty();
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  if (!ParseArgs(argc, argv, &o)) {
    std::fprintf(stderr, "usage: nettrace_mutation_study [--full] [--jobs N] [--timeout S] [--seed N] "
                         "[--failures DIR] TRACE_OR_DIR...\n");
    return 2;
  }
  const auto start = std::chrono::steady_clock::now();
  std::printf("mutation study (%s, seed %llu, %d jobs, timeout %u s): the release reading path per input\n",
              o.full ? "full" : "CI subset", static_cast<unsigned long long>(o.seed), o.jobs, o.timeout);
  std::vector<std::pair<std::string, Row>> rows;
  size_t failures = 0;
  for (const fs::path& trace : o.traces) {
    const uint64_t size = fs::file_size(trace);
    size_t mutations = kFullMutations, truncations = kFullTruncations;
    if (!o.full) {
      // The first inputs of the full plan: a deterministic subset of it.
      const uint64_t fit = kCiByteBudget / std::max<uint64_t>(size, 1);
      mutations = std::clamp<uint64_t>(fit * 4 / 5, 40, kFullMutations);
      truncations = std::clamp<uint64_t>(fit / 5, 10, kFullTruncations);
    }
    std::vector<Mutation> plan = PlanInputs(trace.filename().string(), size, kFullMutations, kFullTruncations, o.seed);
    if (plan.size() == kFullMutations + kFullTruncations) {
      plan.erase(plan.begin() + static_cast<ptrdiff_t>(mutations), plan.begin() + static_cast<ptrdiff_t>(kFullMutations));
      plan.resize(mutations + truncations);
    }
    rows.emplace_back(trace.filename().string() + " (" + std::to_string(size) + " B)", Study(o, trace, plan));
    failures += rows.back().second.failures;
    std::fprintf(stderr, "mutation study: %s done (%zu inputs, %zu failing, %.0f s since the start)\n",
                 trace.filename().c_str(), rows.back().second.inputs, rows.back().second.failures,
                 std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  std::printf("\n%-66s %7s %9s %7s %6s %8s %10s %8s\n", "trace (bytes)", "inputs", "complete", "clean", "FAIL",
              "peak MB", "peak/limit", "max s");
  double cpu = 0;
  for (const auto& [name, r] : rows) {
    std::printf("%-66s %7zu %9zu %7zu %6zu %8.1f %10.3f %8.2f\n", name.c_str(), r.inputs, r.complete, r.cleanErrors,
                r.failures, r.maxPeakMb, r.maxPeakRatio, r.maxSeconds);
    cpu += r.cpuSeconds;
  }
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("\n%zu traces, %zu failing inputs; wall %.1f s, CPU %.1f s (children)\n", rows.size(), failures, wall, cpu);
  return failures ? 1 : 0;
}
