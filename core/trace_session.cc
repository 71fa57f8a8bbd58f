#include "trace_session.h"

#include <algorithm>
#include <deque>
#include <map>

#include "analysis/activity_view.h"
#include "analysis/clr_stats_sink.h"
#include "analysis/event_index.h"
#include "analysis/event_json.h"
#include "analysis/event_query.h"
#include "analysis/histogram.h"
#include "analysis/names_from_source.h"
#include "analysis/allocation_samples.h"
#include "analysis/runtime_views.h"
#include "analysis/summary.h"
#include "analysis/text_search.h"
#include "analysis/universal_summary.h"
#include "base/stats.h"
#include "export/chrome_spans.h"
#include "export/payload_csv_export.h"
#include "format/event_block.h"
#include "session_fan_out.h"
#include "format/trace_reader.h"
#include "model/sorted_tap.h"
#include "model/store_builder.h"
#include "resolve/type_resolver.h"
#include "symbols/symbol_collector.h"

namespace nettrace {

namespace {
// Event blocks are ~100 KB in real traces (v6 caps them below 16 MB): a few dozen cover
// a page of the event table.
constexpr size_t kBlockCacheEntries = 64;
static_assert(kMaxBlocksPerStep < kBlockCacheEntries, "a text-search step's blocks must fit in the cache");
}  // namespace

// The pipeline: TraceReader (chunks → blocks → records, reference checks) → TypeResolver
// (what each metadata id is, and each event's type in the one type table, decided once)
// feeding, in file order, the RecordFacts (the records as written: blocks, tables, bytes,
// capture threads and drops), the StoreBuilder (tables, sorter, columnar store) and the
// SymbolCollector. Behind the store's sorter, the events are counted as the store keeps them
// (the summary's counts: model/event_counts.h), and the analyses that need time order
// (runtime signals, GC and JIT statistics, runtime views) read the sorted tap
// (model/sorted_tap.h): each event as the resolver resolved it, in (timestamp, file order).
struct TraceSession::Pipeline {
  Stats stats;
  RuntimeSignals runtime;  // the summary's "runtime" key
  ClrStatsSink clrStats;   // GC and JIT statistics (issue 14)
  RuntimeViews views;      // exceptions, contention, activities, counters (issue 14)
  AllocationSamples allocations;  // AllocationSampled / AllocationTick records: alloc weights, `allocations`
  SortedTap tap{{&runtime, &clrStats, &views, &allocations}};
  RecordFacts records{&stats};
  StoreBuilder store{&stats, &resolver, &tap};  // (resolver is declared below: its address is enough)
  SymbolCollector symbols{&resolver};  // method ranges and payload facts for stacks (issue 4)
  SessionFanOut fanOut{&records, &store, &symbols};
  TypeResolver resolver{&fanOut, &stats};
  TraceReader reader{&resolver, &stats};
  bool flushed = false;
  // Provided event blocks by offset, with their rows decoded once.
  struct CachedBlock {
    std::vector<uint8_t> bytes;
    std::vector<EventRecord> rows;  // payload spans point into bytes
  };
  std::map<uint64_t, CachedBlock> blocks;
  std::deque<uint64_t> blockOrder;  // FIFO eviction
  // The Chrome trace being written in pages (ChromeTraceBegin … ChromeTraceEnd).
  std::unique_ptr<ChromeTraceWriter> chromeWriter;
  // The payload CSV's stack ids: the resolver of the rows before csvNextRow (PayloadCsvLines).
  std::unique_ptr<StackResolver> csvResolver;
  // The current text search's per-type decisions (analysis/text_search.h), kept between steps.
  std::unique_ptr<TextSearchPlan> textPlan;
  // The event table's (type, thread) index, built by the first page filtered by either.
  std::unique_ptr<EventIndex> eventIndex;
  uint32_t csvNextRow = 0;

  bool methodsSorted = false;
  // Method names kept in source: how they are read back (native), and what is loaded.
  BlockReader namesReader;
  NamesFromSource names;

