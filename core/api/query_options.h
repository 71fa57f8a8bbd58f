// core/api — the one request schema of the facade's queries. Each query
// (events, flame, top, diff, gc, …) and each of its options is one row of a table
// (query_table.cc); the native CLI parses argv with it, the wasm bindings parse the JS
// request objects with it (as JSON), the npm CLI parses its argv with it through the wasm
// module, `nettrace schema --json` prints it and scripts/gen-api-types.mjs writes the
// TypeScript request types from it. An option added to the table exists everywhere.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/stacks/call_tree.h"
#include "analysis/query/event_query.h"
#include "analysis/query/histogram.h"
#include "base/status.h"

namespace nettrace::api {

enum class OptionType : uint8_t {
  kString,
  kEnum,    // one of OptionSpec::values
  kNumber,  // any finite number (milliseconds: time from the trace's sync time)
  kCount,   // an integer ≥ 0
  kBool,    // a flag on the command line, true/false in JSON
  kPatterns,  // a ';'-separated pattern list; a repeated flag adds to it (PerfView's ';')
  kFiles,     // files: every argument after the flag up to the next option; a repeated flag adds
};

// One bit per query, so that one option row serves every query it applies to.
enum QueryBit : uint32_t {
  kSummary = 1u << 0,
  kCounts = 1u << 1,
  kEvents = 1u << 2,
  kStack = 1u << 3,
  kHistogram = 1u << 4,
  kFlame = 1u << 5,
  kTop = 1u << 6,
  kSandwich = 1u << 7,
  kExport = 1u << 8,
  kConvert = 1u << 9,
  kDiff = 1u << 10,
  kGc = 1u << 11,
  kJit = 1u << 12,
  kExceptions = 1u << 13,
  kContention = 1u << 14,
  kActivities = 1u << 15,
  kCounters = 1u << 16,
  kThreadPool = 1u << 17,
  kWriteSample = 1u << 18,
  // Live sessions over a diagnostics port (cli/diag_commands.cc, web/src/live): no FILE.
  kPs = 1u << 19,
  kCollect = 1u << 20,
  kLive = 1u << 21,  // the npm CLI's collect served with the app
  // Heap snapshots (core/heap): a .gcdump or a .nettrace with heap-dump events.
  kHeap = 1u << 22,
  kCheck = 1u << 23,  // budgets checked against traces (core/verdict)
  kAllocations = 1u << 24,  // a FILE query (kFileQueries names it)
  kHeapSnapshot = 1u << 25,  // the npm CLI's heap snapshot of a running process (web/src/live/heap_snapshot.ts)
};

struct QuerySpec {
  const char* name;  // the CLI command; the generated TS type is <Name>Request
  uint32_t bit;
  const char* args;  // positional arguments after the command, for --help
  const char* doc;
  bool native;  // the native tool has it (histogram and live are the npm CLI's only)
};

struct OptionValue {
  bool flag = false;
  double number = 0;
  std::string text;
  size_t index = 0;  // kEnum: position in values
};

// Every query's options parsed into the engine's own request structs; the fields a query
// does not use keep their defaults.
struct Request {
  EventQuery events;  // events, histogram (filters), convert (fromMs/toMs)
  StackQuery stack;   // flame, top, sandwich, export, diff
  std::optional<double> aFromMs, aToMs, bFromMs, bToMs;  // diff: one side's own range
  std::string format;                                  // "": the query's default
  std::optional<uint64_t> count;                       // top / diff -n
  std::string out;                                     // -o
  bool frames = false;                                 // events --frames
  bool stackText = false;                              // export --stack-text
  std::optional<uint64_t> chunkSize;
  std::optional<uint64_t> buckets;                  // histogram
  HistogramGroup groupBy = HistogramGroup::kNone;  // histogram
  bool csvPayload = true;           // export csv with --event: that type's payload columns
  std::string speedscope;           // export speedscope: "" (evented) or "evented" / "sampled"
  // diff --baseline A1 A2 … --compare B1 B2 … (many runs a side) and check --baseline.
  std::vector<std::string> baselineFiles, compareFiles;
  std::string budget;                  // check --budget FILE
  std::string junitOut, markdownOut;   // check --junit OUT / --markdown OUT
  double alpha = 0.05, minShare = 0.001;  // diff's many-run comparison (verdict/run_comparison.h)
  std::string otlpEndpoint;         // export otlp: the collector to push to (OTLP/HTTP)
  // ps / collect / live (cli/diag_commands.cc, web/src/live/cli.ts).
  struct Live {
    bool json = false;  // ps --json
    uint64_t pid = 0;
    std::string diagnosticPort, providers, profile;
    std::string duration;     // as given: "10", "10s", "500ms", "2m", "hh:mm:ss" (checked by collect)
    uint64_t bufferMB = 256;
    uint64_t port = 0;        // live: 0 = any free port
  } live;
  // heap (core/heap/heap_report.h).
  struct Heap {
    std::string baseline;  // --baseline OLD: growth from that snapshot
    std::string pathsTo;   // --paths-to TYPE
    uint64_t largest = 20;
    uint64_t paths = 10;
  } heap;
  // What was given, in order, for RequestJson (the npm CLI hands it to the JS API).
  std::vector<std::pair<const struct OptionSpec*, OptionValue>> given;
};

using OptionSetter = void (*)(const OptionValue&, Request*);

struct OptionSpec {
  const char* name;      // camelCase: the JSON / JavaScript key
  const char* flag;      // the CLI flag ("--weight", "-n")
  const char* negation;  // kBool: the flag that sets false ("--no-stitch-async"), or nullptr
  OptionType type;
  const char* values;        // kEnum: "a|b|c"; kString/kNumber/kCount: the value's name in --help
  const char* defaultValue;  // for the docs only (the structs hold the real defaults); nullptr: none
  uint32_t queries;          // QueryBit mask
  bool cliOnly;              // not part of the JS API's request objects (-o, --chunk-size, …)
  const char* doc;
  OptionSetter set;
};

// A table's rows: constant data, no heap (a wasm heap measurement sees no table appear).
template <typename T>
struct Rows {
  const T* first;
  size_t count;
  const T* begin() const { return first; }
  const T* end() const { return first + count; }
  size_t size() const { return count; }
};
Rows<QuerySpec> Queries();
Rows<OptionSpec> Options();
const QuerySpec* FindQuery(std::string_view name);
// The option of `query` spelt `flag` (or its negation) on the command line / named `name` in JSON.
const OptionSpec* FindFlag(const QuerySpec& query, std::string_view flag);
const OptionSpec* FindName(const QuerySpec& query, std::string_view name);

// argv after the command's positional arguments → request. The first bad option stops it,
// with a message naming the option ("--weight takes count, bytes, …").
Status ParseCliArgs(const QuerySpec& query, const std::vector<std::string>& args, Request* request);
// A JSON object {name: value} → request. Keys that are not options of the query, and null
// values, and the CLI-only options but those named in `cliOnlyTaken` are ignored (JS objects
// carry other members); each bad value is skipped and the first one is returned as the error,
// naming the option.
Status ParseJsonRequest(const QuerySpec& query, std::string_view json, Request* request,
                        const std::vector<std::string_view>& cliOnlyTaken = {});
// Whether the option named `name` was given (export --event: one type's payload CSV).
bool Given(const Request& request, std::string_view name);
// The options given to ParseCliArgs / ParseJsonRequest as a JSON object {name: value}.
std::string RequestJson(const Request& request);
// The whole table as JSON: {queries: [{name, args, doc, native, options: [{name, flag, …}]}], results: …}
// then `budgets`. The caller passes both documents (verdict/budget_file.h SchemaJson): the
// results (ResultSchemaJson(), api/result_schema.h, whose shapes name this table's queries)
// and the budget file's description (the verdicts read this table); so neither is included here.
std::string SchemaJson(const std::string& resultsJson, const std::string& budgetsJson);
// The "commands:" and "options:" sections of `--help`, generated from the table.
std::string CliHelp(bool native);

}  // namespace nettrace::api
