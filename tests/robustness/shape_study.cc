// tests/robustness — the shape study: every command of the native CLI on each extreme shape
// (tests/shapes/extreme_shapes.h) at two sizes, n and 4n, each run in its own child process
// so that peak memory (wait4's ru_maxrss) and CPU time (user + system, not wall time) are
// the child's own. The shapes are valid traces: each run must end with status 0 (no error,
// no signal), within the mutation study's bound: peak RSS <= 20 x input + 40 MB. And the work must grow
// linearly with the shape: CPU(4n) / CPU(n) <= 8 (linear work gives about 4, a quadratic
// step 16) — compared only where the larger run takes at least kMinCpu, so that fixed costs
// and the clock's resolution cannot decide it.
//
//   nettrace_shape_study [--tool PATH] [--scale K] [--only SHAPE] [--known LIST] [--keep DIR]
//     --tool: the CLI (default: the one built next to this study)
//     --scale: sizes K times the shapes' CI sizes (default 1)
//     --known: comma-separated SHAPE:COMMAND faults known and not fixed yet (SHAPE may be *,
//              COMMAND is a prefix of the command as printed, * for all): still run and
//              printed, marked "known", not counted (tests/robustness/README.md lists them)
// Prints one row per shape, size and command; exits 1 if any other run failed.
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "shapes/extreme_shapes.h"

namespace fs = std::filesystem;
using namespace nettrace::shapes;

