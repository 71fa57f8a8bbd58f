// The engine facade: the one object the native CLI, the Catch2 end-to-end tests and the
// wasm bindings drive. It starts a read (read/read_pipeline.h: bytes in as chunks of any
// size, then Finish) and hands out the model (model/trace_model.h) that every query, view
// and export reads; the queries here are one-line calls into the rooms that answer them:
//   analysis/summary/trace_summary.h    summary, TraceEvent's counts
//   analysis/query/event_query.h      event pages; analysis/query/histogram.h timelines
//   reread/paged_reader.h       what needs event blocks again: details, text search, the
//                               payload CSV and the Chrome trace with args, in pages
//   analysis/views/stack_views.h      flame graphs, top functions, sandwich, stacks, A/B diff
//   export/stack_exports.h      speedscope, folded stacks, events and stacks CSV, Chrome trace,
//                               whole or streamed; the pprof / OTLP profile
//   analysis/runtime/gc_stats.h, jit_stats.h, runtime_views.h   statistics and event views
//   analysis/views/allocation_view.h  allocations by type and by function
// After a fatal input error the session keeps everything read before the fault: the
// summary's "error" names what went wrong and where. Nothing here blocks on I/O: what must be
// read again (event blocks, method names kept in the file) is asked for as byte ranges.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "base/byte_range.h"
#include "base/status.h"
#include "model/trace_model.h"

namespace nettrace {

namespace api {
struct Request;
}  // namespace api
struct EventQuery;
struct FlameGraph;
struct HistogramQuery;
struct Histogram;
struct ProfileData;
struct ProfileRequest;
class AllocationSamples;
class ExportStream;
class RuntimeViews;
struct StackQuery;
struct StackDiff;
struct TextScanStep;
class SymbolCollector;

class TraceSession {
 public:
  TraceSession();
  ~TraceSession();
  TraceSession(const TraceSession&) = delete;
  TraceSession& operator=(const TraceSession&) = delete;

  using BlockReader = nettrace::BlockReader;

  // Reading (read/read_pipeline.h). PushChunk copies what it needs; its error is the first
  // fatal one, the same again on later calls. NetPerf v1/v2 want the file's tail first.
  Status PushChunk(const uint8_t* data, size_t size);
  size_t TailWanted() const;
  Status ProvideTail(const uint8_t* data, size_t size, uint64_t fileSize);
  // Method names stay in the file (call before the first PushChunk): read back through
  // `read`, or provided by the caller after Finish until NameRangesNeeded is empty.
  void KeepNamesInSource(BlockReader read = nullptr);
  std::vector<ByteRange> NameRangesNeeded();
  void ProvideNames(uint64_t offset, const uint8_t* data, size_t size);
  Status Finish();
  // Makes what has been read so far queryable before Finish (live sessions).
  StoreSnapshot Snapshot();

  const Status& status() const;
  uint64_t bytesConsumed() const;
  uint64_t eventCount() const;
  uint64_t droppedEventCount() const;
  double StoreBytesPerEvent() const;

  /// The model read so far (its symbols name frames once stackModel() prepared them).
  const TraceModel& model() const;
  /// The model with its symbols prepared (method names read back): for queries naming frames.
  const TraceModel& stackModel() const;
  const SymbolCollector& symbols() const;
  const RuntimeViews& views() const;
  const AllocationSamples& allocations() const;

  /// Any query of the model queries' table (api/model_queries.h) by name: its JSON (or CSV,
  /// or lines) answer for the request, given parsed or as the JS API's JSON object; `args`:
  /// its positional arguments after FILE. Long answers go in parts to `part` when given.
  Status Query(std::string_view name, const api::Request& request, const std::vector<std::string>& args,
               std::string* out, const std::function<void(const std::string&)>& part = nullptr) const;
  Status Query(std::string_view name, std::string_view requestJson, const std::vector<std::string>& args,
               std::string* out) const;

  /// The summary (analysis/summary/trace_summary.h), in parts to `part` when given.
  std::string SummaryJson(const std::function<void(const std::string&)>& part = nullptr) const;
  std::string TraceEventCounts() const;
  std::vector<uint32_t> QueryEvents(const EventQuery& query, uint64_t* totalMatches) const;
  Histogram BuildHistogram(const HistogramQuery& query) const;

