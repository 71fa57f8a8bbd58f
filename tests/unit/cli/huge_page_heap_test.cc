// The native tool's heap readied for a read (core/cli/huge_page_heap.h): room at the heap's top
// that the kernel marks for transparent huge pages, and the read's blocks placed in it.
#include <catch2/catch.hpp>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>

#include "cli/huge_page_heap.h"

#if defined(__linux__) && defined(__GLIBC__)
#include <sys/wait.h>
#include <unistd.h>
#endif

namespace {

constexpr uint64_t kMiB = uint64_t{1} << 20;

#if defined(__linux__) && defined(__GLIBC__)
// The VmFlags line of the mapping holding `address` in /proc/self/smaps ("" if none).
std::string VmFlagsOf(uintptr_t address) {
  std::ifstream smaps("/proc/self/smaps");
  std::string line;
  bool inside = false;
  while (std::getline(smaps, line)) {
    unsigned long long from = 0, to = 0;
    if (std::sscanf(line.c_str(), "%llx-%llx ", &from, &to) == 2)  // a mapping's first line
      inside = address >= from && address < to;
    if (inside && line.rfind("VmFlags:", 0) == 0) return line;
  }
  return "";
}

// What the fresh process found wrong ("" when nothing): the advice is on the reserved range, and a
// block as large as the store's chunks that the read allocates next lands in it.
std::string CheckInChild() {
  const nettrace_cli::HugePageHeap h = nettrace_cli::ReadyHeapForRead(nettrace_cli::ExpectedReadHeap(10 * kMiB));
  if (h.skipped) return std::string("skipped: ") + h.skipped;
  if (h.end - h.begin < 64 * kMiB) return "advised only " + std::to_string((h.end - h.begin) / kMiB) + " MiB";
  const std::string flags = VmFlagsOf(h.begin);
  if (flags.find(" hg") == std::string::npos) return "the advised range has no huge-page flag: " + flags;
  // 8 MiB: above glibc's default threshold (128 KiB, raised at most to 32 MiB by frees), a
  // block of which size a plain process mmaps apart from the heap.
  char* volatile block = static_cast<char*>(std::malloc(8 * kMiB));
  std::memset(block, 1, 8 * kMiB);
  const uintptr_t at = reinterpret_cast<uintptr_t>(block);
  if (at < h.begin || at + 8 * kMiB > h.end) return "an 8 MiB block lies outside the advised range";
  std::free(block);
  return "";
}
#endif

}  // namespace

TEST_CASE("cli: the expected heap of a read grows with the file, within bounds", "[cli]") {
  CHECK(nettrace_cli::ExpectedReadHeap(0) == 64 * kMiB);
  CHECK(nettrace_cli::ExpectedReadHeap(10 * kMiB) == 94 * kMiB);
  CHECK(nettrace_cli::ExpectedReadHeap(uint64_t{1} << 40) == 256 * kMiB);
}

// The check itself, hidden ([.]): run by the case below in a fresh process of this binary,
// whose heap is as the tool's is when it starts (glibc's thresholds are process-wide, and
// earlier cases leave free room in the heap that a block would be taken from instead). A skip
// (no growth possible here: an address-space or data limit) prints a line the parent passes on.
TEST_CASE("cli: huge-page heap, in a fresh process", "[.][huge-page-child]") {
#if defined(__linux__) && defined(__GLIBC__)
  const std::string problem = CheckInChild();
  if (problem.rfind("skipped: ", 0) == 0) {
    std::printf("HUGE-PAGE-SKIP %s\n", problem.c_str() + 9);  // after "skipped: "
    return;
  }
  INFO(problem);
  CHECK(problem == "");
#endif
}

TEST_CASE("cli: the read's heap is advised for transparent huge pages", "[cli][memory]") {
#if !(defined(__linux__) && defined(__GLIBC__) && UINTPTR_MAX == UINT64_MAX)
  WARN("huge-page heap skipped: not 64-bit Linux with glibc (the tool leaves the heap as it is)");
#elif defined(__SANITIZE_ADDRESS__)
  WARN("huge-page heap skipped: AddressSanitizer's allocator replaces glibc's heap");
#else
  std::ifstream thp("/sys/kernel/mm/transparent_hugepage/enabled");
  std::string mode;
  if (!thp || !std::getline(thp, mode) || mode.find("[never]") != std::string::npos) {
    WARN("huge-page heap skipped: transparent huge pages are off on this machine (" + mode + ")");
    return;
  }
  char self[4096] = {};
  REQUIRE(readlink("/proc/self/exe", self, sizeof self - 1) > 0);
  int out[2];
  REQUIRE(pipe(out) == 0);
  const pid_t child = fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    dup2(out[1], STDOUT_FILENO), dup2(out[1], STDERR_FILENO);
    close(out[0]), close(out[1]);
    char tag[] = "[huge-page-child]";
    char* argv[] = {self, tag, nullptr};
    execv(self, argv);
    _exit(127);
  }
  close(out[1]);
  std::string output;
  char buffer[4096];
  for (ssize_t n; (n = read(out[0], buffer, sizeof buffer)) > 0;) output.append(buffer, static_cast<size_t>(n));
  close(out[0]);
  int status = 0;
  REQUIRE(waitpid(child, &status, 0) == child);
  if (const size_t at = output.find("HUGE-PAGE-SKIP "); at != std::string::npos) {
    WARN("huge-page heap skipped: " + output.substr(at + 15, output.find('\n', at) - at - 15));
    return;
  }
  INFO(output);
  CHECK(output.find("All tests passed (1 assertion in 1 test case)") != std::string::npos);
  CHECK((WIFEXITED(status) && WEXITSTATUS(status) == 0));
#endif
}
