// `nettrace diff A B [options]`: the A/B stack diff of two traces, or of two
// time ranges of one, as JSON or difffolded.pl's folded lines.
#pragma once

#include <cstddef>

#include "api/query_options.h"

namespace nettrace {
class TraceSession;
}

namespace nettrace_cli {

// Streams the file at `path` into `session` in chunks of chunkSize and finishes it; prints
// a reading error (the session keeps what was read before it). False when the file cannot
// be opened or read at all.
bool LoadTrace(const char* path, size_t chunkSize, nettrace::TraceSession* session);

// The command line parsed by the caller (api/command_line.h): its options, the two files.
// Returns the process exit code.
int RunDiff(const nettrace::api::Request& request, const char* pathA, const char* pathB);

}  // namespace nettrace_cli
