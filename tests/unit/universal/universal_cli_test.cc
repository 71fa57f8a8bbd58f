// The CLI writes the sample Linux-profiler trace and draws its CPU and
// off-CPU stacks per process (--event cpu|cswitch, --process PID, --by-process).
#include <catch2/catch.hpp>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "test_support.h"

namespace {

std::string Run(const std::string& command) {
  std::string out;
  FILE* p = popen(command.c_str(), "r");
  REQUIRE(p);
  char buf[4096];
  for (size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
  CHECK(pclose(p) == 0);
  return out;
}

TEST_CASE("universal: nettrace write-sample-universal, flame --event --process --by-process", "[universal]") {
  const std::string tool = NETTRACE_TOOL_PATH;
  const std::string file = nettrace::test::DataPath("../universal-sample.nettrace");
  REQUIRE(std::system((tool + " write-sample-universal '" + file + "'").c_str()) == 0);
  CHECK(Run(tool + " flame '" + file + "' --event cpu --process 2000 --format folded") ==
        "gzip!?;gzip!deflate;libc.so.6!? 10000000\n");
  CHECK(Run(tool + " flame '" + file + "' --event cswitch --by-process --format folded") ==
        "Process dotnet (1000);dotnet!main;libcoreclr.so!coreclr_execute_assembly;App!Demo.Program.Main;"
        "libcoreclr.so!? 7000000\n");
  const std::string top = Run(tool + " top '" + file + "' --event cpu --process 1000 -n 1");
  CHECK(top.find("\"name\":\"App!Demo.Program.Compute\",\"inclusive\":10000000") != std::string::npos);
  std::remove(file.c_str());
}

}  // namespace
