// tests/fuzz — the harnesses' assertions. A failed check prints what broke and aborts,
// which libFuzzer reports as a crash and saves the input (scripts/fuzz.sh puts it under
// build/fuzz/crashes/). Checks run in every build type: they are the fuzzers' oracle.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string>

#include "base/status.h"

namespace nettrace::fuzz {

[[noreturn]] inline void Fail(const char* file, int line, const char* what, const std::string& detail) {
  std::fprintf(stderr, "fuzz check failed at %s:%d: %s%s%s\n", file, line, what, detail.empty() ? "" : ": ",
               detail.c_str());
  std::fflush(stderr);
  std::abort();
}

// An error the reader reports for a damaged file must say where (style.md §5); the offset
// lies inside the file or at its end (where a truncated file ran out).
inline std::string ErrorProblem(const Status& s, size_t fileSize) {
  if (s.ok()) return "";
  if (s.offset() == kNoOffset) return "error without a byte offset: " + s.ToString();
  if (s.offset() > fileSize) return "error offset beyond the file (" + std::to_string(fileSize) + " bytes): " + s.ToString();
  return "";
}

}  // namespace nettrace::fuzz

#define FUZZ_CHECK(cond, detail) \
  ((cond) ? (void)0 : ::nettrace::fuzz::Fail(__FILE__, __LINE__, #cond, (detail)))