  void FlushOnce() {
    if (!flushed) store.Flush(), symbols.Finish();
    flushed = true;
  }
  // The method ranges are sorted on first use (stacks), once reading has ended; names kept
  // in source are then read back, when the session can read them itself.
  const SymbolCollector& SymbolsForStacks() {
    if (flushed && !methodsSorted) {
      symbols.FinishMethods(), methodsSorted = true;
      if (namesReader) ReadNames();
    }
    if (flushed) names.Take(&symbols.methods());
    return symbols;
  }
  void ReadNames() {
    std::vector<uint8_t> bytes;
    // Each round loads what it asks for; one more is needed only after names that were not
    // terminated, so this ends (and a failed read ends it too: those frames are named by
    // their method id, analysis/stack_frames.cc).
    for (std::vector<ByteRange> ranges; !(ranges = names.Needed(store, &symbols.methods())).empty();) {
      for (const ByteRange& r : ranges) {
        if (!namesReader(r.offset, r.size, &bytes) || bytes.size() != r.size) return;
        names.Provide(r.offset, bytes, &symbols.methods());
      }
    }
  }
};

TraceSession::TraceSession() : pipeline_(std::make_unique<Pipeline>()) {}
TraceSession::~TraceSession() = default;

Status TraceSession::PushChunk(const uint8_t* data, size_t size) {
  Status s = pipeline_->reader.Push(data, size);
  if (!s.ok()) pipeline_->FlushOnce();  // keep every event read before the fault
  return s;
}

size_t TraceSession::TailWanted() const { return pipeline_->reader.tailWanted(); }

Status TraceSession::ProvideTail(const uint8_t* data, size_t size, uint64_t fileSize) {
  Status s = pipeline_->reader.ProvideTail(data, size, fileSize);
  if (!s.ok()) pipeline_->FlushOnce();
  return s;
}

void TraceSession::KeepNamesInSource(BlockReader read) {
  pipeline_->symbols.KeepNamesInSource(true);
  pipeline_->namesReader = std::move(read);
}

std::vector<ByteRange> TraceSession::NameRangesNeeded() {
  Pipeline& p = *pipeline_;
  if (!p.flushed) return {};
  if (!p.methodsSorted) p.symbols.FinishMethods(), p.methodsSorted = true;
  return p.names.Needed(p.store, &p.symbols.methods());
}

void TraceSession::ProvideNames(uint64_t offset, const uint8_t* data, size_t size) {
  if (pipeline_->flushed) pipeline_->names.Provide(offset, {data, size}, &pipeline_->symbols.methods());
}

Status TraceSession::Finish() {
  Status s = pipeline_->reader.Finish();
  pipeline_->FlushOnce();
  return s;
}

const Status& TraceSession::status() const { return pipeline_->reader.status(); }
uint64_t TraceSession::bytesConsumed() const { return pipeline_->reader.bytesConsumed(); }
uint64_t TraceSession::eventCount() const { return pipeline_->resolver.nextOrdinal(); }
uint64_t TraceSession::droppedEventCount() const { return pipeline_->records.drops().total(); }

StoreSnapshot TraceSession::Snapshot() {
  Pipeline& p = *pipeline_;
  if (!p.flushed) {
    p.store.SealReleased();
    p.symbols.FinishMethods();  // sorts what was added since; later adds need it again
  }
  return {p.store.store().size(), p.store.sorter().pending()};
}

std::string TraceSession::SummaryJson() const {
  SummaryReaderState state;
  state.formatMajor = pipeline_->reader.formatMajor();
  state.complete = pipeline_->reader.complete();
  state.bytesRead = pipeline_->reader.bytesConsumed();
  state.error = pipeline_->reader.status();
  JsonWriter w;
  w.BeginObject();
  const Pipeline& p = *pipeline_;
  const EventCounts events = p.store.counts();
  const std::vector<uint64_t> perThread = EventsPerThread(events, p.resolver);
  WriteSummaryFields(w, state, {p.records, events, p.resolver, perThread, p.stats, &p.runtime, &p.clrStats.gc()});
  // Linux-profiler traces (issue 7): processes and mappings, as extra keys at the end.
  WriteUniversalSummaryFields(w, p.store, p.symbols, perThread);
  w.EndObject();
  return w.Take();
}

std::string TraceSession::TraceEventCounts() const {
  return nettrace::TraceEventCounts(pipeline_->store.counts(), pipeline_->resolver);
}

std::vector<uint32_t> TraceSession::QueryEvents(const EventQuery& query, uint64_t* totalMatches) const {
  std::unique_ptr<EventIndex>& index = pipeline_->eventIndex;
  // Built once reading has ended: a live store grows between pages, and a pass over its rows
  // is cheaper than an index built again for each.
  const bool filtered = !query.provider.empty() || !query.name.empty() || query.thread;
  if (filtered && pipeline_->flushed && (!index || index->storeRows() != pipeline_->store.store().size()))
    index = std::make_unique<EventIndex>(pipeline_->store.store(), pipeline_->store.types().size(),
                                         pipeline_->store.threads().size());
  EventPage page = nettrace::QueryEvents(pipeline_->store, query, index.get());
  if (totalMatches) *totalMatches = page.totalMatches;
  return std::move(page.rows);
}

std::vector<ByteRange> TraceSession::BlocksNeeded(const std::vector<uint32_t>& rows) const {
  std::vector<ByteRange> out;
  Pipeline& p = *pipeline_;
  for (uint32_t row : rows) {
    if (row >= p.store.store().size()) continue;
    RowLocation loc = p.store.store().Locate(row);
    if (p.blocks.count(loc.blockOffset)) {
      // Still needed: move it to the back of the eviction order, so that providing the
      // missing ones (at most kMaxBlocksPerStep < kBlockCacheEntries for a text-search
      // step) cannot evict it before the caller uses it.
      auto at = std::find(p.blockOrder.begin(), p.blockOrder.end(), loc.blockOffset);
      if (at != p.blockOrder.end() && std::next(at) != p.blockOrder.end()) {
        p.blockOrder.erase(at);
        p.blockOrder.push_back(loc.blockOffset);
      }
      continue;
    }
    ByteRange r{loc.blockOffset, loc.blockSize};
    if (std::none_of(out.begin(), out.end(), [&](const ByteRange& o) { return o.offset == r.offset; })) out.push_back(r);
  }
  return out;
}

void TraceSession::ProvideBlock(uint64_t offset, const uint8_t* data, size_t size) {
  Pipeline& p = *pipeline_;
  if (p.blocks.count(offset)) return;
  while (p.blockOrder.size() >= kBlockCacheEntries) {
    p.blocks.erase(p.blockOrder.front());
    p.blockOrder.pop_front();
  }
  Pipeline::CachedBlock& block = p.blocks[offset];
  block.bytes.assign(data, data + size);
  // A block that no longer decodes (the file changed under us) gives no rows: the events
  // then show without details rather than with wrong ones.
  const RowGeneration gen = RowGenerationFor(p.reader.formatMajor());
  if (!DecodeEventRows(ByteCursor({block.bytes.data(), block.bytes.size()}, offset), gen, &block.rows).ok())
    block.rows.clear();
  p.blockOrder.push_back(offset);
}

std::string TraceSession::EventJson(uint32_t row) const {
  const Pipeline& p = *pipeline_;
  if (row >= p.store.store().size()) return "null";
  RowLocation loc = p.store.store().Locate(row);
  auto it = p.blocks.find(loc.blockOffset);
  const EventRecord* record = nullptr;
  if (it != p.blocks.end() && it->second.bytes.size() == loc.blockSize && loc.rowInBlock < it->second.rows.size())
    record = &it->second.rows[loc.rowInBlock];
  return nettrace::EventJson(p.store, row, record, p.reader.formatMajor());
}

Histogram TraceSession::BuildHistogram(const HistogramQuery& query) const {
  return nettrace::BuildHistogram(pipeline_->store, query);
}

double TraceSession::StoreBytesPerEvent() const {
  const EventStore& s = pipeline_->store.store();
  return s.size() ? static_cast<double>(s.columnBytes()) / static_cast<double>(s.size()) : 0.0;
}

}  // namespace nettrace

