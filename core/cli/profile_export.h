// core/cli — `nettrace export FILE --format pprof|otlp [-o OUT] [--otlp-endpoint URL]`: the
// stacks as one profile (TraceSession::BuildProfile) written as gzipped pprof or as an
// OpenTelemetry profiles request, and the latter pushed to a collector (cli/otlp_push.h).
// Memory: the profile plus one part; the file is written part by part, and a push sends the
// file (a temporary one without -o) so that it can say its length first.
#pragma once

#include "api/query_options.h"
#include "trace_session.h"

namespace nettrace_cli {

// Whether `export --format` is one of the profile formats.
bool IsProfileFormat(const std::string& format);

// Returns the process exit code; messages go to stderr.
int ExportProfile(const nettrace::TraceSession& session, const nettrace::api::Request& request, const char* outPath);

}  // namespace nettrace_cli
