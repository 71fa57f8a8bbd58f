// The native command-line tool over the TraceSession facade (the same engine the wasm
// module wraps). It streams the file in chunks, so it never holds a whole trace.
//
//   nettrace summary FILE [--chunk-size N]   trace summary as JSON
//   nettrace counts FILE [--chunk-size N]    per-type counts in TraceEvent's baseline form
//   nettrace events FILE [--provider P] [--name N] [--thread T] [--from MS] [--to MS]
//                        [--limit N] [--offset N] [--text STR] [--frames]   events in time
//                        order, JSON lines; --text: free-text search (reread/text_search.h);
//                        --frames: each event's stack as named frames
//   nettrace stack FILE ROW   one event's stack as named frames, leaf first, as JSON
//   nettrace convert FILE OUT [--from MS] [--to MS]   rewrite as NetTrace v6 (optionally a
//                        time window of it)
//   nettrace flame FILE [--event NAME] [--provider P] [--thread T] [--from MS] [--to MS]
//                        [--inverted] [--by-thread] [--weight count|bytes|thread-time|
//                        managed-thread-time|traceevent-thread-time] [--format json|folded|speedscope]
//   nettrace top FILE [-n 20] [same selection options]   heaviest functions (exclusive)
//   nettrace sandwich FILE FUNCTION [same selection options]   callers and callees
//   nettrace export FILE --format speedscope|chrome|csv|stacks-csv|pprof|otlp [--stack-text] -o OUT
//                        csv: one row per event with its call-stack id (--stack-text: the
//                        stack's frames too); stacks-csv: the frames of each id; pprof/otlp:
//                        the stacks as a profile (profile_export.cc), otlp also pushed with
//                        --otlp-endpoint URL
//   nettrace diff A B [--format json|folded] [same selection options] [--a-from MS]
//                        [--a-to MS] [--b-from MS] [--b-to MS]   A/B stack diff (diff_command.cc)
//   nettrace heap FILE [--baseline OLD] [--paths-to TYPE] [--format json|csv]   heap snapshot
//                        views of a .gcdump or heap-dump .nettrace (heap_command.cc)
//   nettrace diff --baseline A1 A2 … --compare B1 B2 … [--format json|markdown] [--alpha P]
//                        [--min-share F] [same selection options]   many runs a side, tested
//                        (cli/verdict_commands.cc, core/verdict)
//   nettrace check TRACE… --budget FILE [--baseline FILE…] [--format text|json|junit|markdown]
//                        [--junit OUT] [--markdown OUT]   budgets; exit 0 pass, 1 fail, 2 bad input
//   nettrace dataset OUT_DIR TRACE... [--codec zstd|gzip|none]   add traces to a Parquet
//                        dataset (dataset_command.cc; docs/dataset.md)
//   nettrace gc FILE [--format json|csv]    one row per GC as TraceEvent's TraceGC, totals
//   nettrace jit FILE [--format json|csv]   one row per jitted method as TraceJittedMethod
//   nettrace exceptions|contention|activities|counters|threadpool FILE [--format json|csv]   the event
//                        views (analysis/views/runtime_views.h)
//   nettrace allocations FILE [--format json|csv]   allocated bytes and objects by type and
//                        function (analysis/views/allocation_view.h); flame/top/sandwich/export/diff
//                        take --weight alloc-bytes|alloc-objects [--type-as-root]
//   flame/top/sandwich/export also take --weight wait-time (Contention/Start weighs the time
//                        waited) and --exception-type T (Exception/Start throws of one type)
//   nettrace write-sample-universal OUT   a small collect-linux-like v6 trace (two
//                        processes, in-trace symbols, cpu and cswitch samples)
//   nettrace write-clr-name-probe OUT   a v5 trace asking TraceEvent every CLR event name
//                        question, and OUT.probes.tsv listing them (write/clr_name_probe.h;
//                        scripts/oracle.sh uses both)
//   Linux-profiler traces: --event cpu (CPU time) or --event cswitch (off-CPU time),
//   --process PID, --by-process (a 'Process name (pid)' root frame per process)
//
// Every command's options are rows of the query table (core/api/query_table.cc), taken before
// or after FILE by its command-line parser (api/command_line.h) as the npm CLI takes them
// through the wasm module; `--help`, `COMMAND --help`, the usage line an argument error ends
// with and `nettrace schema --json` print that table.
//
// On a damaged file it prints what was read before the fault (stdout), the error with
// its byte offset (stderr), and exits 1.
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "api/command_line.h"
#include "api/model_queries.h"
#include "api/query_options.h"
#include "cli/diag_commands.h"
#include "analysis/stacks/call_tree.h"
#include "analysis/query/event_query.h"
#include "base/json_writer.h"
#include "model/store_builder.h"
#include "convert/convert_session.h"
#include "cli/dataset_command.h"
#include "cli/diff_command.h"
#include "cli/heap_command.h"
#include "cli/huge_page_heap.h"
#include "cli/verdict_commands.h"
#include "verdict/budget_file.h"
#include "cli/profile_export.h"
#include "cli/text_export.h"
#include "trace_session.h"
#include "write/clr_name_probe.h"
#include "write/universal_trace_writer.h"

