// The table of queries and options (api/query_options.h). Adding an option is one row here:
// its JSON name, CLI flag, type, values, default (for the docs), the queries it applies to,
// whether it is CLI-only, one doc line and where it goes in the request.
#include "api/query_options.h"

namespace nettrace::api {

namespace {

// Option groups: the queries that share a set of options.
constexpr uint32_t kFilter = kEvents | kHistogram;                          // EventQuery filters
constexpr uint32_t kSelection = kFlame | kTop | kSandwich | kExport | kDiff;  // StackQuery
constexpr uint32_t kViews = kExceptions | kContention | kActivities | kCounters | kThreadPool | kAllocations;
constexpr uint32_t kFileQueries = (kWriteSample - 1) | kAllocations;  // every query reading a FILE
constexpr uint32_t kSession = kCollect | kLive;         // the options of a live session

// The request field an option writes, as a captureless lambda (an OptionSetter).
#define SET(...) [](const OptionValue& v, Request* r) { (void)v, (void)r, __VA_ARGS__; }

}  // namespace

Rows<QuerySpec> Queries() {
  static const QuerySpec queries[] = {
      {"summary", kSummary, "FILE", "trace summary as JSON (format, time range, event types, threads, blocks, anomalies)", true},
      {"counts", kCounts, "FILE", "per-type event counts as 'Provider/Event, count' lines, TraceEvent's baseline form", true},
      {"events", kEvents, "FILE", "events in time order as JSON lines (time, provider, name, thread, processor, labels)", true},
      {"stack", kStack, "FILE ROW", "one event's stack (ROW = its index) as named frames, leaf first, as JSON", true},
      {"histogram", kHistogram, "FILE", "event counts over equal time buckets, as JSON (the timeline's data)", false},
      {"flame", kFlame, "FILE", "call tree of stacks as a laid-out flame graph (json), folded stacks or speedscope", true},
      {"top", kTop, "FILE", "heaviest functions by exclusive weight, with inclusive weight", true},
      {"sandwich", kSandwich, "FILE FUNCTION", "callers and callees of one frame name, as JSON", true},
      {"export", kExport, "FILE", "a file other tools open (speedscope, Chrome trace, CSV of events or of stacks, pprof, OpenTelemetry profiles)", true},
      {"convert", kConvert, "FILE OUT", "rewrite the trace as NetTrace v6 (optionally a time window of it)", true},
      {"diff", kDiff, "A B", "stacks of B (comparison) against A (baseline); selection options apply to both. Many runs a "
       "side: diff --baseline A1 A2 … --compare B1 B2 … (Welch's t-test per function, Holm-corrected)", true},
      {"gc", kGc, "FILE", "one row per GC (TraceEvent's TraceGC) with totals", true},
      {"jit", kJit, "FILE", "one row per jitted method (TraceEvent's TraceJittedMethod) with totals", true},
      {"exceptions", kExceptions, "FILE", "first-chance exceptions by type and throwing method", true},
      {"contention", kContention, "FILE", "lock contention and wait-handle waits as durations", true},
      {"activities", kActivities, "FILE", "Start/Stop activities paired by activity id, nested", true},
      {"counters", kCounters, "FILE", "EventCounters and System.Diagnostics.Metrics time series", true},
      {"threadpool", kThreadPool, "FILE", "thread pool worker/IO counts over time, adjustments, starvation", true},
      {"check", kCheck, "TRACE…",
       "check a budget file's limits (--budget) against each trace: a verdict per budget; exit 0 when all pass, 1 when "
       "any fails, 2 for bad input", true},
      {"allocations", kAllocations, "FILE",
       "allocated bytes and objects by type and function: AllocationSampled's estimates with 99 % intervals "
       "(or GC/AllocationTick's amounts)", true},
      {"write-sample-universal", kWriteSample, "OUT", "write a small collect-linux-like v6 trace", true},
      {"ps", kPs, "[--json]", ".NET processes with a diagnostics port (pid, name, runtime, command line)", true},
      {"collect", kCollect, "(--pid N | --diagnostic-port PATH) -o OUT.nettrace",
       "record a live EventPipe session (Ctrl-C or --duration stops it)", true},
      {"heap", kHeap, "FILE", "heap snapshot (.gcdump, or a .nettrace with heap-dump events): types by count, shallow, "
       "retained and PerfView-inclusive size, root categories, largest objects; paths from roots to a type; growth "
       "against a baseline snapshot", true},
      {"live", kLive, "(--pid N | --diagnostic-port PATH)", "collect, served with the app on 127.0.0.1 (the page grows while it runs; its Stop "
       "ends the session and offers the .nettrace)", false},
      {"heap-snapshot", kHeapSnapshot, "--pid N -o OUT.nettrace", "a heap snapshot of a running process (a short session "
       "with dotnet-gcdump's heap-dump keywords), written as a .nettrace that heap reads", false},
  };
  return {queries, sizeof queries / sizeof queries[0]};
}

Rows<OptionSpec> Options() {
  using T = OptionType;
  static const OptionSpec options[] = {
      // Filters shared by the event queries and the stack selection.
      {"provider", "--provider", nullptr, T::kString, "P", nullptr, kFilter | kSelection, false,
       "provider name, case-insensitive exact match", SET(r->events.provider = r->stack.provider = v.text)},
      {"thread", "--thread", nullptr, T::kCount, "OS_THREAD_ID", nullptr, kFilter | kSelection, false,
       "OS thread id", SET(r->events.thread = r->stack.thread = static_cast<uint64_t>(v.number))},
      {"fromMs", "--from", nullptr, T::kNumber, "MS", nullptr, kFilter | kSelection | kConvert, false,
       "inclusive start, ms from the trace's sync time", SET(r->events.fromMs = r->stack.fromMs = v.number)},
      {"toMs", "--to", nullptr, T::kNumber, "MS", nullptr, kFilter | kSelection | kConvert, false,
       "inclusive end, ms from the trace's sync time", SET(r->events.toMs = r->stack.toMs = v.number)},
      {"name", "--name", nullptr, T::kString, "N", nullptr, kFilter, false,
       "event display name, exact (e.g. GC/Start)", SET(r->events.name = v.text)},
      {"text", "--text", nullptr, T::kString, "STR", nullptr, kEvents, false,
       "free text, case-insensitive, in provider, name, thread, labels or any payload field",
       SET(r->events.text = v.text)},
      {"offset", "--offset", nullptr, T::kCount, "N", "0", kEvents, false, "skip this many matches",
       SET(r->events.offset = static_cast<uint64_t>(v.number))},
      {"limit", "--limit", nullptr, T::kCount, "N", "100", kEvents, false, "return at most this many events",
       SET(r->events.limit = static_cast<uint64_t>(v.number))},
      {"frames", "--frames", nullptr, T::kBool, nullptr, "false", kEvents, true,
       "each event's stack as named frames, leaf first, as in 'stack'", SET(r->frames = v.flag)},
      {"buckets", "--buckets", nullptr, T::kCount, "N", "100", kHistogram, false, "number of equal time buckets",
       SET(r->buckets = static_cast<uint64_t>(v.number))},
      {"groupBy", "--group-by", nullptr, T::kEnum, "none|provider|eventType|thread", "none", kHistogram, false,
       "one series for all events, one per provider, one per event type or one per thread (named by its OS "
       "thread id)",
       SET(r->groupBy = static_cast<HistogramGroup>(v.index))},  // values in the enum's order
      // The stack selection (analysis/stacks/call_tree.h StackQuery).
      {"event", "--event", nullptr, T::kString, "NAME", "Thread/Sample", kSelection, false,
       "event type whose stacks are counted (GC/AllocationTick weighs bytes; cpu / cswitch in Linux-profiler "
       "traces); export csv: that event type only, its payload fields as columns",
       SET(r->stack.event = v.text)},
      {"process", "--process", nullptr, T::kCount, "PID", nullptr, kSelection, false,
       "only the threads of this OS process", SET(r->stack.process = static_cast<uint64_t>(v.number))},
      {"inverted", "--inverted", nullptr, T::kBool, nullptr, "false", kSelection, false,
       "callers above callees (inverted tree)", SET(r->stack.inverted = v.flag)},
      {"groupByThread", "--by-thread", nullptr, T::kBool, nullptr, "false", kSelection, false,
       "a 'Thread (id)' root frame per thread", SET(r->stack.groupByThread = v.flag)},
      {"groupByProcess", "--by-process", nullptr, T::kBool, nullptr, "false", kSelection, false,
       "a 'Process name (pid)' root frame per process, above the thread frames",
       SET(r->stack.groupByProcess = v.flag)},
      // In WeightKind's order: the value's index is the enum's.
      {"weight", "--weight", nullptr, T::kEnum,
       "auto|count|bytes|thread-time|managed-thread-time|traceevent-thread-time|wait-time|alloc-bytes|alloc-objects",
       "auto", kSelection, false,
       "auto: CPU samples (Thread/Sample) traceevent-thread-time, what dotnet-trace convert shows; bytes for "
       "GC/AllocationTick; else count; thread-time: ns since the thread's previous sample; "
       "managed-thread-time: the same without time after a sample outside managed code; traceevent-thread-time: "
       "dotnet-trace's, ns to the thread's next sample; wait-time: ns waited (Contention/Start); alloc-bytes, "
       "alloc-objects: allocations by stack with a 'Type <name>' leaf, AllocationSampled's estimated bytes or "
       "objects (else GC/AllocationTick's bytes or tick count)",
       SET(r->stack.weight = static_cast<WeightKind>(v.index))},
      {"typeAsRoot", "--type-as-root", nullptr, T::kBool, nullptr, "false", kSelection, false,
       "alloc-bytes, alloc-objects: the 'Type <name>' frame at the root instead of the leaf",
       SET(r->stack.typeAsRoot = v.flag)},
      {"exceptionType", "--exception-type", nullptr, T::kString, "T", nullptr, kSelection, false,
       "Exception/Start only: the throws of this exception type", SET(r->stack.exceptionType = v.text)},
      {"stitchAsync", "--stitch-async", "--no-stitch-async", T::kBool, nullptr, "true", kSelection, false,
       "traceevent-thread-time: thread-pool work under the stack that queued it ('STARTING TASK')",
       SET(r->stack.stitchAsync = v.flag)},
      // Grouping, folding, include/exclude (analysis/stacks/stack_transform_options.h), PerfView's
      // stack-view text boxes: every stack view, export and diff.
      {"groupByModule", "--group-by-module", nullptr, T::kBool, nullptr, "false", kSelection, false,
       "each frame becomes its module, 'Module!'", SET(r->stack.transform.groupByModule = v.flag)},
      {"justMyCode", "--just-my-code", nullptr, T::kBool, nullptr, "false", kSelection, false,
       "framework frames (System.*, Microsoft.*, the runtime's native modules) as 'OTHER <<entry>>'",
       SET(r->stack.transform.justMyCode = v.flag)},
      {"dropTimeLeaves", "--drop-time-leaves", nullptr, T::kBool, nullptr, "false", kSelection, false,
       "CPU_TIME, UNMANAGED_CODE_TIME and unresolved leaves folded into their caller",
       SET(r->stack.transform.dropTimeLeaves = v.flag)},
      {"groupPats", "--group-pats", nullptr, T::kPatterns, "P", nullptr, kSelection, false,
       "PerfView's GroupPats: 'pattern->name', 'pattern=>name' (entry group) or a bare pattern",
       SET(r->stack.transform.groupPats = v.text)},
      {"foldPats", "--fold-pats", nullptr, T::kPatterns, "P", nullptr, kSelection, false,
       "PerfView's FoldPats: matching frames removed, their weight charged to their caller",
       SET(r->stack.transform.foldPats = v.text)},
      {"excludePats", "--exclude-pats", nullptr, T::kPatterns, "P", nullptr, kSelection, false,
       "PerfView's ExcPats: stacks with a matching frame left out", SET(r->stack.transform.excludePats = v.text)},
      {"includePats", "--include-pats", nullptr, T::kPatterns, "P", nullptr, kSelection, false,
       "PerfView's IncPats: only stacks on which every pattern matches a frame",
       SET(r->stack.transform.includePats = v.text)},
      {"stackText", "--stack-text", nullptr, T::kBool, nullptr, "false", kExport, false,
       "csv: each row's stack frames too, not only its StackId", SET(r->stackText = v.flag)},
      {"csvPayload", "--csv-payload", "--no-csv-payload", T::kBool, nullptr, "true", kExport, false,
       "csv with --event: that event type only, its payload fields as columns (--no-csv-payload: every event)",
       SET(r->csvPayload = v.flag)},
      {"dotnetTraceFrames", "--dotnet-trace-frames", "--no-dotnet-trace-frames", T::kBool, nullptr, "true", kSelection,
       false,
       "speedscope (evented): every stack under the frames dotnet-trace's files have, 'Process64 name (pid) Args: …', "
       "'(Non-Activities)' or the activity frames, 'Threads', 'Thread (id)'",
       SET(r->stack.dotnetTraceFrames = v.flag)},
      {"otlpEndpoint", "--otlp-endpoint", nullptr, T::kString, "URL", nullptr, kExport, false,
       "otlp: also POST the profiles to this OTLP/HTTP collector (URL ending in /v1development/profiles, or its "
       "base; the native CLI speaks http:// only)", SET(r->otlpEndpoint = v.text)},
      {"speedscope", "--speedscope", nullptr, T::kEnum, "evented|sampled", "evented", kExport, false,
       "speedscope: a time weight as one evented profile per thread in ms, as dotnet-trace writes it; "
       "sampled: one sampled profile per thread (counts and bytes are always sampled)",
       SET(r->speedscope = v.text)},
      // Output and reading (CLI only: the JS API takes these as arguments or open options).
      {"format", "--format", nullptr, T::kEnum, "json|folded|speedscope", "json", kFlame, true, "output format",
       SET(r->format = v.text)},
      {"format", "--format", nullptr, T::kEnum, "speedscope|chrome|csv|stacks-csv|pprof|otlp", nullptr, kExport, true,
       "output format (required); pprof: gzipped profile.proto, otlp: an OpenTelemetry profiles request "
       "(docs/exports.md)", SET(r->format = v.text)},
      {"format", "--format", nullptr, T::kEnum, "json|folded|markdown", "json", kDiff, true,
       "output format (markdown: --baseline/--compare only)",
       SET(r->format = v.text)},
      {"format", "--format", nullptr, T::kEnum, "json|csv", "json", kGc | kJit | kViews, true, "output format",
       SET(r->format = v.text)},
      {"out", "-o", nullptr, T::kString, "OUT", nullptr, kExport, true, "the file to write",
       SET(r->out = v.text)},
      {"n", "-n", nullptr, T::kCount, "N", "20", kTop, true, "number of functions",
       SET(r->count = static_cast<uint64_t>(v.number))},
      {"n", "-n", nullptr, T::kCount, "N", "all", kDiff, true, "number of functions",
       SET(r->count = static_cast<uint64_t>(v.number))},
      {"format", "--format", nullptr, T::kEnum, "text|json|junit|markdown", "text", kCheck, true, "output format",
       SET(r->format = v.text)},
      {"budget", "--budget", nullptr, T::kString, "FILE", nullptr, kCheck, true,
       "the budget file (JSON: docs/ci.md; its schema is `nettrace schema --json`'s budgets)", SET(r->budget = v.text)},
      {"baseline", "--baseline", nullptr, T::kFiles, "FILE…", nullptr, kDiff | kCheck, true,
       "the baseline's traces, one run each (diff: with --compare, instead of A B; check: for maxIncrease budgets)",
       SET(r->baselineFiles.push_back(v.text))},
      {"compare", "--compare", nullptr, T::kFiles, "FILE…", nullptr, kDiff, true,
       "the comparison's traces, one run each (with --baseline, instead of A B)", SET(r->compareFiles.push_back(v.text))},
      {"alpha", "--alpha", nullptr, T::kNumber, "P", "0.05", kDiff, true,
       "--baseline/--compare: the family-wise error rate of the Holm-corrected tests", SET(r->alpha = v.number)},
      {"minShare", "--min-share", nullptr, T::kNumber, "F", "0.001", kDiff, true,
       "--baseline/--compare: shares whose mean over all traces is below F (a fraction) are not tested",
       SET(r->minShare = v.number)},
      {"junitOut", "--junit", nullptr, T::kString, "OUT", nullptr, kCheck, true, "also write the verdicts as JUnit XML to OUT",
       SET(r->junitOut = v.text)},
      {"markdownOut", "--markdown", nullptr, T::kString, "OUT", nullptr, kCheck, true,
       "also write the verdicts as Markdown to OUT (e.g. $GITHUB_STEP_SUMMARY)", SET(r->markdownOut = v.text)},
      {"aFromMs", "--a-from", nullptr, T::kNumber, "MS", nullptr, kDiff, true, "the baseline's own start",
       SET(r->aFromMs = v.number)},
      {"aToMs", "--a-to", nullptr, T::kNumber, "MS", nullptr, kDiff, true, "the baseline's own end",
       SET(r->aToMs = v.number)},
      {"bFromMs", "--b-from", nullptr, T::kNumber, "MS", nullptr, kDiff, true, "the comparison's own start",
       SET(r->bFromMs = v.number)},
      {"bToMs", "--b-to", nullptr, T::kNumber, "MS", nullptr, kDiff, true, "the comparison's own end",
       SET(r->bToMs = v.number)},
      // Live sessions (cli/diag_commands.cc, web/src/live).
      {"json", "--json", nullptr, T::kBool, nullptr, "false", kPs, true, "one JSON array instead of lines",
       SET(r->live.json = v.flag)},
      {"pid", "--pid", nullptr, T::kCount, "N", nullptr, kSession | kHeapSnapshot, false, "the process to trace",
       SET(r->live.pid = static_cast<uint64_t>(v.number))},
      {"diagnosticPort", "--diagnostic-port", nullptr, T::kString, "PATH", nullptr, kSession, false,
       "instead of --pid: start-up tracing, listen on PATH for a runtime started with DOTNET_DiagnosticPorts=PATH",
       SET(r->live.diagnosticPort = v.text)},
      {"providers", "--providers", nullptr, T::kString, "SPEC,…", nullptr, kSession, false,
       "dotnet-trace's providers: name[:keywords[:level[:filter]]], comma-separated", SET(r->live.providers = v.text)},
      {"profile", "--profile", nullptr, T::kString, "NAME,…", nullptr, kSession, false,
       "dotnet-trace profile names, comma-separated (neither: dotnet-common + dotnet-sampled-thread-time)",
       SET(r->live.profile = v.text)},
      {"duration", "--duration", nullptr, T::kString, "D", nullptr, kSession | kHeapSnapshot, true,
       "stop after D: 10, 10s, 500ms, 2m or hh:mm:ss (default: Ctrl-C or the process's end; heap-snapshot: the "
       "dump's end, at most 60 s)",
       SET(r->live.duration = v.text)},
      {"bufferMB", "--buffer-mb", nullptr, T::kCount, "MB", "256", kSession, false, "the runtime's session buffer",
       SET(r->live.bufferMB = static_cast<uint64_t>(v.number))},
      {"out", "-o", nullptr, T::kString, "OUT.nettrace", nullptr, kSession | kHeapSnapshot, true,
       "the file to write (live: optional, the page offers the download)", SET(r->out = v.text)},
      {"port", "--port", nullptr, T::kCount, "P", "0", kLive, true, "the app's port on 127.0.0.1 (0: any free port)",
       SET(r->live.port = static_cast<uint64_t>(v.number))},
      // Heap snapshots (core/heap).
      {"baseline", "--baseline", nullptr, T::kString, "OLD", nullptr, kHeap, true,
       "an older snapshot of the same process: growth by type (count, size, retained) from it to FILE",
       SET(r->heap.baseline = v.text)},
      {"pathsTo", "--paths-to", nullptr, T::kString, "TYPE", nullptr, kHeap, false,
       "shortest paths from the roots to the instances of TYPE (a type name, module!name, or part of a name), "
       "with their root kinds", SET(r->heap.pathsTo = v.text)},
      {"largest", "--largest", nullptr, T::kCount, "N", "20", kHeap, false, "number of largest objects listed",
       SET(r->heap.largest = static_cast<uint64_t>(v.number))},
      {"paths", "--paths", nullptr, T::kCount, "N", "10", kHeap, false, "number of instances whose path is listed",
       SET(r->heap.paths = static_cast<uint64_t>(v.number))},
      {"format", "--format", nullptr, T::kEnum, "json|csv", "json", kHeap, true,
       "output format (csv: the types table, or the growth table with --baseline)", SET(r->format = v.text)},
      {"chunkSize", "--chunk-size", nullptr, T::kCount, "BYTES", "4194304", kFileQueries | kHeap | kCheck, true,
       "read the file in chunks of this size, 1 to 1073741824 (the output is the same)",
       SET(r->chunkSize = static_cast<uint64_t>(v.number))},
  };
  return {options, sizeof options / sizeof options[0]};
}

#undef SET

}  // namespace nettrace::api
