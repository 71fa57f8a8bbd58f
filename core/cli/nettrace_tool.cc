// The native command-line tool over the TraceSession facade (the same engine the wasm
// module wraps). It streams the file in chunks, so it never holds a whole trace.
//
//   nettrace summary FILE [--chunk-size N]   trace summary as JSON
//   nettrace counts FILE [--chunk-size N]    per-type counts in TraceEvent's baseline form
//   nettrace events FILE [--provider P] [--name N] [--thread T] [--from MS] [--to MS]
//                        [--limit N] [--offset N] [--text STR] [--frames]   events in time
//                        order, JSON lines; --text: free-text search (analysis/text_search.h);
//                        --frames: each event's stack as named frames
//   nettrace stack FILE ROW   one event's stack as named frames, leaf first, as JSON
//   nettrace convert FILE OUT [--from MS] [--to MS]   rewrite as NetTrace v6 (optionally a
//                        time window of it)
//   nettrace flame FILE [--event NAME] [--provider P] [--thread T] [--from MS] [--to MS]
//                        [--inverted] [--by-thread] [--weight count|bytes|thread-time|
//                        managed-thread-time|traceevent-thread-time] [--format json|folded|speedscope]
//   nettrace top FILE [-n 20] [same selection options]   heaviest functions (exclusive)
//   nettrace sandwich FILE FUNCTION [same selection options]   callers and callees
//   nettrace export FILE --format speedscope|chrome|csv|stacks-csv [--stack-text] -o OUT
//                        csv: one row per event with its call-stack id (--stack-text: the
//                        stack's frames too); stacks-csv: the frames of each id
//   nettrace diff A B [--format json|folded] [same selection options] [--a-from MS]
//                        [--a-to MS] [--b-from MS] [--b-to MS]   A/B stack diff (diff_command.cc)
//   nettrace gc FILE [--format json|csv]    one row per GC as TraceEvent's TraceGC, totals
//   nettrace jit FILE [--format json|csv]   one row per jitted method as TraceJittedMethod
//   nettrace exceptions|contention|activities|counters|threadpool FILE [--format json|csv]   the event
//                        views of issue 14 (analysis/runtime_views.h)
//   flame/top/sandwich/export also take --weight wait-time (Contention/Start weighs the time
//                        waited) and --exception-type T (Exception/Start throws of one type)
//   nettrace write-sample-universal OUT   a small collect-linux-like v6 trace (two
//                        processes, in-trace symbols, cpu and cswitch samples)
//   Linux-profiler traces: --event cpu (CPU time) or --event cswitch (off-CPU time),
//   --process PID, --by-process (a 'Process name (pid)' root frame per process)
//
// On a damaged file it prints what was read before the fault (stdout), the error with
// its byte offset (stderr), and exits 1.
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "cli/diag_commands.h"
#include "analysis/call_tree.h"
#include "analysis/event_query.h"
#include "base/json_writer.h"
#include "model/store_builder.h"
#include "convert/convert_session.h"
#include "cli/diff_command.h"
#include "trace_session.h"
#include "write/universal_trace_writer.h"

