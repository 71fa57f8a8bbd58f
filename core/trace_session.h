// The engine facade: the one object the native CLI, the Catch2 end-to-end tests and the
// wasm bindings all drive. Bytes go in as chunks of any size (PushChunk), then Finish();
// results come out as small JSON documents. After a fatal input error the session keeps
// everything read before the fault: SummaryJson() and the event queries still answer,
// and the summary's "error" names what went wrong and where.
//
// Event details (processor, sequence number, payload) are not kept per event; they are
// re-read from the file on demand. The session says which byte ranges it needs
// (BlocksNeeded), the caller reads them however it can — fread, Blob.slice(), a ranged
// fetch — and hands them back (ProvideBlock). Nothing here blocks on I/O. Method names may
// stay in the file too (KeepNamesInSource), read back the same way before frames are named.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/byte_range.h"
#include "base/status.h"

namespace nettrace {

struct EventQuery;
struct FlameGraph;
struct HistogramQuery;
struct ProfileData;
struct ProfileRequest;
struct Histogram;
class ExportStream;
class RuntimeViews;
class AllocationSamples;
class StoreBuilder;
struct StackQuery;
struct StackDiff;
struct TextScanStep;
class SymbolCollector;

// What a live session's queries see before Finish (TraceSession::Snapshot).
struct StoreSnapshot {
  uint64_t rows = 0;     // events released by the sorter, in time order: the store's rows
  uint64_t pending = 0;  // events read but still held by the sorter (their region is open)
};

class TraceSession {
 public:
  TraceSession();
  ~TraceSession();
  TraceSession(const TraceSession&) = delete;
  TraceSession& operator=(const TraceSession&) = delete;

  /// Reads `size` bytes at `offset` of the trace file into *out; false on failure.
  using BlockReader = std::function<bool(uint64_t offset, uint64_t size, std::vector<uint8_t>* out)>;

  /// Feeds the next bytes of the file. The data is copied as needed; the caller may reuse
  /// its buffer after the call.
  /// @returns the first fatal error (the same one again on later calls), or Ok.
  Status PushChunk(const uint8_t* data, size_t size);

  /// NetPerf v1/v2 (format/netperf_stream.h): bytes wanted from the end of the file before
  /// the next PushChunk (0: none), and their delivery (see TraceReader::tailWanted).
  size_t TailWanted() const;
  Status ProvideTail(const uint8_t* data, size_t size, uint64_t fileSize);

  /// Method names stay in the file while reading (symbols/method_names.h), not copied: for
  /// a file the caller can read again. Call before the first PushChunk. `read`: how the
  /// session reads them back when stacks are first asked for (the native tool); none: the
  /// caller provides them after Finish, before any query that names frames, until
  /// NameRangesNeeded is empty.
  void KeepNamesInSource(BlockReader read = nullptr);
  /// After Finish: the file ranges holding method names that frames can need and that were
  /// not provided yet (empty: none, or names are copied).
  std::vector<ByteRange> NameRangesNeeded();
  /// Hands back the bytes of a range from NameRangesNeeded.
  void ProvideNames(uint64_t offset, const uint8_t* data, size_t size);

  /// Declares the end of input. @returns an error when the stream ended early.
  Status Finish();

  /// First fatal error so far (Ok when none).
  const Status& status() const;
  uint64_t bytesConsumed() const;
  uint64_t eventCount() const;
  /// Events the trace says were dropped so far (sequence-number gaps), as the summary counts them.
  uint64_t droppedEventCount() const;

  /// Makes what has been read so far queryable before Finish (live sessions): the events the
  /// sorter has released are put in their final order (late ones merged) and the method
  /// ranges seen so far sorted, so that event, histogram and stack queries answer over
  /// them. Reading may continue afterwards; later rows only add to these (or, for late
  /// events, fall between them). After Finish it only counts.
  StoreSnapshot Snapshot();

  /// The trace summary as one JSON object (docs/summary-json.md). With `part`, the text goes
  /// to it in parts of about 1 MiB as it is written and only the rest is returned (the thread
  /// list of a million threads is 100 MB).
  std::string SummaryJson(const std::function<void(const std::string&)>& part = nullptr) const;

