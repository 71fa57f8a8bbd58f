// core/cli — `nettrace export FILE --format speedscope|chrome|csv|stacks-csv -o OUT`: the
// document written to OUT a part at a time (export/export_stream.h; the Chrome trace a page
// of blocks at a time), so that memory is the session plus one part whatever the output's
// size: a million bodiless events make a Chrome trace 100 times the file's size.
#pragma once

#include <cstdio>
#include <string>

#include "api/query_options.h"
#include "trace_session.h"

namespace nettrace_cli {

struct TextExport {
  std::string format;          // speedscope | chrome | csv | stacks-csv
  nettrace::StackQuery query;  // with the default weight applied
  bool stackText = false;      // csv: each event's frames too
  bool speedscopeSampled = false;
  std::string name;            // the trace's file name, speedscope's profile name
  std::string tracePath;       // for a re-read's error message
};

// Writes `what` to outPath; a failed write removes the partial file. Returns the exit code
// (messages on stderr). `read` serves the Chrome trace's payload re-reads from the trace.
int ExportText(nettrace::TraceSession& session, const TextExport& what, const nettrace::TraceSession::BlockReader& read,
               const char* outPath);

}  // namespace nettrace_cli