namespace {

constexpr double kMaxRatio = 8;
constexpr double kMinCpu = 0.5;  // seconds

struct Run {
  int status = 0;
  double cpu = 0, peakMb = 0;
  std::string error;  // the child's stderr, first line
};

uint64_t LimitBytes(uint64_t inputSize) { return 20 * inputSize + (40ull << 20); }

// The CLI with `args`, stdout to /dev/null, stderr to a file; address space capped at twice
// the bound plus 512 MB so a runaway run fails alone.
Run RunTool(const std::string& tool, const std::vector<std::string>& args, uint64_t inputSize, const fs::path& errFile) {
  Run r;
  const pid_t pid = fork();
  if (pid == 0) {
    const uint64_t cap = 2 * LimitBytes(inputSize) + (512ull << 20);
    rlimit limit{cap, cap};
    setrlimit(RLIMIT_AS, &limit);
    const int out = open("/dev/null", O_WRONLY), err = open(errFile.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(out, 1), dup2(err, 2);
    std::vector<char*> argv{const_cast<char*>(tool.c_str())};
    for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    execv(tool.c_str(), argv.data());
    _exit(127);
  }
  rusage ru{};
  wait4(pid, &r.status, 0, &ru);
  r.cpu = static_cast<double>(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
          static_cast<double>(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
  r.peakMb = static_cast<double>(ru.ru_maxrss) / 1024.0;
  if (FILE* f = std::fopen(errFile.c_str(), "r")) {
    char line[300] = {};
    if (std::fgets(line, sizeof line, f)) r.error = line;
    std::fclose(f);
    if (!r.error.empty() && r.error.back() == '\n') r.error.pop_back();
  }
  return r;
}

// Every command that reads a FILE, with what it needs to do real work on these shapes.
std::vector<std::vector<std::string>> Commands(const std::string& file, const std::string& text, const fs::path& dir) {
  return {{"summary", file},
          {"counts", file},
          {"events", file},
          {"events", file, "--text", text},
          {"events", file, "--frames", "--limit", "1000"},
          {"stack", file, "1"},
          {"flame", file},
          {"flame", file, "--format", "folded"},
          {"flame", file, "--inverted", "--by-thread"},
          {"top", file},
          {"export", file, "--format", "speedscope", "-o", (dir / "out.speedscope.json").string()},
          {"export", file, "--format", "chrome", "-o", (dir / "out.chrome.json").string()},
          {"export", file, "--format", "csv", "-o", (dir / "out.csv").string()},
          {"convert", file, (dir / "out.nettrace").string()},
          {"gc", file},
          {"jit", file},
          {"exceptions", file},
          {"contention", file},
          {"activities", file},
          {"counters", file},
          {"threadpool", file}};
}

// Whether "shape:command" matches one of the comma-separated patterns.
bool Known(const std::string& list, const std::string& shape, const std::string& command) {
  size_t at = 0;
  while (at <= list.size()) {
    const size_t end = std::min(list.find(',', at), list.size());
    const std::string item = list.substr(at, end - at);
    at = end + 1;
    const size_t colon = item.find(':');
    if (colon == std::string::npos) continue;
    const std::string s = item.substr(0, colon), c = item.substr(colon + 1);
    if ((s == "*" || s == shape) && (c == "*" || command.rfind(c, 0) == 0)) return true;
  }
  return false;
}

std::string Join(const std::vector<std::string>& args) {
  std::string s;
  for (size_t i = 0; i < args.size(); ++i)
    if (i != 1 && args[i].find('/') == std::string::npos) s += (s.empty() ? "" : " ") + args[i];
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  std::string tool = NETTRACE_TOOL_PATH, only, known;
  double scale = 1;
  fs::path dir;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--tool" && i + 1 < argc) tool = argv[++i];
    else if (a == "--scale" && i + 1 < argc) scale = std::atof(argv[++i]);
    else if (a == "--only" && i + 1 < argc) only = argv[++i];
    else if (a == "--known" && i + 1 < argc) known = argv[++i];
    else if (a == "--keep" && i + 1 < argc) dir = argv[++i];
    else {
      std::fprintf(stderr,
                   "usage: nettrace_shape_study [--tool PATH] [--scale K] [--only SHAPE] [--known LIST] [--keep DIR]\n");
      return 2;
    }
  }
  const bool keep = !dir.empty();
  if (!keep) dir = fs::temp_directory_path() / ("nettrace-shapes-" + std::to_string(getpid()));
  fs::create_directories(dir);
  std::printf("shape study: %s, sizes n and 4n (n = CI size x %g); bound 20 x input + 40 MB, CPU(4n)/CPU(n) <= %g\n",
              tool.c_str(), scale, kMaxRatio);
  std::printf("%-20s %-36s %9s %9s %8s %8s %8s %8s %6s  %s\n", "shape", "command", "n", "bytes", "cpu s", "cpu 4n",
              "MB", "MB 4n", "ratio", "verdict");
  size_t failures = 0;
  for (const ShapeInfo& shape : AllShapes()) {
    if (!only.empty() && only != shape.name) continue;
    const size_t n = static_cast<size_t>(static_cast<double>(shape.ciSize) * scale);
    std::vector<fs::path> files;
    std::vector<uint64_t> sizes;
    for (size_t size : {n, 4 * n}) {
      std::vector<uint8_t> bytes;
      if (nettrace::Status st = WriteShape(shape.shape, size, &bytes); !st.ok()) {
        std::printf("FAIL %s: the generator failed: %s\n", shape.name, st.ToString().c_str());
        return 1;
      }
      files.push_back(dir / (std::string(shape.name) + "-" + std::to_string(size) + ".nettrace"));
      FILE* f = std::fopen(files.back().c_str(), "wb");
      if (!f || std::fwrite(bytes.data(), 1, bytes.size(), f) != bytes.size() || std::fclose(f) != 0) return 1;
      sizes.push_back(bytes.size());
    }
    const auto small = Commands(files[0].string(), shape.text, dir), large = Commands(files[1].string(), shape.text, dir);
    for (size_t c = 0; c < small.size(); ++c) {
      Run runs[2];
      std::string verdict;
      for (int k = 0; k < 2; ++k) {
        runs[k] = RunTool(tool, k ? large[c] : small[c], sizes[k], dir / "stderr.txt");
        const Run& r = runs[k];
        const std::string at = k ? " at 4n" : " at n";
        if (WIFSIGNALED(r.status)) verdict += "killed by signal " + std::to_string(WTERMSIG(r.status)) + at + "; ";
        else if (WEXITSTATUS(r.status) != 0)  // the shapes are valid traces: every command reads them whole
          verdict += "exit status " + std::to_string(WEXITSTATUS(r.status)) + at + ": " + r.error + "; ";
        if (r.peakMb * (1 << 20) > static_cast<double>(LimitBytes(sizes[k])))
          verdict += "peak above 20 x input + 40 MB" + at + "; ";
      }
      const double ratio = runs[1].cpu / std::max(runs[0].cpu, 0.01);
      if (runs[1].cpu >= kMinCpu && ratio > kMaxRatio) verdict += "work grows faster than the shape; ";
      const std::string command = Join(small[c]);
      const bool isKnown = !verdict.empty() && Known(known, shape.name, command);
      if (!verdict.empty() && !isKnown) ++failures;
      std::printf("%-20s %-36s %9zu %9llu %8.2f %8.2f %8.1f %8.1f %6.1f  %s\n", shape.name, command.c_str(), n,
                  static_cast<unsigned long long>(sizes[1]), runs[0].cpu, runs[1].cpu, runs[0].peakMb, runs[1].peakMb,
                  ratio, verdict.empty() ? "ok" : ((isKnown ? "known: " : "FAIL: ") + verdict).c_str());
      std::fflush(stdout);
    }
  }
  if (!keep) fs::remove_all(dir);
  std::printf("\n%zu failing command(s)\n", failures);
  return failures ? 1 : 0;
}
