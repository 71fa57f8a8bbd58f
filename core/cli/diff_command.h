// `nettrace diff A B [options]` (issue 13): the A/B stack diff of two traces, or of two
// time ranges of one, as JSON or difffolded.pl's folded lines.
#pragma once

namespace nettrace_cli {

// argv[1] is "diff". Returns the process exit code.
int RunDiff(int argc, char** argv);

}  // namespace nettrace_cli