namespace {

// How far the file was read: what an out-of-memory error names (main).
uint64_t g_readOffset = 0;

// 4 MiB, as the app reads a File: a block that crosses a chunk boundary is copied once, and
// with v6 writers' ~1 MB blocks nearly every one crossed 1 MiB chunks (docs/performance.md).
constexpr size_t kDefaultChunkSize = 4 << 20;

// Reads the last bytes of f that session asks for and hands them over; f's position is kept.
template <typename Session>
bool ReadTail(FILE* f, const char* path, Session* session, nettrace::Status* status) {
  const off_t here = ftello(f);
  if (here < 0 || fseeko(f, 0, SEEK_END) != 0) {
    std::fprintf(stderr, "nettrace: %s cannot be read from its end (NetPerf versions 1 and 2 need it)\n", path);
    return false;
  }
  const uint64_t fileSize = static_cast<uint64_t>(ftello(f));
  std::vector<uint8_t> tail(static_cast<size_t>(std::min<uint64_t>(session->TailWanted(), fileSize)));
  if (fseeko(f, static_cast<off_t>(fileSize - tail.size()), SEEK_SET) != 0 ||
      std::fread(tail.data(), 1, tail.size(), f) != tail.size() || fseeko(f, here, SEEK_SET) != 0) {
    std::fprintf(stderr, "nettrace: read error on %s: %s\n", path, std::strerror(errno));
    return false;
  }
  *status = session->ProvideTail(tail.data(), tail.size(), fileSize);
  return true;
}

// Reads f to its end in chunks of chunkSize, handing each to push, then calls finish; stops
// at the first error either returns (left in *status). A read error of the file itself is
// printed and returns false, so it is not mistaken for a truncated trace.
// A session that reads NetPerf v1/v2 asks for the file's last bytes first (tailWanted); they
// are read with one seek and the reading goes on where it was.
template <typename Push, typename Finish, typename Session>
bool StreamFile(FILE* f, const char* path, size_t chunkSize, Push&& push, Finish&& finish, nettrace::Status* status,
                Session* session) {
  // Not zeroed: fread fills what is used, and zeroing 1 MiB was a fifth of summarising a
  // trace of 2,000 events.
  const std::unique_ptr<uint8_t[]> buffer = std::make_unique_for_overwrite<uint8_t[]>(chunkSize);
  for (;;) {
    size_t n = std::fread(buffer.get(), 1, chunkSize, f);
    g_readOffset += n;
    if (n > 0 && !(*status = push(buffer.get(), n)).ok()) return true;
    if (n > 0 && session->TailWanted() > 0) {
      if (!ReadTail(f, path, session, status)) return false;
      if (!status->ok()) return true;
    }
    if (n < chunkSize) {
      if (std::ferror(f)) {
        std::fprintf(stderr, "nettrace: read error on %s: %s\n", path, std::strerror(errno));
        return false;
      }
      *status = finish();
      return true;
    }
  }
}

// Streams FILE through the conversion facade, writing OUT as it goes.
int Convert(const char* in, const char* outPath, const nettrace::V6Converter::Options& options, size_t chunkSize) {
  FILE* f = std::fopen(in, "rb");
  if (!f) {
    std::fprintf(stderr, "nettrace: cannot open %s: %s\n", in, std::strerror(errno));
    return 1;
  }
  FILE* out = std::fopen(outPath, "wb");
  if (!out) {
    std::fprintf(stderr, "nettrace: cannot create %s: %s\n", outPath, std::strerror(errno));
    std::fclose(f);
    return 1;
  }
  nettrace::ConvertSession session(options);
  bool writeFailed = false;
  auto drain = [&] {
    const std::vector<uint8_t> bytes = session.TakeOutput();
    writeFailed = writeFailed || std::fwrite(bytes.data(), 1, bytes.size(), out) != bytes.size();
    return !writeFailed;
  };
  auto writeError = [&] {
    return nettrace::Status::Error(nettrace::ErrorCode::kInvalidArgument, nettrace::kNoOffset,
                                   std::string("cannot write ") + outPath + ": " + std::strerror(errno));
  };
  nettrace::Status status;
  const bool readOk = StreamFile(
      f, in, chunkSize,
      [&](const uint8_t* d, size_t n) {
        nettrace::Status s = session.PushChunk(d, n);
        return drain() ? s : writeError();
      },
      [&] {
        nettrace::Status s = session.Finish();
        return drain() ? s : writeError();
      },
      &status, &session);
  std::fclose(f);
  // A trace that ends early or breaks: the output keeps every event read before the fault.
  if (readOk && !status.ok() && !writeFailed) (void)session.Finish(), drain();
  const bool closed = std::fclose(out) == 0;
  if (!readOk) return 1;
  if (!status.ok() || writeFailed) {
    if (writeFailed && status.ok()) status = writeError();
    std::fprintf(stderr, "nettrace: %s: %s (the output is incomplete: %llu events written)\n", in,
                 status.ToString().c_str(), static_cast<unsigned long long>(session.eventsWritten()));
    if (!session.flushStatus().ok())
      std::fprintf(stderr, "nettrace: %s: %s\n", outPath, session.flushStatus().ToString().c_str());
    return 1;
  }
  if (!closed) {
    std::fprintf(stderr, "nettrace: cannot finish writing %s\n", outPath);
    return 1;
  }
  std::fprintf(stderr, "nettrace: wrote %llu events to %s (NetTrace v6)\n",
               static_cast<unsigned long long>(session.eventsWritten()), outPath);
  return 0;
}

// An export that wrote its own file: the trace closed, then its exit code, or the read's
// error (with its offset) when the trace was read only up to a fault.
int ExportEnded(int code, FILE* trace, const char* path, const nettrace::Status& read) {
  std::fclose(trace);
  if (code != 0) return code;
  if (!read.ok()) {
    std::fprintf(stderr, "nettrace: %s: %s\n", path, read.ToString().c_str());
    return 1;
  }
  return 0;
}

// The file's name without its folders: speedscope's profile name.
std::string BaseName(const char* path) {
  std::string name = path;
  if (size_t slash = name.find_last_of("/\\"); slash != std::string::npos) name = name.substr(slash + 1);
  return name;
}

// flame --format folded / speedscope: the stacks as text other tools read.
std::string FlameExport(const nettrace::TraceSession& session, const std::string& format,
                        const nettrace::StackQuery& query, const char* path) {
  if (format == "folded") return session.FoldedStacks(query);
  return session.ExportSpeedscope(query, BaseName(path)) + "\n";
}

bool WriteFile(const char* outPath, const std::string& data) {
  FILE* out = std::fopen(outPath, "wb");
  if (!out) {
    std::fprintf(stderr, "nettrace: cannot create %s: %s\n", outPath, std::strerror(errno));
    return false;
  }
  const bool ok = std::fwrite(data.data(), 1, data.size(), out) == data.size();
  if (std::fclose(out) != 0 || !ok) {
    std::fprintf(stderr, "nettrace: cannot write %s\n", outPath);
    return false;
  }
  return true;
}

// `nettrace --help` (and a bare `nettrace`): every command and option, from the query table
// (core/api/query_table.cc).
int Usage(FILE* out) {
  std::string help = nettrace::api::CliHelp(true);
  help.insert(help.find("options:\n"),
              "  schema --json: the commands and options above, and the JSON results, as JSON (the one schema)\n");
  std::fprintf(out, "usage: nettrace <command> [options] FILE   (nettrace <command> --help: that command's options)\n%s",
               help.c_str());
  return out == stderr ? 2 : 0;
}

// A command line's error: the one line, then the command's usage, last, so that it stays on
// screen (`nettrace <command> --help` prints the options).
int ArgumentError(const std::string& message, const nettrace::api::QuerySpec* spec) {
  std::fprintf(stderr, "nettrace: %s\n", message.c_str());
  if (spec) {
    std::fprintf(stderr, "%s\n", nettrace::api::CommandUsage(*spec, "nettrace").c_str());
  } else {
    std::fprintf(stderr, "usage: nettrace <command> [options] FILE   (nettrace --help: the commands)\n");
  }
  return 2;
}

// The engine's re-reads of byte ranges (text search, Chrome args, payload CSV) served by a seek
// in the open file, as the browser serves them with Blob.slice().
auto FileRanges(FILE* f) {
  return [f](uint64_t offset, uint64_t size, std::vector<uint8_t>* bytes) {
    bytes->resize(size);
    return fseeko(f, static_cast<off_t>(offset), SEEK_SET) == 0 && std::fread(bytes->data(), 1, size, f) == size;
  };
}

// Event rows as JSON lines, with details re-read from the file the way the browser does
// (BlocksNeeded → ProvideBlock). Rows go in batches small enough that their blocks fit the
// session's bounded block cache, so any --limit gets every event's details. withFrames
// adds the event's stack as named frames, leaf first ("frames", as `stack` prints it).
bool WriteEvents(nettrace::TraceSession& session, FILE* f, const char* path, const std::vector<uint32_t>& rows,
                 bool withFrames, std::string* out) {
  constexpr size_t kRowsPerBatch = 256;
  for (size_t first = 0; first < rows.size(); first += kRowsPerBatch) {
    const std::vector<uint32_t> batch(rows.begin() + first, rows.begin() + std::min(rows.size(), first + kRowsPerBatch));
    for (const nettrace::ByteRange& r : session.BlocksNeeded(batch)) {
      std::vector<uint8_t> block(r.size);
      if (fseeko(f, static_cast<off_t>(r.offset), SEEK_SET) != 0 || std::fread(block.data(), 1, block.size(), f) != block.size()) {
        std::fprintf(stderr, "nettrace: cannot re-read %llu bytes at offset %llu of %s\n",
                     static_cast<unsigned long long>(r.size), static_cast<unsigned long long>(r.offset), path);
        return false;
      }
      session.ProvideBlock(r.offset, std::move(block));
    }
    for (uint32_t row : batch) {
      std::string json = session.EventJson(row);
      if (withFrames && !json.empty() && json.back() == '}') {
        json.pop_back();  // appended, not inserted: the frames may be megabytes
        json += ",\"frames\":";
        json += session.EventStackJson(row);
        json += '}';
      }
      *out += json;
      *out += '\n';
      // Out as it comes: an event's frames may be a stack 500,000 deep, and the page many of them.
      if (out->size() >= (size_t{1} << 20)) {
        std::fwrite(out->data(), 1, out->size(), stdout);
        out->clear();
      }
    }
  }
  return true;
}

// write-clr-name-probe OUT: the probe trace (write/clr_name_probe.h) and, in OUT.probes.tsv,
// the list of what it asks, which the oracle's TraceEvent side answers.
int WriteClrNameProbe(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: nettrace write-clr-name-probe OUT\n");
    return 2;
  }
  std::vector<uint8_t> bytes;
  if (nettrace::Status st = nettrace::WriteClrNameProbeTrace(&bytes); !st.ok()) {
    std::fprintf(stderr, "nettrace: %s\n", st.message().c_str());
    return 1;
  }
  const std::string list = nettrace::ClrNameProbeList();
  const std::pair<std::string, std::string_view> files[] = {
      {argv[2], {reinterpret_cast<const char*>(bytes.data()), bytes.size()}},
      {std::string(argv[2]) + ".probes.tsv", list}};
  for (const auto& [path, data] : files) {
    FILE* f = std::fopen(path.c_str(), "wb");
    const bool written = f && std::fwrite(data.data(), 1, data.size(), f) == data.size();
    if ((f && std::fclose(f) != 0) || !written) {
      std::fprintf(stderr, "nettrace: cannot write %s\n", path.c_str());
      return 1;
    }
  }
  return 0;
}

}  // namespace