  /// Per-type counts in TraceEvent's baseline form ("Provider/Name, count" lines, ordinal
  /// order), after removing the events TraceEvent's TraceLog treats as bookkeeping.
  std::string TraceEventCounts() const;

  /// Events in time order matching a query: the page's store rows and the total count.
  std::vector<uint32_t> QueryEvents(const EventQuery& query, uint64_t* totalMatches) const;
  /// The file ranges (event blocks) that must be provided before EventJson can give the
  /// details of these rows; ranges already provided are left out.
  std::vector<ByteRange> BlocksNeeded(const std::vector<uint32_t>& rows) const;
  /// Hands back the bytes of a range from BlocksNeeded. Keeps a bounded cache.
  void ProvideBlock(uint64_t offset, const uint8_t* data, size_t size);
  /// The same, the bytes taken rather than copied (a v6 block may be 16 MB).
  void ProvideBlock(uint64_t offset, std::vector<uint8_t>&& bytes);
  /// One event as JSON; with its block provided, includes header details and fields.
  std::string EventJson(uint32_t row) const;

  // Free-text search (analysis/text_search.h): the scan in steps the JS API drives, and
  // the whole loop for native callers.

  /// One step of a text search over the rows passing `query`'s other filters, from store
  /// row `cursor`, examining at most `maxRows` rows (query.text must be non-empty).
  TextScanStep ScanText(const EventQuery& query, uint64_t cursor, uint64_t maxRows) const;
  /// Of these rows (their blocks provided), those with a payload field value containing
  /// `text` (ASCII case-insensitive). Rows whose block is not at hand do not match.
  std::vector<uint32_t> MatchPayloadText(const std::vector<uint32_t>& rows, const std::string& text) const;
  /// Every row matching `query` including its text (offset/limit ignored), in time order:
  /// ScanText steps with their blocks read through `read` and provided. Memory stays
  /// bounded (one step's blocks). Fails when a block cannot be read.
  Status SearchText(const EventQuery& query, const BlockReader& read, std::vector<uint32_t>* rows,
                    uint64_t rowsPerStep = 32768);

  /// The stack of one event (store row) as frame names, leaf first, named at the event's
  /// time exactly as the flame graph names them (sample-profiler samples taken outside
  /// managed code end in UNMANAGED_CODE_TIME). Empty without a stack or for a bad row.
  std::vector<std::string> EventStack(uint32_t row) const;
  /// The same as a JSON array of strings, written from the frame table directly: a stack
  /// 500,000 frames deep is 36 MB as a vector of strings.
  std::string EventStackJson(uint32_t row) const;
  /// The same stack's return addresses ("0x…" hex), leaf first, one per named frame after
  /// the UNMANAGED_CODE_TIME leaf: what TraceEvent tells frames apart by.
  std::vector<std::string> EventStackAddresses(uint32_t row) const;

  /// Event counts over time buckets for a query (timelines); see analysis/histogram.h.
  Histogram BuildHistogram(const HistogramQuery& query) const;

  /// Bytes per event of the event store's per-event columns (for the memory budget).
  double StoreBytesPerEvent() const;

  /// The model built so far (tables and the time-ordered store), for analyses.
  const StoreBuilder& model() const;

  // Stacks, flame graphs and exports (issue 4; implemented in trace_session_stacks.cc).
  // Each call resolves the selected events' stacks afresh from model() and symbols().