namespace {

constexpr size_t kDefaultChunkSize = 1 << 20;

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
  std::vector<uint8_t> buffer(chunkSize);
  for (;;) {
    size_t n = std::fread(buffer.data(), 1, buffer.size(), f);
    if (n > 0 && !(*status = push(buffer.data(), n)).ok()) return true;
    if (n > 0 && session->TailWanted() > 0) {
      if (!ReadTail(f, path, session, status)) return false;
      if (!status->ok()) return true;
    }
    if (n < buffer.size()) {
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

// flame / top / sandwich / export: the stack views of the session as text.
std::string StackOutput(const nettrace::TraceSession& session, const std::string& command, const std::string& format,
                        const nettrace::StackQuery& query, size_t topN, const std::string& function,
                        const char* path, bool stackText) {
  std::string name = path;
  if (size_t slash = name.find_last_of("/\\"); slash != std::string::npos) name = name.substr(slash + 1);
  if (command == "top") return session.TopFunctionsJson(query, topN) + "\n";
  if (command == "sandwich") return session.SandwichJson(query, function) + "\n";
  if (command == "flame") {
    if (format == "folded") return session.FoldedStacks(query);
    if (format == "speedscope") return session.ExportSpeedscope(query, name) + "\n";
    return session.FlameGraphJson(query) + "\n";
  }
  if (format == "speedscope") return session.ExportSpeedscopeEvented(query, name) + "\n";
  if (format == "chrome") return session.ExportChromeTrace() + "\n";
  if (format == "stacks-csv") return session.ExportStacksCsv();
  return session.ExportEventsCsv(stackText);
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

int Usage(FILE* out) {
  std::fprintf(out,
               "usage: nettrace <command> FILE [options]\n"
               "commands:\n"
               "  summary   trace summary as JSON (format, time range, event types, threads, blocks, anomalies)\n"
               "  counts    per-type event counts as 'Provider/Event, count' lines, TraceEvent's baseline form\n"
               "  events    events in time order as JSON lines (time, provider, name, thread, processor, labels)\n"
               "  stack     FILE ROW: one event's stack (ROW = its index) as named frames, leaf first, as JSON\n"
               "  convert   FILE OUT: rewrite the trace as NetTrace v6; --from MS --to MS keep a time window\n"
               "  flame     call tree of stacks as a laid-out flame graph (json), folded stacks or speedscope\n"
               "  top       heaviest functions by exclusive weight, with inclusive weight (-n N, default 20)\n"
               "  sandwich  FILE FUNCTION: callers and callees of one frame name, as JSON\n"
               "  export    --format speedscope|chrome|csv|stacks-csv -o OUT: a file other tools open\n"
               "            (speedscope with a time --weight: evented per thread, in ms, as dotnet-trace writes it)\n"
               "  diff      A B: stacks of B (comparison) against A (baseline), JSON or --format folded;\n"
               "            selection options apply to both; --a-from/--a-to/--b-from/--b-to per side\n"
               "  gc        one row per GC (TraceEvent's TraceGC) with totals, --format json|csv\n"
               "  jit       one row per jitted method (TraceEvent's TraceJittedMethod) with totals, --format json|csv\n"
               "  ps        [--json]: .NET processes with a diagnostics port (pid, name, runtime, command line)\n"
               "  collect   (--pid N | --diagnostic-port PATH) [--providers SPEC,… | --profile NAME,…] [--duration D]\n"
               "            -o OUT.nettrace: record a live EventPipe session (Ctrl-C or D stops it)\n"
               "  exceptions  first-chance exceptions by type and throwing method (--format json|csv)\n"
               "  contention  lock contention and wait-handle waits as durations (--format json|csv)\n"
               "  activities  Start/Stop activities paired by activity id, nested (--format json|csv)\n"
               "  counters    EventCounters and System.Diagnostics.Metrics time series (--format json|csv)\n"
               "  threadpool  thread pool worker/IO counts over time, adjustments, starvation (--format json|csv)\n"
               "  write-sample-universal OUT: write a small collect-linux-like v6 trace\n"
               "options:\n"
               "  --chunk-size BYTES   read the file in chunks of this size (default 1 MiB)\n"
               "  events: --provider P  --name N (e.g. GC/Start)  --thread OS_THREAD_ID\n"
               "          --from MS  --to MS (from the trace start)  --limit N (default 100)  --offset N\n"
               "          --text STR (case-insensitive, in provider, name, thread, labels or any payload field)\n"
               "          --frames (each event's stack as named frames, leaf first, as in 'stack')\n"
               "  flame/top/sandwich/export: --event NAME (default Thread/Sample; GC/AllocationTick weighs\n"
               "          bytes)  --provider P  --thread OS_THREAD_ID  --from MS  --to MS  --inverted\n"
               "          --by-thread (a 'Thread (id)' root frame per thread)\n"
               "          --process PID (threads of one OS process)  --by-process (a 'Process name (pid)'\n"
               "          root frame per process, above the thread frames); Linux-profiler traces:\n"
               "          --event cpu (CPU time) or --event cswitch (off-CPU time), weighing ns\n"
               "          --weight count|bytes|thread-time|managed-thread-time (default: bytes for\n"
               "          GC/AllocationTick, else count; thread time in ns since the thread's previous sample)\n"
               "          --weight traceevent-thread-time (dotnet-trace's: ns to the thread's next sample,\n"
               "          under CPU_TIME / UNMANAGED_CODE_TIME leaves)\n"
               "          --weight wait-time (Contention/Start: ns waited)  --exception-type T (Exception/Start)\n"
               "          --no-stitch-async (with traceevent-thread-time: thread-pool work stays on the thread\n"
               "          that ran it; default --stitch-async: under the stack that queued it, 'STARTING TASK')\n"
               "          --group-by-module  --just-my-code  --drop-time-leaves  --group-pats P  --fold-pats P\n"
               "          --exclude-pats P  --include-pats P (PerfView's GroupPats/FoldPats/ExcPats/IncPats)\n"
               "  export --format csv: --stack-text (each row's stack frames too, not only its StackId)\n"
               "  export --format csv --event NAME [--provider P]: that event type only, its payload fields as columns\n");
  return out == stderr ? 2 : 0;
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
      session.ProvideBlock(r.offset, block.data(), block.size());
    }
    for (uint32_t row : batch) {
      std::string json = session.EventJson(row);
      if (withFrames && !json.empty() && json.back() == '}') {
        nettrace::JsonWriter w;
        w.BeginArray();
        for (const std::string& frame : session.EventStack(row)) w.String(frame);
        w.EndArray();
        json.insert(json.size() - 1, ",\"frames\":" + w.Take());
      }
      *out += json + "\n";
    }
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc >= 2 && (!std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "-h"))) return Usage(stdout);
  // Live sessions over a process's diagnostics port (core/cli/diag_commands.cc).
  if (argc >= 2 && !std::strcmp(argv[1], "ps")) return nettrace::cli::RunPs(argc, argv);
  if (argc >= 2 && !std::strcmp(argv[1], "collect")) return nettrace::cli::RunCollect(argc, argv);
  if (argc < 3) return Usage(stderr);
  const std::string command = argv[1];
  if (command == "diff") return nettrace_cli::RunDiff(argc, argv);  // two files: cli/diff_command.cc
  if (command == "write-sample-universal") {
    std::vector<uint8_t> bytes;
    nettrace::Status st = nettrace::WriteSampleUniversalTrace(&bytes);
    FILE* f = st.ok() ? std::fopen(argv[2], "wb") : nullptr;
    const bool written = f && std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size();
    if (f && std::fclose(f) != 0) return 1;
    if (!written) {
      std::fprintf(stderr, "nettrace: cannot write %s\n", argv[2]);
      return 1;
    }
    return 0;
  }
  const char* path = argv[2];
  const char* outPath = nullptr;
  int firstOption = 3;
  std::string function;  // sandwich
  if (command == "convert") {
    if (argc < 4) return Usage(stderr);
    outPath = argv[3];
    firstOption = 4;
  } else if (command == "sandwich") {
    if (argc < 4) return Usage(stderr);
    function = argv[3];
    firstOption = 4;
  }
  uint32_t stackRow = 0;  // stack
  bool withFrames = false;  // events --frames
  bool stackText = false;   // export --format csv --stack-text
  bool eventGiven = false;  // export --format csv --event NAME: that type's payload fields as columns
  if (command == "stack") {
    char* end = nullptr;
    const unsigned long long row = argc >= 4 ? std::strtoull(argv[3], &end, 10) : 0;
    if (argc < 4 || *end || end == argv[3] || row > UINT32_MAX) {
      std::fprintf(stderr, "nettrace: stack takes FILE ROW (an event index)\n");
      return 2;
    }
    stackRow = static_cast<uint32_t>(row);
    firstOption = 4;
  }
  const bool stackCommand = command == "flame" || command == "top" || command == "sandwich" || command == "export";
  nettrace::StackQuery stackQuery;
  const bool viewCommand =
      command == "exceptions" || command == "contention" || command == "activities" || command == "counters" ||
      command == "threadpool";
  std::string format = command == "export" ? "" : "json";
  size_t topN = 20;
  nettrace::V6Converter::Options convertOptions;
  size_t chunkSize = kDefaultChunkSize;
  nettrace::EventQuery query;
  auto number = [&](const char* flag, const char* text, double* out) {
    char* end;
    *out = std::strtod(text, &end);
    if (*end || end == text) {
      std::fprintf(stderr, "nettrace: %s takes a number, not '%s'\n", flag, text);
      return false;
    }
    return true;
  };
  for (int i = firstOption; i < argc; ++i) {
    const bool hasValue = i + 1 < argc;
    double v;
    if (command == "convert" && hasValue && !std::strcmp(argv[i], "--from")) {
      if (!number("--from", argv[++i], &v)) return 2;
      convertOptions.fromMs = v;
      continue;
    }
    if (command == "convert" && hasValue && !std::strcmp(argv[i], "--to")) {
      if (!number("--to", argv[++i], &v)) return 2;
      convertOptions.toMs = v;
      continue;
    }
    if ((command == "gc" || command == "jit") && hasValue && !std::strcmp(argv[i], "--format")) {
      format = argv[++i];
      continue;
    }
    if (stackCommand && std::strcmp(argv[i], "--chunk-size") != 0) {
      // Grouping, folding, include/exclude (analysis/stack_transform_options.h).
      if (const int used = nettrace::SetStackTransformOption(argv[i], hasValue ? argv[i + 1] : nullptr,
                                                             &stackQuery.transform)) {
        if (used < 0) {
          std::fprintf(stderr, "nettrace: %s takes a ';'-separated pattern list\n", argv[i]);
          return 2;
        }
        i += used - 1;
        continue;
      }
      if (hasValue && !std::strcmp(argv[i], "--event")) {
        stackQuery.event = argv[++i];
        eventGiven = true;
      } else if (hasValue && !std::strcmp(argv[i], "--provider")) {
        stackQuery.provider = argv[++i];
      } else if (hasValue && !std::strcmp(argv[i], "--thread")) {
        if (!number("--thread", argv[++i], &v) || v < 0) return 2;
        stackQuery.thread = static_cast<uint64_t>(v);
      } else if (hasValue && !std::strcmp(argv[i], "--from")) {
        if (!number("--from", argv[++i], &v)) return 2;
        stackQuery.fromMs = v;
      } else if (hasValue && !std::strcmp(argv[i], "--to")) {
        if (!number("--to", argv[++i], &v)) return 2;
        stackQuery.toMs = v;
      } else if (!std::strcmp(argv[i], "--inverted")) {
        stackQuery.inverted = true;
      } else if (hasValue && !std::strcmp(argv[i], "--process")) {
        if (!number("--process", argv[++i], &v) || v < 0) return 2;
        stackQuery.process = static_cast<uint64_t>(v);
      } else if (!std::strcmp(argv[i], "--by-process")) {
        stackQuery.groupByProcess = true;
      } else if (!std::strcmp(argv[i], "--by-thread")) {
        stackQuery.groupByThread = true;
      } else if (!std::strcmp(argv[i], "--stitch-async") || !std::strcmp(argv[i], "--no-stitch-async")) {
        stackQuery.stitchAsync = argv[i][2] == 's';  // analysis/async_stitching.h
      } else if (hasValue && !std::strcmp(argv[i], "--weight")) {
        const std::string w = argv[++i];
        if (w == "count") stackQuery.weight = nettrace::WeightKind::kCount;
        else if (w == "bytes") stackQuery.weight = nettrace::WeightKind::kBytes;
        else if (w == "thread-time") stackQuery.weight = nettrace::WeightKind::kThreadTime;
        else if (w == "managed-thread-time") stackQuery.weight = nettrace::WeightKind::kManagedThreadTime;
        else if (w == "traceevent-thread-time") stackQuery.weight = nettrace::WeightKind::kTraceEventThreadTime;
        else if (w == "wait-time") stackQuery.weight = nettrace::WeightKind::kWaitTime;
        else {
          std::fprintf(stderr, "nettrace: --weight takes count, bytes, thread-time, managed-thread-time, traceevent-thread-time or wait-time\n");
          return 2;
        }
      } else if (hasValue && !std::strcmp(argv[i], "--exception-type")) {
        stackQuery.exceptionType = argv[++i];
      } else if (hasValue && !std::strcmp(argv[i], "--format")) {
        format = argv[++i];
      } else if (hasValue && !std::strcmp(argv[i], "-o")) {
        outPath = argv[++i];
      } else if (command == "export" && !std::strcmp(argv[i], "--stack-text")) {
        stackText = true;
      } else if (command == "top" && hasValue && !std::strcmp(argv[i], "-n")) {
        if (!number("-n", argv[++i], &v) || v < 0) return 2;
        topN = static_cast<size_t>(v);
      } else {
        std::fprintf(stderr, "nettrace: unknown option '%s'\n", argv[i]);
        return Usage(stderr);
      }
      continue;
    }
    if (viewCommand && hasValue && !std::strcmp(argv[i], "--format")) {
      format = argv[++i];
    } else if (command == "events" && hasValue && !std::strcmp(argv[i], "--provider")) {
      query.provider = argv[++i];
    } else if (command == "events" && hasValue && !std::strcmp(argv[i], "--name")) {
      query.name = argv[++i];
    } else if (command == "events" && hasValue && !std::strcmp(argv[i], "--thread")) {
      if (!number("--thread", argv[++i], &v) || v < 0) return 2;
      query.thread = static_cast<uint64_t>(v);
    } else if (command == "events" && hasValue && !std::strcmp(argv[i], "--from")) {
      if (!number("--from", argv[++i], &v)) return 2;
      query.fromMs = v;
    } else if (command == "events" && hasValue && !std::strcmp(argv[i], "--to")) {
      if (!number("--to", argv[++i], &v)) return 2;
      query.toMs = v;
    } else if (command == "events" && hasValue && !std::strcmp(argv[i], "--limit")) {
      if (!number("--limit", argv[++i], &v) || v < 0) return 2;
      query.limit = static_cast<uint64_t>(v);
    } else if (command == "events" && !std::strcmp(argv[i], "--frames")) {
      withFrames = true;
    } else if (command == "events" && hasValue && !std::strcmp(argv[i], "--text")) {
      query.text = argv[++i];
    } else if (command == "events" && hasValue && !std::strcmp(argv[i], "--offset")) {
      if (!number("--offset", argv[++i], &v) || v < 0) return 2;
      query.offset = static_cast<uint64_t>(v);
    } else if (!std::strcmp(argv[i], "--chunk-size") && hasValue) {
      char* end;
      unsigned long long v = std::strtoull(argv[++i], &end, 10);
      if (*end || v == 0 || v > (1ull << 30)) {
        std::fprintf(stderr, "nettrace: --chunk-size takes a number of bytes from 1 to 1073741824\n");
        return 2;
      }
      chunkSize = static_cast<size_t>(v);
    } else {
      std::fprintf(stderr, "nettrace: unknown option '%s'\n", argv[i]);
      return Usage(stderr);
    }
  }
  if (command == "flame" && format != "json" && format != "folded" && format != "speedscope") {
    std::fprintf(stderr, "nettrace: flame --format takes json, folded or speedscope\n");
    return 2;
  }
  if (command == "export" &&
      ((format != "speedscope" && format != "chrome" && format != "csv" && format != "stacks-csv") || !outPath)) {
    std::fprintf(stderr, "nettrace: export needs --format speedscope|chrome|csv|stacks-csv and -o OUT\n");
    return 2;
  }
  if (stackText && format != "csv") {
    std::fprintf(stderr, "nettrace: --stack-text goes with --format csv\n");
    return 2;
  }
  const bool statsCommand = command == "gc" || command == "jit";
  if ((statsCommand || viewCommand) && format != "json" && format != "csv") {
    std::fprintf(stderr, "nettrace: %s --format takes json or csv\n", command.c_str());
    return 2;
  }
  if (command != "summary" && command != "counts" && command != "events" && command != "convert" && command != "stack" &&
      !stackCommand && !statsCommand && !viewCommand) {
    std::fprintf(stderr, "nettrace: unknown command '%s'\n", command.c_str());
    return Usage(stderr);
  }
  if (command == "convert") return Convert(path, outPath, convertOptions, chunkSize);

  FILE* f = std::fopen(path, "rb");
  if (!f) {
    std::fprintf(stderr, "nettrace: cannot open %s: %s\n", path, std::strerror(errno));
    return 1;
  }
  nettrace::TraceSession session;
  nettrace::Status status;
  if (!StreamFile(
          f, path, chunkSize, [&](const uint8_t* d, size_t n) { return session.PushChunk(d, n); },
          [&] { return session.Finish(); }, &status, &session)) {
    std::fclose(f);
    return 1;
  }

  std::string out;
  if (command == "summary") {
    out = session.SummaryJson() + "\n";
  } else if (command == "counts") {
    out = session.TraceEventCounts();
  } else if (command == "gc") {
    out = format == "csv" ? session.GcCsv() : session.GcJson() + "\n";
  } else if (command == "jit") {
    out = format == "csv" ? session.JitCsv() : session.JitJson() + "\n";
  } else if (viewCommand) {
    const bool csv = format == "csv";
    out = command == "exceptions"   ? session.ExceptionsView(csv)
          : command == "contention" ? session.ContentionView(csv)
          : command == "activities" ? session.ActivitiesView(csv)
          : command == "threadpool" ? session.ThreadPoolView(csv)
                                    : session.CountersView(csv);
    if (!csv) out += "\n";
  } else if (command == "export" && format == "chrome") {
    // Each event's payload fields as args: the blocks are read again, a page at a time.
    nettrace::Status exported = session.ExportChromeTraceWithArgs(FileRanges(f), &out);
    if (!exported.ok()) {
      std::fprintf(stderr, "nettrace: %s: %s\n", path, exported.ToString().c_str());
      std::fclose(f);
      return 1;
    }
    out += "\n";
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
  } else if (stackCommand) {
    out = StackOutput(session, command, format, stackQuery, topN, function, path, stackText);
  } else if (command == "stack") {
    if (stackRow >= session.model().store().size()) {
      std::fprintf(stderr, "nettrace: no event with index %u\n", stackRow);
      std::fclose(f);
      return 2;
    }
    nettrace::JsonWriter w;
    w.BeginObject().Key("index").UInt(stackRow).Key("frames").BeginArray();
    for (const std::string& frame : session.EventStack(stackRow)) w.String(frame);
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
