// core/dataset — the `traces` table (traces_table.h).
#include "dataset/traces_table.h"

#include <memory>

#include "dataset/summary_fields.h"

namespace nettrace::dataset {
namespace {

using parquet::ColumnSpec;
using parquet::LogicalKind;
using parquet::PhysicalType;

// Ticks to nanoseconds without overflow for any tick frequency below 1.8e10 Hz.
std::optional<int64_t> TicksToNs(int64_t ticks, int64_t frequency) {
  if (frequency <= 0 || ticks < 0) return std::nullopt;
  const uint64_t t = static_cast<uint64_t>(ticks), f = static_cast<uint64_t>(frequency);
  return static_cast<int64_t>(t / f * 1000000000 + t % f * 1000000000 / f);
}

// Column builders for a handful of rows: values and validity side by side.
template <typename T>
struct Column {
  std::vector<T> values;
  std::vector<uint8_t> valid;
  void Add(const std::optional<T>& v) {
    values.push_back(v.value_or(T{}));
    valid.push_back(v.has_value());
  }
};

}  // namespace

parquet::Schema TracesSchema() {
  const auto str = [](const char* n, bool optional = false) {
    return ColumnSpec{n, PhysicalType::kByteArray, LogicalKind::kString, optional};
  };
  const auto i64 = [](const char* n, bool optional = false) {
    return ColumnSpec{n, PhysicalType::kInt64, LogicalKind::kSignedInt, optional};
  };
  const auto i32 = [](const char* n, bool optional = false) {
    return ColumnSpec{n, PhysicalType::kInt32, LogicalKind::kSignedInt, optional};
  };
  const auto utc = [](const char* n) { return ColumnSpec{n, PhysicalType::kInt64, LogicalKind::kTimestampMicros, true}; };
  return {str("file_name"),
          i64("file_bytes"),
          str("format"),
          i32("format_major"),
          i32("format_minor"),
          {"complete", PhysicalType::kBoolean},
          str("error_code", true),
          i64("error_offset", true),
          str("error_message", true),
          i64("process_id", true),
          i32("pointer_size", true),
          i32("processors", true),
          utc("sync_time_utc"),
          utc("start_utc"),
          utc("end_utc"),
          i64("duration_ns", true),
          i64("event_count"),
          i64("dropped_events"),
          i64("bytes_read"),
          str("runtime_version", true),
          str("process_name", true),
          str("command_line", true)};
}

TraceRow TraceRowFromSummary(std::string_view s, std::string traceId, std::string fileName, int64_t fileBytes) {
  TraceRow r;
  r.traceId = std::move(traceId);
  r.fileName = std::move(fileName);
  r.fileBytes = fileBytes;
  r.format = JsonString(s, {"format", "container"}).value_or("");
  r.formatMajor = static_cast<int32_t>(JsonInt(s, {"format", "major"}).value_or(0));
  r.formatMinor = static_cast<int32_t>(JsonInt(s, {"format", "minor"}).value_or(0));
  r.complete = JsonBool(s, {"complete"}).value_or(false);
  r.errorCode = JsonString(s, {"error", "code"});
  r.errorOffset = JsonInt(s, {"error", "offset"});
  r.errorMessage = JsonString(s, {"error", "message"});
  r.processId = JsonInt(s, {"trace", "processId"});
  if (auto v = JsonInt(s, {"trace", "pointerSize"})) r.pointerSize = static_cast<int32_t>(*v);
  if (auto v = JsonInt(s, {"trace", "numberOfProcessors"})) r.processors = static_cast<int32_t>(*v);
  if (auto v = JsonString(s, {"trace", "syncTimeUtc"})) r.syncTimeUtcUs = IsoUtcMicros(*v);
  if (auto v = JsonString(s, {"timeRange", "startUtc"})) r.startUtcUs = IsoUtcMicros(*v);
  if (auto v = JsonString(s, {"timeRange", "endUtc"})) r.endUtcUs = IsoUtcMicros(*v);
  const auto first = JsonInt(s, {"timeRange", "firstTimestamp"});
  const auto last = JsonInt(s, {"timeRange", "lastTimestamp"});
  const auto frequency = JsonInt(s, {"trace", "tickFrequency"});
  if (first && last && frequency && *last >= *first) r.durationNs = TicksToNs(*last - *first, *frequency);
  r.eventCount = JsonInt(s, {"eventCount"}).value_or(0);
  r.droppedEvents = JsonInt(s, {"dropped", "events"}).value_or(0);
  r.bytesRead = JsonInt(s, {"bytesRead"}).value_or(0);
  return r;
}

Status WriteTracesTable(const std::vector<TraceRow>& rows, parquet::WriterOptions options, parquet::ByteSink* sink) {
  options.createdBy = kCreatedBy;
  options.keyValues = {{"nettrace.dataset.schema_version", kSchemaVersion}, {"nettrace.dataset.table", "traces"}};
  std::unique_ptr<parquet::TableWriter> w;
  NETTRACE_RETURN_IF_ERROR(parquet::TableWriter::Open(TracesSchema(), options, sink, &w));
  std::vector<std::string_view> name, format;
  Column<std::string_view> errorCode, errorMessage;
  Column<int64_t> errorOffset;
  std::vector<int64_t> bytes, events, dropped, read;
  std::vector<int32_t> major, minor;
  std::vector<uint8_t> complete;
  Column<int64_t> pid, sync, start, end, duration;
  Column<int32_t> pointer, processors;
  Column<std::string_view> runtime, process, commandLine;
  const auto view = [](const std::optional<std::string>& s) { return s ? std::optional<std::string_view>(*s) : std::nullopt; };
  for (const TraceRow& r : rows) {
    runtime.Add(view(r.runtimeVersion));
    process.Add(view(r.processName));
    commandLine.Add(view(r.commandLine));
    name.push_back(r.fileName);
    bytes.push_back(r.fileBytes);
    format.push_back(r.format);
    major.push_back(r.formatMajor);
    minor.push_back(r.formatMinor);
    complete.push_back(r.complete);
    errorCode.Add(r.errorCode ? std::optional<std::string_view>(*r.errorCode) : std::nullopt);
    errorOffset.Add(r.errorOffset);
    errorMessage.Add(r.errorMessage ? std::optional<std::string_view>(*r.errorMessage) : std::nullopt);
    pid.Add(r.processId);
    pointer.Add(r.pointerSize);
    processors.Add(r.processors);
    sync.Add(r.syncTimeUtcUs);
    start.Add(r.startUtcUs);
    end.Add(r.endUtcUs);
    duration.Add(r.durationNs);
    events.push_back(r.eventCount);
    dropped.push_back(r.droppedEvents);
    read.push_back(r.bytesRead);
  }
  const size_t n = rows.size();
  NETTRACE_RETURN_IF_ERROR(w->AppendStrings(0, name.data(), nullptr, n));
  NETTRACE_RETURN_IF_ERROR(w->AppendInt64(1, bytes.data(), nullptr, n));
  NETTRACE_RETURN_IF_ERROR(w->AppendStrings(2, format.data(), nullptr, n));
  NETTRACE_RETURN_IF_ERROR(w->AppendInt32(3, major.data(), nullptr, n));
  NETTRACE_RETURN_IF_ERROR(w->AppendInt32(4, minor.data(), nullptr, n));
  NETTRACE_RETURN_IF_ERROR(w->AppendBool(5, complete.data(), nullptr, n));
  NETTRACE_RETURN_IF_ERROR(w->AppendStrings(6, errorCode.values.data(), errorCode.valid.data(), n));
  NETTRACE_RETURN_IF_ERROR(w->AppendInt64(7, errorOffset.values.data(), errorOffset.valid.data(), n));
  NETTRACE_RETURN_IF_ERROR(w->AppendStrings(8, errorMessage.values.data(), errorMessage.valid.data(), n));
  NETTRACE_RETURN_IF_ERROR(w->AppendInt64(9, pid.values.data(), pid.valid.data(), n));
  NETTRACE_RETURN_IF_ERROR(w->AppendInt32(10, pointer.values.data(), pointer.valid.data(), n));
  NETTRACE_RETURN_IF_ERROR(w->AppendInt32(11, processors.values.data(), processors.valid.data(), n));
  NETTRACE_RETURN_IF_ERROR(w->AppendInt64(12, sync.values.data(), sync.valid.data(), n));
  NETTRACE_RETURN_IF_ERROR(w->AppendInt64(13, start.values.data(), start.valid.data(), n));
  NETTRACE_RETURN_IF_ERROR(w->AppendInt64(14, end.values.data(), end.valid.data(), n));
  NETTRACE_RETURN_IF_ERROR(w->AppendInt64(15, duration.values.data(), duration.valid.data(), n));
  NETTRACE_RETURN_IF_ERROR(w->AppendInt64(16, events.data(), nullptr, n));
  NETTRACE_RETURN_IF_ERROR(w->AppendInt64(17, dropped.data(), nullptr, n));
  NETTRACE_RETURN_IF_ERROR(w->AppendInt64(18, read.data(), nullptr, n));
  NETTRACE_RETURN_IF_ERROR(w->AppendStrings(19, runtime.values.data(), runtime.valid.data(), n));
  NETTRACE_RETURN_IF_ERROR(w->AppendStrings(20, process.values.data(), process.valid.data(), n));
  NETTRACE_RETURN_IF_ERROR(w->AppendStrings(21, commandLine.values.data(), commandLine.valid.data(), n));
  return w->Finish();
}

}  // namespace nettrace::dataset
