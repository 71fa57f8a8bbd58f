// `nettrace diff A B [options]` (issue 13): the A/B stack diff of two traces, or of two
// time ranges of one, as JSON or difffolded.pl's folded lines.
#pragma once

#include <cstddef>

namespace nettrace {
class TraceSession;
}

namespace nettrace_cli {

// Streams the file at `path` into `session` in chunks of chunkSize and finishes it; prints
// a reading error (the session keeps what was read before it). False when the file cannot
// be opened or read at all.
bool LoadTrace(const char* path, size_t chunkSize, nettrace::TraceSession* session);

// argv[1] is "diff". Returns the process exit code.
int RunDiff(int argc, char** argv);

}  // namespace nettrace_cli