  /// Method ranges, module names and per-event payload facts collected while streaming.
  const SymbolCollector& symbols() const;
  /// The laid-out flame graph of a query as JSON (analysis/flame_graph.h).
  /// A request's query with its weight "auto" resolved as every consumer's default is: for
  /// CPU samples TraceEvent's thread time, what `dotnet-trace convert` shows
  /// (analysis/call_tree.h AutoMeansTraceEventThreadTime); otherwise unchanged.
  StackQuery WithDefaultWeight(StackQuery query) const;
  std::string FlameGraphJson(const StackQuery& query) const;
  /// The same layout as columns (struct of arrays), for the wasm bridge's typed arrays.
  FlameGraph BuildFlameGraph(const StackQuery& query) const;
  /// Folded stacks ("a;b;c weight" lines, sorted) of a query, root first even when inverted.
  std::string FoldedStacks(const StackQuery& query) const;
  /// The n heaviest functions by exclusive weight, with inclusive weights, as JSON.
  std::string TopFunctionsJson(const StackQuery& query, size_t n) const;
  /// Callers and callees of one function (frame name) as two flame graphs in one JSON.
  std::string SandwichJson(const StackQuery& query, const std::string& function) const;
  /// The same two layouts as columns, for the wasm bridge. A function absent from the
  /// selection gives two graphs of one root node and total 0.
  void BuildSandwich(const StackQuery& query, const std::string& function, FlameGraph* callers,
                     FlameGraph* callees) const;
  /// speedscope JSON of a query, one sampled profile per thread.
  std::string ExportSpeedscope(const StackQuery& query, const std::string& name) const;
  /// The speedscope export: for a selection weighed in time (thread time, wait time) one
  /// evented profile per thread in milliseconds, as dotnet-trace writes thread time
  /// (export/exports.h ExportSpeedscopeEvented); for counts and bytes, ExportSpeedscope.
  std::string ExportSpeedscopeEvented(const StackQuery& query, const std::string& name) const;
  /// The stacks of a request as one profile with a sample type per (event, weight) pair
  /// (export/profile/profile_builder.h), each selected as the flame graph selects it: what the
  /// pprof and OTLP encoders write (export/pprof, export/otlp).
  Status BuildProfile(const ProfileRequest& request, ProfileData* out) const;
  /// Every event as Chrome trace event JSON (chrome://tracing, Perfetto UI).
  std::string ExportChromeTrace() const;
  /// Every event as CSV (time, provider, event, thread, call-stack id; the stack's text too
  /// when asked). The ids are those of ExportStacksCsv.
  std::string ExportEventsCsv(bool stackText = false) const;
  /// Every call stack an event has, as CSV (id, depth, frames root first).
  std::string ExportStacksCsv() const;
  /// The folded stacks and exports above a part at a time, the same bytes, with bounded
  /// memory whatever the document's size (export/export_stream.h). Each holds its own
  /// resolver and selection; it reads the session's model, so it must not outlive the session.
  std::unique_ptr<ExportStream> FoldedStacksStream(const StackQuery& query) const;
  std::unique_ptr<ExportStream> ExportSpeedscopeStream(const StackQuery& query, const std::string& name) const;
  std::unique_ptr<ExportStream> ExportSpeedscopeEventedStream(const StackQuery& query, const std::string& name) const;
  std::unique_ptr<ExportStream> ExportEventsCsvStream(bool stackText = false) const;
  std::unique_ptr<ExportStream> ExportStacksCsvStream() const;
  // CSV of one event type with its payload fields as columns (export/payload_csv_export.h),
  // in pages the caller drives (the JS API reads blocks asynchronously): `rows` are the
  // type's rows (QueryEvents), taken a page at a time with the page's blocks provided.
  /// End of the page from `begin`: the rows after it whose blocks number at most maxBlocks.
  size_t PayloadCsvPageEnd(const std::vector<uint32_t>& rows, size_t begin, size_t maxBlocks = 32) const;
  /// Pass 1: adds the page's field names to `columns`.
  void PayloadCsvColumns(const std::vector<uint32_t>& rows, size_t begin, size_t end,
                         std::vector<std::string>* columns) const;
  /// Pass 2: the page's lines; StackIds are those of ExportStacksCsv.
  std::string PayloadCsvLines(const std::vector<uint32_t>& rows, size_t begin, size_t end,
                              const std::vector<std::string>& columns) const;
  /// The whole document (native): both passes, the blocks read through `read`.
  Status ExportPayloadCsv(const EventQuery& query, const BlockReader& read, std::string* out);
  // The Chrome trace with each event's payload fields as `args` (export/exports.h
  // ChromeTraceWriter), in pages of store rows the caller drives with their blocks provided:
  // Begin, then Events for consecutive pages from row 0 (PageEnd), then End. One at a time.
  std::string ChromeTraceBegin() const;
  uint32_t ChromeTracePageEnd(uint32_t beginRow, size_t maxBlocks = 32) const;
  std::string ChromeTraceEvents(uint32_t beginRow, uint32_t endRow) const;
  std::string ChromeTraceEnd(const std::function<void(const std::string&)>& part = nullptr) const;
  /// The whole document with args (native), the blocks read through `read`.
  Status ExportChromeTraceWithArgs(const BlockReader& read, std::string* out);