  // Paged re-reads (reread/paged_reader.h): the blocks a page needs, provided back.
  std::vector<ByteRange> BlocksNeeded(const std::vector<uint32_t>& rows) const;
  void ProvideBlock(uint64_t offset, const uint8_t* data, size_t size);
  /// The same, the bytes taken rather than copied (a v6 block may be 16 MB).
  void ProvideBlock(uint64_t offset, std::vector<uint8_t>&& bytes);
  std::string EventJson(uint32_t row) const;
  TextScanStep ScanText(const EventQuery& query, uint64_t cursor, uint64_t maxRows) const;
  std::vector<uint32_t> MatchPayloadText(const std::vector<uint32_t>& rows, const std::string& text) const;
  Status SearchText(const EventQuery& query, const BlockReader& read, std::vector<uint32_t>* rows,
                    uint64_t rowsPerStep = 32768);
  size_t PayloadCsvPageEnd(const std::vector<uint32_t>& rows, size_t begin, size_t maxBlocks = 32) const;
  void PayloadCsvColumns(const std::vector<uint32_t>& rows, size_t begin, size_t end,
                         std::vector<std::string>* columns) const;
  std::string PayloadCsvLines(const std::vector<uint32_t>& rows, size_t begin, size_t end,
                              const std::vector<std::string>& columns) const;
  Status ExportPayloadCsv(const EventQuery& query, const BlockReader& read, std::string* out);
  std::string ChromeTraceBegin() const;
  uint32_t ChromeTracePageEnd(uint32_t beginRow, size_t maxBlocks = 32) const;
  std::string ChromeTraceEvents(uint32_t beginRow, uint32_t endRow) const;
  std::string ChromeTraceEnd(const std::function<void(const std::string&)>& part = nullptr) const;
  Status ExportChromeTraceWithArgs(const BlockReader& read, const std::function<bool(const std::string&)>& put);

  // Stack views (analysis/views/stack_views.h) and exports (export/stack_exports.h).
  std::vector<std::string> EventStack(uint32_t row) const;
  // The same as a JSON array, written from the frame table (a 500,000-frame stack is 36 MB
  // as a vector of strings).
  std::string EventStackJson(uint32_t row) const;
  std::vector<std::string> EventStackAddresses(uint32_t row) const;
  // A request's "auto" weight as every consumer defaults it (analysis/views/stack_views.h).
  StackQuery WithDefaultWeight(StackQuery query) const;
  std::string FlameGraphJson(const StackQuery& query) const;
  FlameGraph BuildFlameGraph(const StackQuery& query) const;
  std::string FoldedStacks(const StackQuery& query) const;
  std::string TopFunctionsJson(const StackQuery& query, size_t n) const;
  std::string SandwichJson(const StackQuery& query, const std::string& function) const;
  void BuildSandwich(const StackQuery& query, const std::string& function, FlameGraph* callers,
                     FlameGraph* callees) const;
  std::string ExportSpeedscope(const StackQuery& query, const std::string& name) const;
  std::string ExportSpeedscopeEvented(const StackQuery& query, const std::string& name) const;
  std::string ExportChromeTrace() const;
  std::string ExportEventsCsv(bool stackText = false) const;
  std::string ExportStacksCsv() const;
  // The same exports a part at a time (export/export_stream.h); a stream must not outlive
  // the session.
  std::unique_ptr<ExportStream> FoldedStacksStream(const StackQuery& query) const;
  std::unique_ptr<ExportStream> ExportSpeedscopeStream(const StackQuery& query, const std::string& name) const;
  std::unique_ptr<ExportStream> ExportSpeedscopeEventedStream(const StackQuery& query, const std::string& name) const;
  std::unique_ptr<ExportStream> ExportEventsCsvStream(bool stackText = false) const;
  std::unique_ptr<ExportStream> ExportStacksCsvStream() const;
  // The pprof / OTLP profile of a request (export/stack_exports.h BuildProfileOf).
  Status BuildProfile(const ProfileRequest& request, ProfileData* out) const;

  // Statistics and event views built while reading; `csv` false: JSON, true: CSV.
  std::string GcJson() const;
  std::string GcCsv() const;
  std::string JitJson() const;
  std::string JitCsv() const;
  std::string ExceptionsView(bool csv = false) const;
  std::string ContentionView(bool csv = false) const;
  std::string ActivitiesView(bool csv = false) const;
  std::string CountersView(bool csv = false) const;
  std::string ThreadPoolView(bool csv = false) const;
  // Allocations by type and by function (analysis/views/allocation_view.h), estimated from
  // AllocationSampled with `confidence` intervals, or GC/AllocationTick's amounts.
  std::string AllocationsView(bool csv = false, double confidence = 0.99, size_t functions = 100) const;

 private:
  struct Parts;
  std::unique_ptr<Parts> parts_;
};

// A/B diff of two sessions' stack views (analysis/views/stack_views.h BuildStackDiff).
StackDiff BuildStackDiff(const TraceSession& a, const StackQuery& queryA, const TraceSession& b,
                         const StackQuery& queryB);
std::string StackDiffJson(const TraceSession& a, const StackQuery& queryA, const TraceSession& b,
                          const StackQuery& queryB, size_t maxFunctions);
void ResolveDiffWeights(const TraceSession& a, StackQuery* queryA, const TraceSession& b, StackQuery* queryB);
std::string StackDiffFolded(const TraceSession& a, const StackQuery& queryA, const TraceSession& b,
                            const StackQuery& queryB);

}  // namespace nettrace
