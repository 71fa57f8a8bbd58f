// tests/robustness — what one child process of the mutation study does with its input:
// the release CLI's reading path (core/cli/nettrace_tool.cc) through the TraceSession
// facade: stream the file in 1 MiB chunks, finish, then the summary, the first page of
// events with their blocks re-read and provided (header and payload details), and the
// default flame graph. The result travels to the parent as one fixed-size record.
#pragma once

#include <cstdint>

#include "mutated_input.h"

namespace nettrace::robustness {

struct ChildResult {
  bool complete = false;       // the read ended at the end-of-stream marker, no error
  uint8_t errorCode = 0;       // nettrace::ErrorCode of the first error
  uint64_t errorOffset = 0;    // its byte offset (nettrace::kNoOffset when it has none)
  uint64_t events = 0;
  double seconds = 0;          // wall time of the whole path
  char message[240] = {};      // Status::ToString(), cut
};

// Runs the path on `file`; never throws (core/ has no exceptions); I/O errors of the
// study itself are reported as an error without offset.
ChildResult RunReleasePath(const MutatedFile& file);

// A heap snapshot along `nettrace heap`'s path (core/cli/heap_command.cc): the file in 1 MiB
// chunks into a HeapSession, finish, the analyses and the heap view with a paths-to query;
// `events` is the graph's node count.
ChildResult RunHeapPath(const MutatedFile& file);

}  // namespace nettrace::robustness
