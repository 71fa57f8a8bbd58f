// The CLI where memory truly runs out (its address space capped below what a valid trace
// needs): an error naming how far the file was read, exit status 1 — not std::terminate's
// abort (SIGABRT) on an uncaught std::bad_alloc.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "shapes/extreme_shapes.h"

namespace fs = std::filesystem;

TEST_CASE("cli: running out of memory is an error with the offset, not an abort", "[cli]") {
  std::vector<uint8_t> bytes;
  REQUIRE(nettrace::shapes::WriteShape(nettrace::shapes::Shape::kNoSequencePoints, 4'000'000, &bytes).ok());
  const fs::path dir = fs::temp_directory_path() / ("nettrace-oom-" + std::to_string(getpid()));
  fs::create_directories(dir);
  const fs::path trace = dir / "flood.nettrace", err = dir / "stderr.txt";
  FILE* f = std::fopen(trace.c_str(), "wb");
  REQUIRE(f);
  REQUIRE(std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size());
  REQUIRE(std::fclose(f) == 0);

  const pid_t pid = fork();
  if (pid == 0) {
    // Enough to start and read part of the trace, not to hold its 4 M events (~60 MB).
    rlimit limit{40u << 20, 40u << 20};
    setrlimit(RLIMIT_AS, &limit);
    const int out = open("/dev/null", O_WRONLY), e = open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(out, 1), dup2(e, 2);
    execl(NETTRACE_TOOL_PATH, NETTRACE_TOOL_PATH, "summary", trace.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  int status = 0;
  REQUIRE(waitpid(pid, &status, 0) == pid);
  std::string message;
  if (FILE* ef = std::fopen(err.c_str(), "r")) {
    char line[400] = {};
    while (std::fgets(line, sizeof line, ef)) message += line;
    std::fclose(ef);
  }
  fs::remove_all(dir);
  INFO(message);
  REQUIRE_FALSE(WIFSIGNALED(status));
  CHECK(WEXITSTATUS(status) == 1);
  CHECK(message.find("out of memory after reading") != std::string::npos);
  CHECK(message.find("(offset ") != std::string::npos);
}