  // GC and JIT statistics as TraceEvent's TraceGC / TraceJittedMethod (built while
  // reading: analysis/gc_stats.h, analysis/jit_stats.h; docs/views.md).
  std::string GcJson() const;
  std::string GcCsv() const;
  std::string JitJson() const;
  std::string JitCsv() const;
  // Event views (issue 14; analysis/runtime_views.h), gathered while the file streamed.
  // `csv` false: one JSON document; true: CSV with a header line.

  /// First-chance exceptions by type and throwing method, messages, caught or not.
  std::string ExceptionsView(bool csv = false) const;
  /// Lock contention and wait-handle waits as durations, per thread, lock and owner.
  std::string ContentionView(bool csv = false) const;
  /// Start/Stop activities paired by activity id, nested, with percentiles per name.
  std::string ActivitiesView(bool csv = false) const;
  /// EventCounters and System.Diagnostics.Metrics time series.
  std::string CountersView(bool csv = false) const;
  /// Thread pool: worker/IO thread counts over time, hill-climbing adjustments, starvation.
  std::string ThreadPoolView(bool csv = false) const;
  /// What the event views gathered (for stack queries that narrow or weigh by them).
  const RuntimeViews& views() const;
  // Allocations (analysis/allocation_samples.h; trace_session_allocations.cc).
  /// Allocations by type and by function, estimated from AllocationSampled with `confidence`
  /// intervals (or GC/AllocationTick's amounts), as JSON or CSV (analysis/allocation_view.h).
  std::string AllocationsView(bool csv = false, double confidence = 0.99, size_t functions = 100) const;
  /// The allocation records the alloc-bytes / alloc-objects weights read.
  const AllocationSamples& allocations() const;

 private:
  struct Pipeline;
  std::unique_ptr<Pipeline> pipeline_;
};

// Reads the warm-up trace (write/warm_up_trace.h) once, with its summary, GC and JIT
// statistics and the flame graph of its samples, and returns the summary JSON (or the
// error). The wasm engine's worker calls it when it starts, before any trace arrives
// (trace_session_warm_up.cc).
Status WarmUpEngine(std::string* summaryJson = nullptr);

// A/B diff of two stack views (issue 13; trace_session_diff.cc): A = baseline, B =
// comparison, each a session and its query (the same session twice for two time ranges).
// Both sides are taken root first (a query's `inverted` is ignored).
StackDiff BuildStackDiff(const TraceSession& a, const StackQuery& queryA, const TraceSession& b,
                         const StackQuery& queryB);
/// The diff as JSON (analysis/stack_diff.h), with at most maxFunctions functions.
// Both sides of a diff weighed alike: when either side's "auto" is TraceEvent's thread time
// (TraceSession::WithDefaultWeight), both are.
void ResolveDiffWeights(const TraceSession& a, StackQuery* queryA, const TraceSession& b, StackQuery* queryB);
std::string StackDiffJson(const TraceSession& a, const StackQuery& queryA, const TraceSession& b,
                          const StackQuery& queryB, size_t maxFunctions);
/// The diff as "a;b;c weightA weightB" lines (difffolded.pl's format).
std::string StackDiffFolded(const TraceSession& a, const StackQuery& queryA, const TraceSession& b,
                            const StackQuery& queryB);

}  // namespace nettrace
