// core/api — one command's argv as both CLIs read it (the native `nettrace` and the npm
// `nettrace-analyzer`, through the wasm module): its options, the rows of the query table
// (query_options.h) wherever they stand on the line; its positional arguments (FILE, ROW,
// OUT, …) in order; `--help`. And, from the same table, the one-line usage an error ends
// with and the help `COMMAND --help` prints.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "api/query_options.h"
#include "base/status.h"

namespace nettrace::api {

// What a command line holds besides its options.
struct CommandLine {
  std::vector<std::string> positional;  // in order: FILE, ROW, OUT, A B, …
  bool help = false;                    // --help or -h: print the command's help, nothing else
};

// args: argv after the command. An option may come before, between or after the positional
// arguments; a value-taking option takes the next argument whatever it looks like
// (`--from -5`); "-" is a positional argument (standard input) and after "--" every argument
// is one. The first bad option stops it (ParseCliArgs's messages), then a wrong number of
// positional arguments ("stack needs FILE ROW"). --help anywhere wins over both.
Status ParseCommandLine(const QuerySpec& query, const std::vector<std::string>& args, CommandLine* line,
                        Request* request);

// The positional arguments a query takes: the leading upper-case words of its `args`
// ("FILE ROW" → FILE, ROW; "(--pid N | …)" → none).
std::vector<std::string> PositionalNames(const QuerySpec& query);

// "usage: PROGRAM top FILE [options]   (PROGRAM top --help: the options)": the last line of
// every error a command's arguments get.
std::string CommandUsage(const QuerySpec& query, std::string_view program);

// What `PROGRAM COMMAND --help` prints: the usage line, what the command does, and each of its
// options with its values, doc line and default.
std::string CommandHelp(const QuerySpec& query, std::string_view program);

}  // namespace nettrace::api
