// `nettrace diff A B [options]`: the A/B stack diff of two traces, or of two
// time ranges of one, as JSON or difffolded.pl's folded lines.
#pragma once

#include "api/query_options.h"

namespace nettrace_cli {

// The command line parsed by the caller (api/command_line.h): its options, the two files.
// Returns the process exit code.
int RunDiff(const nettrace::api::Request& request, const char* pathA, const char* pathB);

}  // namespace nettrace_cli