int RunTool(int argc, char** argv) {
  if (argc < 2) return Usage(stderr);
  const std::string command = argv[1];
  if (command == "--help" || command == "-h") return Usage(stdout);
  // The query table as JSON (core/api): what scripts/gen-api-types.mjs reads.
  if (command == "schema") {
    if (argc > 2 && (!std::strcmp(argv[2], "--help") || !std::strcmp(argv[2], "-h"))) {
      std::printf("usage: nettrace schema --json\nthe commands and options, and the JSON results, as JSON (the one schema)\n");
      return 0;
    }
    std::printf("%s\n", nettrace::verdict::SchemaJson().c_str());
    return 0;
  }
  // Parquet datasets of many traces and the writer's sample tables (cli/dataset_command.cc):
  // not queries of one trace, so not in the query table; they parse their own arguments.
  if (command == "dataset") return nettrace_cli::RunDataset(argc, argv);
  if (command == "parquet-sample") return nettrace_cli::RunParquetSample(argc, argv);
  // The oracle's CLR name probe: a test tool, not a query of a trace.
  if (command == "write-clr-name-probe") return WriteClrNameProbe(argc, argv);
  const nettrace::api::QuerySpec* spec = nettrace::api::FindQuery(command);
  if (!spec || !spec->native) return ArgumentError("unknown command '" + command + "'", nullptr);
  // Every option of every command, before or after FILE: the query table's parser
  // (core/api/command_line.h), as the wasm bindings and the npm CLI parse them.
  nettrace::api::Request request;
  nettrace::api::CommandLine line;
  if (nettrace::Status parsed = nettrace::api::ParseCommandLine(
          *spec, std::vector<std::string>(argv + 2, argv + argc), &line, &request);
      !parsed.ok()) {
    return ArgumentError(parsed.message(), spec);
  }
  if (line.help) {
    std::printf("%s", nettrace::api::CommandHelp(*spec, "nettrace").c_str());
    return 0;
  }
  if (request.chunkSize && (*request.chunkSize == 0 || *request.chunkSize > (1ull << 30)))
    return ArgumentError("--chunk-size takes a number of bytes from 1 to 1073741824", spec);
  // Live sessions over a process's diagnostics port (core/cli/diag_commands.cc): no FILE, so
  // argv is the options alone, which they read through the same table.
  if (command == "ps") return nettrace::cli::RunPs(argc, argv);
  if (command == "collect") return nettrace::cli::RunCollect(argc, argv);
  if (command == "check") return nettrace_cli::RunCheck(request, line.positional);
  if (command == "diff" && !request.compareFiles.empty()) return nettrace_cli::RunDiffRuns(request);
  if (command == "diff" && !request.baselineFiles.empty()) return ArgumentError("--baseline goes with --compare", spec);
  if (command == "diff" && request.format == "markdown")
    return ArgumentError("diff --format markdown goes with --baseline/--compare", spec);
  if (command == "diff") return nettrace_cli::RunDiff(request, line.positional[0].c_str(), line.positional[1].c_str());
  if (command == "heap") return nettrace_cli::RunHeap(request, line.positional[0].c_str());
  if (command == "write-sample-universal") {
    const char* outFile = line.positional[0].c_str();
    std::vector<uint8_t> bytes;
    nettrace::Status st = nettrace::WriteSampleUniversalTrace(&bytes);
    FILE* f = st.ok() ? std::fopen(outFile, "wb") : nullptr;
    const bool written = f && std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size();
    if (f && std::fclose(f) != 0) return 1;
    if (!written) {
      std::fprintf(stderr, "nettrace: cannot write %s\n", outFile);
      return 1;
    }
    return 0;
  }
  const char* path = line.positional[0].c_str();
  const char* outPath = command == "convert" ? line.positional[1].c_str() : nullptr;
  uint32_t stackRow = 0;  // stack
  if (command == "stack") {
    const char* text = line.positional[1].c_str();
    char* end = nullptr;
    const unsigned long long row = std::strtoull(text, &end, 10);
    if (*end || end == text || *text == '-' || row > UINT32_MAX)
      return ArgumentError("stack takes FILE ROW (an event index), not '" + line.positional[1] + "'", spec);
    stackRow = static_cast<uint32_t>(row);
  }
  const nettrace::StackQuery& stackQuery = request.stack;
  const std::string format = request.format.empty() && command != "export" ? "json" : request.format;
  // The queries answered from the model by name (api/model_queries.h): summary, the stack
  // views, the statistics and event views. flame's folded and speedscope are exports.
  const nettrace::api::ModelQuery* modelQuery = nettrace::api::FindModelQuery(command);
  if (modelQuery && command == "flame" && format != "json") modelQuery = nullptr;
  if (modelQuery) {
    if (nettrace::Status s = nettrace::api::CheckAnswerFormat(*modelQuery, request); !s.ok())
      return ArgumentError(s.message(), spec);
  }
  nettrace::V6Converter::Options convertOptions;
  convertOptions.fromMs = request.events.fromMs;
  convertOptions.toMs = request.events.toMs;
  const size_t chunkSize = request.chunkSize.value_or(kDefaultChunkSize);
  const nettrace::EventQuery& query = request.events;
  const bool withFrames = request.frames;    // events --frames
  const bool stackText = request.stackText;  // export --format csv --stack-text
  // export --format csv --event NAME: that type's payload fields as columns (unless --no-csv-payload).
  const bool eventGiven = nettrace::api::Given(request, "event") && request.csvPayload;
  if (!request.out.empty()) outPath = request.out.c_str();
  if (command == "flame" && format != "json" && format != "folded" && format != "speedscope")
    return ArgumentError("flame --format takes json, folded or speedscope", spec);
  const bool profileExport = command == "export" && nettrace_cli::IsProfileFormat(format);
  const bool pushOnly = format == "otlp" && !request.otlpEndpoint.empty();  // otlp: -o is optional
  if (command == "export" && ((format != "speedscope" && format != "chrome" && format != "csv" &&
                               format != "stacks-csv" && !profileExport) ||
                              (!outPath && !pushOnly)))
    return ArgumentError("export needs --format speedscope|chrome|csv|stacks-csv|pprof|otlp and -o OUT", spec);
  if (!request.otlpEndpoint.empty() && format != "otlp") return ArgumentError("--otlp-endpoint goes with --format otlp", spec);
  if (stackText && format != "csv")
    return ArgumentError("--stack-text goes with --format csv", spec);
  // Huge pages for what the read allocates (cli/huge_page_heap.h: half of a read's time was
  // page faults on the benchmark machine).
  nettrace_cli::ReadyHeapForTraces(path);
  if (command == "convert") return Convert(path, outPath, convertOptions, chunkSize);

  FILE* f = std::fopen(path, "rb");
  if (!f) {
    std::fprintf(stderr, "nettrace: cannot open %s: %s\n", path, std::strerror(errno));
    return 1;
  }
  nettrace::TraceSession session;
  // Method names stay in the file until a command names frames (f stays open until then).
  session.KeepNamesInSource(FileRanges(f));
  nettrace::Status status;
  if (!StreamFile(
          f, path, chunkSize, [&](const uint8_t* d, size_t n) { return session.PushChunk(d, n); },
          [&] { return session.Finish(); }, &status, &session)) {
    std::fclose(f);
    return 1;
  }

  std::string out;
  if (modelQuery) {
    // Out as it is written (the summary's thread list of a million threads is 100 MB).
    const std::vector<std::string> args(line.positional.begin() + 1, line.positional.end());
    const nettrace::Status answered = session.Query(
        command, request, args, &out, [](const std::string& part) { std::fwrite(part.data(), 1, part.size(), stdout); });
    if (!answered.ok()) {
      std::fclose(f);
      return ArgumentError(answered.message(), spec);
    }
    if (format == "json" && !modelQuery->lines) out += '\n';
  } else if (profileExport) {
    return ExportEnded(nettrace_cli::ExportProfile(session, request, outPath), f, path, status);
  } else if (command == "export" && format == "csv" && eventGiven) {
    // One event type with its payload fields as columns (export/payload_csv_export.h).
    nettrace::EventQuery typeQuery;
    typeQuery.name = stackQuery.event, typeQuery.provider = stackQuery.provider;
    nettrace::Status exported = session.ExportPayloadCsv(typeQuery, FileRanges(f), &out);
    if (!exported.ok()) {
      std::fprintf(stderr, "nettrace: %s: %s\n", path, exported.ToString().c_str());
      std::fclose(f);
      return 1;
    }
  } else if (command == "export") {
    // speedscope, chrome, csv, stacks-csv: written to the file a part at a time (text_export.h).
    nettrace_cli::TextExport what;
    what.format = format, what.query = session.WithDefaultWeight(stackQuery), what.stackText = stackText;
    what.speedscopeSampled = request.speedscope == "sampled", what.tracePath = path;
    what.name = BaseName(path);
    return ExportEnded(nettrace_cli::ExportText(session, what, FileRanges(f), outPath), f, path, status);
  } else if (command == "flame") {
    out = FlameExport(session, format, session.WithDefaultWeight(stackQuery), path);
  } else if (command == "stack") {
    if (stackRow >= session.model().store().size()) {
      // A read that stopped early is why the row is missing: its error (with the offset) first.
      if (!status.ok()) {
        std::fprintf(stderr, "nettrace: %s: %s\n", path, status.ToString().c_str());
        std::fprintf(stderr, "nettrace: no event with index %u (read before the error)\n", stackRow);
        std::fclose(f);
        return 1;
      }
      std::fclose(f);
      return ArgumentError("no event with index " + std::to_string(stackRow), spec);
    }
    nettrace::JsonWriter w;
    w.BeginObject().Key("index").UInt(stackRow).Key("frames").BeginArray();
    for (const std::string& frame : session.EventStack(stackRow)) w.String(frame);
    w.EndArray().Key("addresses").BeginArray();
    for (const std::string& address : session.EventStackAddresses(stackRow)) w.String(address);
    w.EndArray().EndObject();
    out = w.Take() + "\n";
  } else {
    // Details come from re-reading the events' blocks, the same two-step protocol the
    // browser uses with Blob.slice().
    std::vector<uint32_t> rows;
    if (query.text.empty()) {
      rows = session.QueryEvents(query, nullptr);
    } else {
      nettrace::Status searched = session.SearchText(query, FileRanges(f), &rows);
      if (!searched.ok()) {
        std::fprintf(stderr, "nettrace: %s: %s\n", path, searched.ToString().c_str());
        std::fclose(f);
        return 1;
      }
      const size_t from = std::min<uint64_t>(query.offset, rows.size());
      const size_t to = std::min<uint64_t>(from + std::min<uint64_t>(query.limit, rows.size()), rows.size());
      rows = std::vector<uint32_t>(rows.begin() + from, rows.begin() + to);
    }
    if (!WriteEvents(session, f, path, rows, withFrames, &out)) {
      std::fclose(f);
      return 1;
    }
  }
  std::fclose(f);
  if (command == "export") {
    if (!WriteFile(outPath, out)) return 1;
    std::fprintf(stderr, "nettrace: wrote %s (%zu bytes)\n", outPath, out.size());
  } else {
    std::fwrite(out.data(), 1, out.size(), stdout);
  }
  if (!status.ok()) {
    std::fprintf(stderr, "nettrace: %s: %s\n", path, status.ToString().c_str());
    return 1;
  }
  return 0;
}

// Memory that truly runs out (a trace beyond the machine, or a capped address space) ends as an
// error that names how far the file was read, not as std::terminate's abort: the engine raises
// no exceptions of its own, and std::bad_alloc from the standard containers unwinds through it
// to here. (In wasm the JS API turns the module's abort into a NetTraceError the same way.)
int main(int argc, char** argv) {
  try {
    return RunTool(argc, argv);
  } catch (const std::bad_alloc&) {
    std::fflush(stdout);
    std::fprintf(stderr, "nettrace: out of memory after reading %llu bytes of the file (offset %llu)\n",
                 static_cast<unsigned long long>(g_readOffset), static_cast<unsigned long long>(g_readOffset));
    return 1;
  }
}