namespace nettrace {
const StoreBuilder& TraceSession::model() const { return pipeline_->store; }
}  // namespace nettrace

namespace nettrace {
const SymbolCollector& TraceSession::symbols() const { return pipeline_->SymbolsForStacks(); }
}  // namespace nettrace

// Free-text search (analysis/text_search.h).
namespace nettrace {

// The JS API asks step by step (scanText), the CLI in a loop: either way the plan is made once
// per query and store state, kept between steps.
TextScanStep TraceSession::ScanText(const EventQuery& query, uint64_t cursor, uint64_t maxRows) const {
  Pipeline& p = *pipeline_;
  if (!p.textPlan || !p.textPlan->Fits(p.store, query))
    p.textPlan = std::make_unique<TextSearchPlan>(PlanTextSearch(p.store, query));
  return ScanTextStep(p.store, *p.textPlan, cursor, maxRows);
}

std::vector<uint32_t> TraceSession::MatchPayloadText(const std::vector<uint32_t>& rows, const std::string& text) const {
  const Pipeline& p = *pipeline_;
  const std::string needle = LowerAscii(text);
  const uint32_t pointerSize = p.store.info().pointerSize ? p.store.info().pointerSize : 8;
  std::vector<uint32_t> out;
  for (uint32_t row : rows) {
    if (row >= p.store.store().size()) continue;
    const RowLocation loc = p.store.store().Locate(row);
    auto it = p.blocks.find(loc.blockOffset);
    if (it == p.blocks.end() || it->second.bytes.size() != loc.blockSize || loc.rowInBlock >= it->second.rows.size())
      continue;
    const EventType& type = p.store.types()[p.store.store().type(row)];
    if (PayloadContains(type.metadata, it->second.rows[loc.rowInBlock], needle, pointerSize, p.reader.formatMajor()))
      out.push_back(row);
  }
  return out;
}

Status TraceSession::SearchText(const EventQuery& query, const BlockReader& read, std::vector<uint32_t>* rows,
                                uint64_t rowsPerStep) {
  rows->clear();
  if (query.text.empty()) {
    EventQuery all = query;
    all.offset = 0, all.limit = UINT64_MAX;
    *rows = QueryEvents(all, nullptr);
    return Status::Ok();
  }
  std::vector<uint8_t> bytes;
  for (uint64_t cursor = 0;;) {
    TextScanStep step = ScanText(query, cursor, rowsPerStep);
    for (const ByteRange& r : BlocksNeeded(step.needPayload)) {
      if (!read(r.offset, r.size, &bytes) || bytes.size() != r.size)
        return Status::Error(ErrorCode::kTruncated, r.offset, "cannot re-read an event block");
      ProvideBlock(r.offset, bytes.data(), bytes.size());
    }
    std::vector<uint32_t> payloadMatches = MatchPayloadText(step.needPayload, query.text);
    const size_t before = rows->size();
    rows->insert(rows->end(), step.matches.begin(), step.matches.end());
    rows->insert(rows->end(), payloadMatches.begin(), payloadMatches.end());
    std::inplace_merge(rows->begin() + static_cast<std::ptrdiff_t>(before),
                       rows->begin() + static_cast<std::ptrdiff_t>(before + step.matches.size()), rows->end());
    if (step.next >= step.end) break;
    cursor = step.next;
  }
  return Status::Ok();
}

}  // namespace nettrace

