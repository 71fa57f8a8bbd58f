#include "trace_session.h"

#include "analysis/views/allocation_view.h"
#include "api/model_queries.h"
#include "analysis/query/event_index.h"
#include "analysis/query/event_query.h"
#include "analysis/query/histogram.h"
#include "analysis/views/model_views.h"
#include "analysis/views/runtime_views.h"
#include "analysis/views/stack_views.h"
#include "analysis/summary/trace_summary.h"
#include "export/stack_exports.h"
#include "read/read_pipeline.h"
#include "reread/paged_reader.h"

namespace nettrace {

// The read, and the paged re-reads over its model.
struct TraceSession::Parts {
  ReadPipeline read;
  PagedReader paged{read.model()};
  // The event table's (type, thread) index, built by the first page filtered by either.
  std::unique_ptr<EventIndex> eventIndex;
};

TraceSession::TraceSession() : parts_(std::make_unique<Parts>()) {}
TraceSession::~TraceSession() = default;

Status TraceSession::PushChunk(const uint8_t* data, size_t size) { return parts_->read.Push(data, size); }
size_t TraceSession::TailWanted() const { return parts_->read.TailWanted(); }
Status TraceSession::ProvideTail(const uint8_t* data, size_t size, uint64_t fileSize) {
  return parts_->read.ProvideTail(data, size, fileSize);
}
void TraceSession::KeepNamesInSource(BlockReader read) { parts_->read.KeepNamesInSource(std::move(read)); }
std::vector<ByteRange> TraceSession::NameRangesNeeded() { return parts_->read.NameRangesNeeded(); }
void TraceSession::ProvideNames(uint64_t offset, const uint8_t* data, size_t size) {
  parts_->read.ProvideNames(offset, data, size);
}
Status TraceSession::Finish() { return parts_->read.Finish(); }
StoreSnapshot TraceSession::Snapshot() { return parts_->read.Snapshot(); }

const Status& TraceSession::status() const { return parts_->read.reader().status(); }
uint64_t TraceSession::bytesConsumed() const { return parts_->read.reader().bytesConsumed(); }
uint64_t TraceSession::eventCount() const { return parts_->read.eventCount(); }
uint64_t TraceSession::droppedEventCount() const { return parts_->read.droppedEventCount(); }
double TraceSession::StoreBytesPerEvent() const {
  const EventStore& s = model().store();
  return s.size() ? static_cast<double>(s.columnBytes()) / static_cast<double>(s.size()) : 0.0;
}

const TraceModel& TraceSession::model() const { return parts_->read.model(); }
const TraceModel& TraceSession::stackModel() const { return parts_->read.PrepareSymbols(); }
const SymbolCollector& TraceSession::symbols() const { return stackModel().symbols(); }
const RuntimeViews& TraceSession::views() const { return model().views(); }
const AllocationSamples& TraceSession::allocations() const { return model().allocations(); }

Status TraceSession::Query(std::string_view name, const api::Request& request, const std::vector<std::string>& args,
                           std::string* out, const std::function<void(const std::string&)>& part) const {
  const api::ModelQuery* query = api::FindModelQuery(name);
  if (!query) return Status::Error(ErrorCode::kInvalidArgument, kNoOffset, "no query named '" + std::string(name) + "'");
  if (Status s = api::CheckAnswerFormat(*query, request); !s.ok()) return s;
  return query->answer(query->namesFrames ? stackModel() : model(), request, args, part, out);
}
Status TraceSession::Query(std::string_view name, std::string_view requestJson, const std::vector<std::string>& args,
                           std::string* out) const {
  const api::QuerySpec* spec = api::FindQuery(name);
  api::Request request;
  if (spec) {
    if (Status s = api::ParseModelRequest(*spec, requestJson, &request); !s.ok()) return s;
  }
  return Query(name, request, args, out);
}

std::string TraceSession::SummaryJson(const std::function<void(const std::string&)>& part) const {
  return nettrace::SummaryJson(model(), part);
}
std::string TraceSession::TraceEventCounts() const { return nettrace::TraceEventCounts(model()); }
std::vector<uint32_t> TraceSession::QueryEvents(const EventQuery& query, uint64_t* totalMatches) const {
  // Built once reading has ended: a live store grows between pages, and a pass over its rows
  // is cheaper than an index built again for each.
  std::unique_ptr<EventIndex>& index = parts_->eventIndex;
  const bool filtered = !query.provider.empty() || !query.name.empty() || query.thread;
  if (filtered && parts_->read.finished() && (!index || index->storeRows() != model().store().size()))
    index = std::make_unique<EventIndex>(model().store(), model().types().size(), model().threads().size());
  EventPage page = nettrace::QueryEvents(model(), query, index.get());
  if (totalMatches) *totalMatches = page.totalMatches;
  return std::move(page.rows);
}
Histogram TraceSession::BuildHistogram(const HistogramQuery& query) const {
  return nettrace::BuildHistogram(model(), query);
}

// Paged re-reads. Those that name frames prepare the symbols first.
std::vector<ByteRange> TraceSession::BlocksNeeded(const std::vector<uint32_t>& rows) const {
  return parts_->paged.blocks().Needed(rows);
}
void TraceSession::ProvideBlock(uint64_t offset, const uint8_t* data, size_t size) {
  parts_->paged.blocks().Provide(offset, data, size);
}
void TraceSession::ProvideBlock(uint64_t offset, std::vector<uint8_t>&& bytes) {
  parts_->paged.blocks().Provide(offset, std::move(bytes));
}
std::string TraceSession::EventJson(uint32_t row) const { return parts_->paged.EventJson(row); }
TextScanStep TraceSession::ScanText(const EventQuery& query, uint64_t cursor, uint64_t maxRows) const {
  return parts_->paged.ScanText(query, cursor, maxRows);
}
std::vector<uint32_t> TraceSession::MatchPayloadText(const std::vector<uint32_t>& rows, const std::string& text) const {
  return parts_->paged.MatchPayloadText(rows, text);
}
Status TraceSession::SearchText(const EventQuery& query, const BlockReader& read, std::vector<uint32_t>* rows,
                                uint64_t rowsPerStep) {
  return parts_->paged.SearchText(query, read, rows, rowsPerStep);
}
size_t TraceSession::PayloadCsvPageEnd(const std::vector<uint32_t>& rows, size_t begin, size_t maxBlocks) const {
  return parts_->paged.PayloadCsvPageEnd(rows, begin, maxBlocks);
}
void TraceSession::PayloadCsvColumns(const std::vector<uint32_t>& rows, size_t begin, size_t end,
                                     std::vector<std::string>* columns) const {
  parts_->paged.PayloadCsvColumns(rows, begin, end, columns);
}
std::string TraceSession::PayloadCsvLines(const std::vector<uint32_t>& rows, size_t begin, size_t end,
                                          const std::vector<std::string>& columns) const {
  stackModel();
  return parts_->paged.PayloadCsvLines(rows, begin, end, columns);
}
Status TraceSession::ExportPayloadCsv(const EventQuery& query, const BlockReader& read, std::string* out) {
  EventQuery all = query;
  all.offset = 0, all.limit = UINT64_MAX;
  const std::vector<uint32_t> rows = QueryEvents(all, nullptr);
  stackModel();
  return parts_->paged.ExportPayloadCsv(rows, read, out);
}
std::string TraceSession::ChromeTraceBegin() const {
  stackModel();
  return parts_->paged.ChromeTraceBegin();
}
uint32_t TraceSession::ChromeTracePageEnd(uint32_t beginRow, size_t maxBlocks) const {
  return parts_->paged.ChromeTracePageEnd(beginRow, maxBlocks);
}
std::string TraceSession::ChromeTraceEvents(uint32_t beginRow, uint32_t endRow) const {
  return parts_->paged.ChromeTraceEvents(beginRow, endRow);
}
std::string TraceSession::ChromeTraceEnd(const std::function<void(const std::string&)>& part) const {
  return parts_->paged.ChromeTraceEnd(part);
}
Status TraceSession::ExportChromeTraceWithArgs(const BlockReader& read,
                                               const std::function<bool(const std::string&)>& put) {
  stackModel();
  return parts_->paged.ExportChromeTraceWithArgs(read, put);
}

// Stack views and exports.
std::vector<std::string> TraceSession::EventStack(uint32_t row) const { return EventStackFrames(stackModel(), row); }
std::string TraceSession::EventStackJson(uint32_t row) const { return nettrace::EventStackJson(stackModel(), row); }
std::vector<std::string> TraceSession::EventStackAddresses(uint32_t row) const {
  return nettrace::EventStackAddresses(stackModel(), row);
}
StackQuery TraceSession::WithDefaultWeight(StackQuery q) const { return nettrace::WithDefaultWeight(model(), q); }
std::string TraceSession::FlameGraphJson(const StackQuery& q) const { return nettrace::FlameGraphJson(stackModel(), q); }
FlameGraph TraceSession::BuildFlameGraph(const StackQuery& q) const { return nettrace::BuildFlameGraph(stackModel(), q); }
std::string TraceSession::FoldedStacks(const StackQuery& q) const { return FoldedStacksOf(stackModel(), q); }
std::string TraceSession::TopFunctionsJson(const StackQuery& q, size_t n) const {
  return nettrace::TopFunctionsJson(stackModel(), q, n);
}
std::string TraceSession::SandwichJson(const StackQuery& q, const std::string& function) const {
  return nettrace::SandwichJson(stackModel(), q, function);
}
void TraceSession::BuildSandwich(const StackQuery& q, const std::string& function, FlameGraph* callers,
                                 FlameGraph* callees) const {
  nettrace::BuildSandwich(stackModel(), q, function, callers, callees);
}
std::string TraceSession::ExportSpeedscope(const StackQuery& q, const std::string& name) const {
  return SpeedscopeOf(stackModel(), q, name);
}
std::string TraceSession::ExportSpeedscopeEvented(const StackQuery& q, const std::string& name) const {
  return SpeedscopeEventedOf(stackModel(), q, name);
}
std::string TraceSession::ExportChromeTrace() const { return ChromeTraceOf(stackModel()); }
std::string TraceSession::ExportEventsCsv(bool stackText) const { return EventsCsvOf(stackModel(), stackText); }
std::string TraceSession::ExportStacksCsv() const { return StacksCsvOf(stackModel()); }
std::unique_ptr<ExportStream> TraceSession::FoldedStacksStream(const StackQuery& q) const {
  return FoldedStacksStreamOf(stackModel(), q);
}
std::unique_ptr<ExportStream> TraceSession::ExportSpeedscopeStream(const StackQuery& q, const std::string& name) const {
  return SpeedscopeStreamOf(stackModel(), q, name);
}
std::unique_ptr<ExportStream> TraceSession::ExportSpeedscopeEventedStream(const StackQuery& q,
                                                                          const std::string& name) const {
  return SpeedscopeEventedStreamOf(stackModel(), q, name);
}
std::unique_ptr<ExportStream> TraceSession::ExportEventsCsvStream(bool stackText) const {
  return EventsCsvStreamOf(stackModel(), stackText);
}
std::unique_ptr<ExportStream> TraceSession::ExportStacksCsvStream() const { return StacksCsvStreamOf(stackModel()); }
Status TraceSession::BuildProfile(const ProfileRequest& request, ProfileData* out) const {
  return BuildProfileOf(stackModel(), request, out);
}

// Statistics and event views.
std::string TraceSession::GcJson() const { return GcDocument(model(), ViewFormat::kJson); }
std::string TraceSession::GcCsv() const { return GcDocument(model(), ViewFormat::kCsv); }
std::string TraceSession::JitJson() const { return JitDocument(model(), ViewFormat::kJson); }
std::string TraceSession::JitCsv() const { return JitDocument(model(), ViewFormat::kCsv); }
namespace {
ViewFormat FormatOf(bool csv) { return csv ? ViewFormat::kCsv : ViewFormat::kJson; }
}  // namespace
std::string TraceSession::ExceptionsView(bool csv) const { return ExceptionsDocument(stackModel(), FormatOf(csv)); }
std::string TraceSession::ContentionView(bool csv) const { return ContentionDocument(model(), FormatOf(csv)); }
std::string TraceSession::ActivitiesView(bool csv) const { return ActivitiesDocument(stackModel(), FormatOf(csv)); }
std::string TraceSession::CountersView(bool csv) const { return CountersDocument(model(), FormatOf(csv)); }
std::string TraceSession::ThreadPoolView(bool csv) const { return ThreadPoolDocument(model(), FormatOf(csv)); }
std::string TraceSession::AllocationsView(bool csv, double confidence, size_t functions) const {
  AllocationViewOptions options;
  options.confidence = confidence, options.functions = functions, options.format = FormatOf(csv);
  return nettrace::AllocationsView(stackModel(), options);
}

StackDiff BuildStackDiff(const TraceSession& a, const StackQuery& queryA, const TraceSession& b,
                         const StackQuery& queryB) {
  return BuildStackDiff(a.stackModel(), queryA, b.stackModel(), queryB);
}
std::string StackDiffJson(const TraceSession& a, const StackQuery& queryA, const TraceSession& b,
                          const StackQuery& queryB, size_t maxFunctions) {
  return StackDiffJson(a.stackModel(), queryA, b.stackModel(), queryB, maxFunctions);
}
void ResolveDiffWeights(const TraceSession& a, StackQuery* queryA, const TraceSession& b, StackQuery* queryB) {
  ResolveDiffWeights(a.model(), queryA, b.model(), queryB);
}
std::string StackDiffFolded(const TraceSession& a, const StackQuery& queryA, const TraceSession& b,
                            const StackQuery& queryB) {
  return StackDiffFolded(a.stackModel(), queryA, b.stackModel(), queryB);
}

}  // namespace nettrace
