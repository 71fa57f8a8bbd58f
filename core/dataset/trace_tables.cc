// core/dataset — the tables of one trace (trace_tables.h).
#include "dataset/trace_tables.h"

#include <algorithm>
#include <cmath>

#include "analysis/call_tree.h"
#include "analysis/stack_frames.h"
#include "analysis/stack_views.h"
#include "analysis/utc_time.h"
#include "dataset/payload_columns.h"
#include "dataset/summary_fields.h"
#include "dataset/traces_table.h"
#include "dataset/view_tables.h"

namespace nettrace::dataset {
namespace {

using parquet::ColumnSpec;
using parquet::LogicalKind;
using parquet::PhysicalType;

constexpr size_t kBatchRows = 16384;
constexpr std::string_view kRuntimeProvider = "Microsoft-Windows-DotNETRuntime";

ColumnSpec Str(const char* n, bool optional = false) { return {n, PhysicalType::kByteArray, LogicalKind::kString, optional}; }
ColumnSpec I64(const char* n, bool optional = false) { return {n, PhysicalType::kInt64, LogicalKind::kSignedInt, optional}; }
ColumnSpec I32(const char* n) { return {n, PhysicalType::kInt32, LogicalKind::kSignedInt}; }

// Ticks from the trace's sync time as nanoseconds, without overflow for any frequency
// below 1.8e10 Hz; negative before the sync time.
int64_t TicksToNs(const TraceInfo& info, uint64_t ticks) {
  if (info.tickFrequency <= 0) return 0;
  const int64_t rel = static_cast<int64_t>(ticks - static_cast<uint64_t>(info.syncTimeTicks));
  const uint64_t t = static_cast<uint64_t>(rel < 0 ? -rel : rel), f = static_cast<uint64_t>(info.tickFrequency);
  const int64_t ns = static_cast<int64_t>(t / f * 1000000000 + t % f * 1000000000 / f);
  return rel < 0 ? -ns : ns;
}

uint64_t OsThreadId(const ThreadEntry& t) { return t.osThreadId.value_or(t.key); }

const char* FrameKindName(FrameKind k) {
  switch (k) {
    case FrameKind::kManaged: return "managed";
    case FrameKind::kModule: return "module";
    case FrameKind::kUnresolved: return "unresolved";
    case FrameKind::kSynthetic: return "synthetic";
  }
  return "";
}

// Each entry's weight in `other`, by store row (both in time order); null where absent.
void WeightsByRow(const StackSelection& sel, const StackSelection& other, std::vector<int64_t>* out,
                  std::vector<uint8_t>* valid) {
  out->assign(sel.size(), 0);
  valid->assign(sel.size(), 0);
  size_t j = 0;
  for (size_t i = 0; i < sel.size(); ++i) {
    while (j < other.size() && other.rows[j] < sel.rows[i]) ++j;
    if (j < other.size() && other.rows[j] == sel.rows[i]) (*out)[i] = static_cast<int64_t>(other.weights[j]), (*valid)[i] = 1;
  }
}

}  // namespace

parquet::WriterOptions Stamped(parquet::WriterOptions options, const std::string& table) {
  options.createdBy = kCreatedBy;
  options.keyValues = {{"nettrace.dataset.schema_version", kSchemaVersion}, {"nettrace.dataset.table", table}};
  return options;
}

TraceTables::TraceTables(const TraceModel& model, BlockReader read)
    : model_(model), read_(std::move(read)), paged_(model),
      resolver_(std::make_unique<StackResolver>(model, model.symbols())) {}

TraceTables::~TraceTables() = default;

void TraceTables::Use(uint32_t stack) {
  if (stack >= used_.size()) used_.resize(std::max<size_t>(stack + 1, used_.size() * 2), 0);
  used_[stack] = 1;
}

Status TraceTables::Write(const std::string& table, parquet::WriterOptions options, parquet::ByteSink* sink) {
  options = Stamped(std::move(options), table);
  if (table == "events") return WriteEvents(std::move(options), sink);
  if (table == "samples") return WriteSamples(std::move(options), sink);
  if (table == "stacks") return WriteStacks(std::move(options), sink);
  if (table == "frames") return WriteFrames(std::move(options), sink);
  return WriteViewTable(model_, table, std::move(options), sink);
}

Status TraceTables::WriteEvents(parquet::WriterOptions options, parquet::ByteSink* sink) {
  const TraceModel& m = model_;
  const EventStore& store = m.store();
  const TraceInfo& info = m.info();
  parquet::Schema schema = {I64("time_ns"),
                                  {"time_utc", PhysicalType::kInt64, LogicalKind::kTimestampMicros, true},
                                  Str("provider"),
                                  Str("event_name"),
                                  I32("event_id"),
                                  I64("thread_id"),
                                  I64("process_id", true),
                                  I64("stack_id", true),
                                  Str("payload_json", true)};
  const size_t typedColumns = schema.size();
  AddPayloadColumnSpecs(&schema);
  PayloadColumnBatch typed;
  std::unique_ptr<parquet::TableWriter> w;
  NETTRACE_RETURN_IF_ERROR(parquet::TableWriter::Open(std::move(schema), std::move(options), sink, &w));
  const double syncMs = SyncUnixMs(info.syncTimeUtc);
  const bool utcKnown = std::isfinite(syncMs);
  const int64_t syncUs = utcKnown ? static_cast<int64_t>(std::llround(syncMs * 1000)) : 0;
  std::vector<int64_t> timeNs, timeUtc, thread, pid, stack;
  std::vector<int32_t> id;
  std::vector<std::string_view> provider, name, payload;
  std::vector<std::string> payloadText;
  std::vector<uint8_t> utcValid, pidValid, stackValid, payloadValid;
  std::vector<uint32_t> page;
  std::vector<uint8_t> bytes;
  EventStore::RowCursor cursor(store);
  const uint32_t size = static_cast<uint32_t>(store.size());
  for (uint32_t begin = 0; begin < size;) {
    const uint32_t end = read_ ? paged_.ChromeTracePageEnd(begin, 32) : std::min<uint32_t>(size, begin + kBatchRows);
    page.clear();
    for (uint32_t r = begin; r < end; ++r) page.push_back(r);
    if (read_) {
      for (const ByteRange& r : paged_.blocks().Needed(page)) {
        if (!read_(r.offset, r.size, &bytes) || bytes.size() != r.size)
          return Status::Error(ErrorCode::kTruncated, r.offset, "cannot re-read an event block");
        paged_.blocks().Provide(r.offset, bytes.data(), bytes.size());
      }
    }
    const size_t n = page.size();
    for (auto* v : {&timeNs, &timeUtc, &thread, &pid, &stack}) v->resize(n);
    for (auto* v : {&utcValid, &pidValid, &stackValid, &payloadValid}) v->resize(n);
    id.resize(n), provider.resize(n), name.resize(n), payload.resize(n), payloadText.resize(n);
    typed.Reset(n);
    for (size_t i = 0; i < n; ++i) {
      const uint32_t row = page[i];
      const uint64_t ts = cursor.timestamp(row);
      const EventType& type = m.types()[store.type(row)];
      const ThreadEntry& t = m.threads()[store.thread(row)];
      timeNs[i] = TicksToNs(info, ts);
      timeUtc[i] = syncUs + timeNs[i] / 1000;
      utcValid[i] = utcKnown;
      provider[i] = type.metadata.providerName;
      name[i] = type.name;
      id[i] = static_cast<int32_t>(type.metadata.eventId);
      thread[i] = static_cast<int64_t>(OsThreadId(t));
      pid[i] = static_cast<int64_t>(t.processId.value_or(0));
      pidValid[i] = t.processId.has_value();
      const uint32_t s = resolver_->Resolve(store.stack(row), ts, t.processId);
      stack[i] = s, stackValid[i] = s != 0;
      if (s) Use(s);
      payloadValid[i] = 0;
      if (read_) {
        const std::string json = paged_.EventJson(row);
        if (auto fields = JsonAt(json, {"payload", "fields"})) {
          if (auto object = NameValueArrayAsObject(*fields)) payloadText[i] = std::move(*object), payloadValid[i] = 1;
        }
        payload[i] = payloadText[i];
        if (payloadValid[i]) typed.Fill(i, provider[i] == kRuntimeProvider, name[i], payloadText[i]);
      }
    }
    NETTRACE_RETURN_IF_ERROR(w->AppendInt64(0, timeNs.data(), nullptr, n));
    NETTRACE_RETURN_IF_ERROR(w->AppendInt64(1, timeUtc.data(), utcValid.data(), n));
    NETTRACE_RETURN_IF_ERROR(w->AppendStrings(2, provider.data(), nullptr, n));
    NETTRACE_RETURN_IF_ERROR(w->AppendStrings(3, name.data(), nullptr, n));
    NETTRACE_RETURN_IF_ERROR(w->AppendInt32(4, id.data(), nullptr, n));
    NETTRACE_RETURN_IF_ERROR(w->AppendInt64(5, thread.data(), nullptr, n));
    NETTRACE_RETURN_IF_ERROR(w->AppendInt64(6, pid.data(), pidValid.data(), n));
    NETTRACE_RETURN_IF_ERROR(w->AppendInt64(7, stack.data(), stackValid.data(), n));
    NETTRACE_RETURN_IF_ERROR(w->AppendStrings(8, payload.data(), payloadValid.data(), n));
    NETTRACE_RETURN_IF_ERROR(typed.Append(w.get(), typedColumns, n));
    NETTRACE_RETURN_IF_ERROR(w->EndBatch());
    begin = end;
  }
  return w->Finish();
}

// The sample profiler's samples with the stacks the flame graph shows for them (external
// samples end in UNMANAGED_CODE_TIME) and each weight the flame graph offers for them.
Status TraceTables::WriteSamples(parquet::WriterOptions options, parquet::ByteSink* sink) {
  const TraceModel& m = model_;
  const parquet::Schema schema = {I64("time_ns"), I64("thread_id"), I64("process_id", true), I64("stack_id", true),
                                  I64("samples"), I64("thread_time_ns", true), I64("managed_thread_time_ns", true)};
  std::unique_ptr<parquet::TableWriter> w;
  NETTRACE_RETURN_IF_ERROR(parquet::TableWriter::Open(schema, std::move(options), sink, &w));
  StackQuery query;  // Thread/Sample, one per sample: `top`'s default
  const StackSelection count = SelectRefinedStacks(model_, resolver_.get(), query);
  std::vector<int64_t> threadTime, managedTime;
  std::vector<uint8_t> threadValid, managedValid;
  query.weight = WeightKind::kThreadTime;
  WeightsByRow(count, SelectRefinedStacks(model_, resolver_.get(), query), &threadTime, &threadValid);
  query.weight = WeightKind::kManagedThreadTime;
  WeightsByRow(count, SelectRefinedStacks(model_, resolver_.get(), query), &managedTime, &managedValid);
  EventStore::RowCursor cursor(m.store());
  std::vector<int64_t> timeNs, thread, pid, stack, weight;
  std::vector<uint8_t> pidValid, stackValid;
  for (size_t begin = 0; begin < count.size(); begin += kBatchRows) {
    const size_t n = std::min(kBatchRows, count.size() - begin);
    for (auto* v : {&timeNs, &thread, &pid, &stack, &weight}) v->resize(n);
    pidValid.resize(n), stackValid.resize(n);
    for (size_t i = 0; i < n; ++i) {
      const size_t e = begin + i;
      const ThreadEntry& t = m.threads()[ThreadIndex(count.threads[e])];
      timeNs[i] = TicksToNs(m.info(), cursor.timestamp(count.rows[e]));
      thread[i] = static_cast<int64_t>(OsThreadId(t));
      pid[i] = static_cast<int64_t>(t.processId.value_or(0)), pidValid[i] = t.processId.has_value();
      stack[i] = count.callStacks[e], stackValid[i] = count.callStacks[e] != 0;
      if (count.callStacks[e]) Use(count.callStacks[e]);
      weight[i] = static_cast<int64_t>(count.weights[e]);
    }
    NETTRACE_RETURN_IF_ERROR(w->AppendInt64(0, timeNs.data(), nullptr, n));
    NETTRACE_RETURN_IF_ERROR(w->AppendInt64(1, thread.data(), nullptr, n));
    NETTRACE_RETURN_IF_ERROR(w->AppendInt64(2, pid.data(), pidValid.data(), n));
    NETTRACE_RETURN_IF_ERROR(w->AppendInt64(3, stack.data(), stackValid.data(), n));
    NETTRACE_RETURN_IF_ERROR(w->AppendInt64(4, weight.data(), nullptr, n));
    NETTRACE_RETURN_IF_ERROR(w->AppendInt64(5, threadTime.data() + begin, threadValid.data() + begin, n));
    NETTRACE_RETURN_IF_ERROR(w->AppendInt64(6, managedTime.data() + begin, managedValid.data() + begin, n));
    NETTRACE_RETURN_IF_ERROR(w->EndBatch());
  }
  return w->Finish();
}

// One row per frame of every stack an event or a sample has: position 0 is the root,
// depth − 1 the leaf, so SQL needs no recursion to walk a stack.
Status TraceTables::WriteStacks(parquet::WriterOptions options, parquet::ByteSink* sink) {
  const parquet::Schema schema = {I64("stack_id"), I32("position"), I32("depth"), I64("frame_id")};
  std::unique_ptr<parquet::TableWriter> w;
  NETTRACE_RETURN_IF_ERROR(parquet::TableWriter::Open(schema, std::move(options), sink, &w));
  std::vector<int64_t> id, frame;
  std::vector<int32_t> position, depth;
  const auto flush = [&]() -> Status {
    const size_t n = id.size();
    NETTRACE_RETURN_IF_ERROR(w->AppendInt64(0, id.data(), nullptr, n));
    NETTRACE_RETURN_IF_ERROR(w->AppendInt32(1, position.data(), nullptr, n));
    NETTRACE_RETURN_IF_ERROR(w->AppendInt32(2, depth.data(), nullptr, n));
    NETTRACE_RETURN_IF_ERROR(w->AppendInt64(3, frame.data(), nullptr, n));
    id.clear(), position.clear(), depth.clear(), frame.clear();
    return w->EndBatch();
  };
  for (uint32_t s = 1; s < used_.size(); ++s) {
    if (!used_[s]) continue;
    const std::vector<uint32_t> frames = resolver_->stacks().Frames(s);
    for (size_t p = 0; p < frames.size(); ++p) {
      id.push_back(s), position.push_back(static_cast<int32_t>(p));
      depth.push_back(static_cast<int32_t>(frames.size())), frame.push_back(frames[p]);
    }
    if (id.size() >= kBatchRows) NETTRACE_RETURN_IF_ERROR(flush());
  }
  NETTRACE_RETURN_IF_ERROR(flush());
  return w->Finish();
}

// Every frame the stacks name: "Module!Namespace.Type.Method" and its module apart.
Status TraceTables::WriteFrames(parquet::WriterOptions options, parquet::ByteSink* sink) {
  const parquet::Schema schema = {I64("frame_id"), Str("name"), Str("module", true), Str("kind")};
  std::unique_ptr<parquet::TableWriter> w;
  NETTRACE_RETURN_IF_ERROR(parquet::TableWriter::Open(schema, std::move(options), sink, &w));
  const FrameTable& frames = resolver_->frames();
  for (size_t begin = 0; begin < frames.size(); begin += kBatchRows) {
    const size_t n = std::min(kBatchRows, frames.size() - begin);
    std::vector<int64_t> id(n);
    std::vector<std::string_view> name(n), module(n), kind(n);
    std::vector<uint8_t> moduleValid(n);
    for (size_t i = 0; i < n; ++i) {
      const uint32_t f = static_cast<uint32_t>(begin + i);
      id[i] = f;
      name[i] = frames.name(f);
      const size_t bang = name[i].find('!');
      moduleValid[i] = bang != std::string_view::npos;
      if (moduleValid[i]) module[i] = name[i].substr(0, bang);
      kind[i] = FrameKindName(frames.kind(f));
    }
    NETTRACE_RETURN_IF_ERROR(w->AppendInt64(0, id.data(), nullptr, n));
    NETTRACE_RETURN_IF_ERROR(w->AppendStrings(1, name.data(), nullptr, n));
    NETTRACE_RETURN_IF_ERROR(w->AppendStrings(2, module.data(), moduleValid.data(), n));
    NETTRACE_RETURN_IF_ERROR(w->AppendStrings(3, kind.data(), nullptr, n));
    NETTRACE_RETURN_IF_ERROR(w->EndBatch());
  }
  return w->Finish();
}

}  // namespace nettrace::dataset