// GC and JIT statistics (issue 14).
namespace nettrace {
// The Chrome trace: the events, and activities and GCs as durations (export/chrome_spans.h).
std::string TraceSession::ExportChromeTrace() const {
  const std::vector<ChromeSpan> spans =
      ChromeSpans(model().info(), ActivityView(model(), symbols()).FinishedActivities(), pipeline_->clrStats.gc().Gcs());
  return nettrace::ExportChromeTrace(model(), symbols(), spans);
}

std::string TraceSession::ChromeTraceBegin() const {
  pipeline_->chromeWriter = std::make_unique<ChromeTraceWriter>(model(), symbols());
  return pipeline_->chromeWriter->Head(
      ChromeSpans(model().info(), ActivityView(model(), symbols()).FinishedActivities(), pipeline_->clrStats.gc().Gcs()));
}

uint32_t TraceSession::ChromeTracePageEnd(uint32_t beginRow, size_t maxBlocks) const {
  const EventStore& store = pipeline_->store.store();
  std::vector<uint64_t> blocks;
  uint32_t end = beginRow;
  for (; end < store.size(); ++end) {
    const uint64_t block = store.Locate(end).blockOffset;
    if (std::find(blocks.begin(), blocks.end(), block) != blocks.end()) continue;
    if (blocks.size() == maxBlocks && end > beginRow) break;
    blocks.push_back(block);
  }
  return end;
}

std::string TraceSession::ChromeTraceEvents(uint32_t beginRow, uint32_t endRow) const {
  const Pipeline& p = *pipeline_;
  if (!p.chromeWriter) return "";
  return p.chromeWriter->Events(beginRow, endRow, [&p](uint32_t row) {
    std::vector<std::pair<std::string, std::string>> none;
    const RowLocation loc = p.store.store().Locate(row);
    auto it = p.blocks.find(loc.blockOffset);
    if (it == p.blocks.end() || it->second.bytes.size() != loc.blockSize || loc.rowInBlock >= it->second.rows.size())
      return none;
    return PayloadCells(p.store, it->second.rows[loc.rowInBlock], row, p.reader.formatMajor());
  });
}

std::string TraceSession::ChromeTraceEnd() const {
  if (!pipeline_->chromeWriter) return "";
  std::string tail = pipeline_->chromeWriter->Tail();
  pipeline_->chromeWriter.reset();
  return tail;
}

Status TraceSession::ExportChromeTraceWithArgs(const BlockReader& read, std::string* out) {
  *out = ChromeTraceBegin();
  std::vector<uint8_t> bytes;
  std::vector<uint32_t> page;
  const uint32_t size = static_cast<uint32_t>(model().store().size());
  for (uint32_t begin = 0; begin < size;) {
    const uint32_t end = ChromeTracePageEnd(begin);
    page.clear();
    for (uint32_t r = begin; r < end; ++r) page.push_back(r);
    for (const ByteRange& r : BlocksNeeded(page)) {
      if (!read(r.offset, r.size, &bytes) || bytes.size() != r.size) {
        ChromeTraceEnd();
        return Status::Error(ErrorCode::kTruncated, r.offset, "cannot re-read an event block");
      }
      ProvideBlock(r.offset, bytes.data(), bytes.size());
    }
    *out += ChromeTraceEvents(begin, end);
    begin = end;
  }
  *out += ChromeTraceEnd();
  return Status::Ok();
}

std::string TraceSession::GcJson() const { return pipeline_->clrStats.gc().ToJson(); }
std::string TraceSession::GcCsv() const { return pipeline_->clrStats.gc().ToCsv(); }
std::string TraceSession::JitJson() const { return pipeline_->clrStats.jit().ToJson(); }
std::string TraceSession::JitCsv() const { return pipeline_->clrStats.jit().ToCsv(); }

// Event views (issue 14).
const RuntimeViews& TraceSession::views() const { return pipeline_->views; }
const AllocationSamples& TraceSession::allocations() const { return pipeline_->allocations; }
std::string TraceSession::ExceptionsView(bool csv) const {
  return pipeline_->views.Exceptions(pipeline_->store, symbols(), csv ? ViewFormat::kCsv : ViewFormat::kJson);
}
std::string TraceSession::ContentionView(bool csv) const {
  return pipeline_->views.Contention(pipeline_->store, csv ? ViewFormat::kCsv : ViewFormat::kJson);
}
std::string TraceSession::ActivitiesView(bool csv) const {
  return ActivityView(pipeline_->store, symbols()).Write(csv ? ViewFormat::kCsv : ViewFormat::kJson);
}
std::string TraceSession::CountersView(bool csv) const {
  return pipeline_->views.Counters(csv ? ViewFormat::kCsv : ViewFormat::kJson);
}
std::string TraceSession::ThreadPoolView(bool csv) const {
  return pipeline_->views.ThreadPool(csv ? ViewFormat::kCsv : ViewFormat::kJson);
}
}  // namespace nettrace

// CSV of one event type with payload columns (export/payload_csv_export.h).
namespace nettrace {

size_t TraceSession::PayloadCsvPageEnd(const std::vector<uint32_t>& rows, size_t begin, size_t maxBlocks) const {
  const EventStore& store = pipeline_->store.store();
  std::vector<uint64_t> blocks;
  size_t end = begin;
  for (; end < rows.size(); ++end) {
    const uint64_t block = store.Locate(rows[end]).blockOffset;
    if (std::find(blocks.begin(), blocks.end(), block) != blocks.end()) continue;
    if (blocks.size() == maxBlocks && end > begin) break;
    blocks.push_back(block);
  }
  return end;
}

namespace {
// The decoded row of a store row whose block is provided, else nullptr (as EventJson finds it).
// (A template: TraceSession::Pipeline is private, its type is deduced at the call.)
template <typename Pipeline>
const EventRecord* ProvidedRecord(const Pipeline& p, uint32_t row) {
  const RowLocation loc = p.store.store().Locate(row);
  auto it = p.blocks.find(loc.blockOffset);
  if (it == p.blocks.end() || it->second.bytes.size() != loc.blockSize || loc.rowInBlock >= it->second.rows.size())
    return nullptr;
  return &it->second.rows[loc.rowInBlock];
}
}  // namespace

void TraceSession::PayloadCsvColumns(const std::vector<uint32_t>& rows, size_t begin, size_t end,
                                     std::vector<std::string>* columns) const {
  const Pipeline& p = *pipeline_;
  auto recordOf = [&p](uint32_t row) { return ProvidedRecord(p, row); };
  for (size_t i = begin; i < end && i < rows.size(); ++i)
    if (const EventRecord* record = recordOf(rows[i]))
      AddPayloadColumns(p.store, *record, rows[i], p.reader.formatMajor(), columns);
}

std::string TraceSession::PayloadCsvLines(const std::vector<uint32_t>& rows, size_t begin, size_t end,
                                          const std::vector<std::string>& columns) const {
  Pipeline& p = *pipeline_;  // the CSV resolver carries on between pages
  auto recordOf = [&p](uint32_t row) { return ProvidedRecord(p, row); };
  end = std::min(end, rows.size());
  if (begin >= end) return "";
  // Stack ids are numbered in store order (ExportStacksCsv): every row before a page's rows is
  // resolved first. The resolver carries on from page to page (pages come in row order; any
  // resolver that has resolved rows 0..n-1 in order gives the ids a fresh one gives), and starts
  // again when a page goes back.
  const EventStore& store = p.store.store();
  const uint32_t first = *std::min_element(rows.begin() + static_cast<std::ptrdiff_t>(begin), rows.begin() + static_cast<std::ptrdiff_t>(end));
  const uint32_t last = *std::max_element(rows.begin() + static_cast<std::ptrdiff_t>(begin), rows.begin() + static_cast<std::ptrdiff_t>(end));
  if (!p.csvResolver || first < p.csvNextRow) p.csvResolver = std::make_unique<StackResolver>(model(), symbols()), p.csvNextRow = 0;
  std::vector<uint32_t> ids(last + 1 - first);
  for (uint32_t r = p.csvNextRow; r <= last; ++r) {
    const uint32_t id = p.csvResolver->Resolve(store.stack(r), store.timestamp(r));
    if (r >= first) ids[r - first] = id;
  }
  p.csvNextRow = last + 1;
  std::string out;
  for (size_t i = begin; i < end; ++i)
    out += PayloadCsvLine(p.store, recordOf(rows[i]), rows[i], p.reader.formatMajor(), ids[rows[i] - first], columns);
  return out;
}

Status TraceSession::ExportPayloadCsv(const EventQuery& query, const BlockReader& read, std::string* out) {
  EventQuery all = query;
  all.offset = 0, all.limit = UINT64_MAX;
  const std::vector<uint32_t> rows = QueryEvents(all, nullptr);
  std::vector<std::string> columns;
  std::string body;
  std::vector<uint8_t> bytes;
  for (int pass = 0; pass < 2; ++pass) {
    for (size_t begin = 0; begin < rows.size();) {
      const size_t end = PayloadCsvPageEnd(rows, begin);
      for (const ByteRange& r : BlocksNeeded(std::vector<uint32_t>(rows.begin() + static_cast<std::ptrdiff_t>(begin), rows.begin() + static_cast<std::ptrdiff_t>(end)))) {
        if (!read(r.offset, r.size, &bytes) || bytes.size() != r.size)
          return Status::Error(ErrorCode::kTruncated, r.offset, "cannot re-read an event block");
        ProvideBlock(r.offset, bytes.data(), bytes.size());
      }
      if (pass == 0) PayloadCsvColumns(rows, begin, end, &columns);
      else body += PayloadCsvLines(rows, begin, end, columns);
      begin = end;
    }
  }
  *out = PayloadCsvHeader(columns) + body;
  return Status::Ok();
}

}  // namespace nettrace
