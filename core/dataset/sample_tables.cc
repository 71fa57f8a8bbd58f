// core/dataset — the sample tables (sample_tables.h). The formulas are mirrored in
// tests/node/parquet_samples.mjs: change both together.
#include "dataset/sample_tables.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <string_view>
#include <vector>

#include "dataset/traces_table.h"

namespace nettrace::dataset {
namespace {

using parquet::ColumnSpec;
using parquet::LogicalKind;
using parquet::PhysicalType;

parquet::WriterOptions Stamped(parquet::WriterOptions options, const char* table) {
  options.createdBy = kCreatedBy;
  options.keyValues = {{"nettrace.dataset.sample", table}};
  return options;
}

const char* const kStrings[] = {"", "a", "\xC3\xA9t\xC3\xA9", "\xE6\x97\xA5\xE6\x9C\xAC\xE8\xAA\x9E", "emoji \xF0\x9F\x98\x80",
                                "Microsoft-Windows-DotNETRuntime"};

}  // namespace

Status WriteTypesSample(uint64_t rows, parquet::WriterOptions options, parquet::ByteSink* sink) {
  const parquet::Schema schema = {
      {"flag", PhysicalType::kBoolean, LogicalKind::kNone, true},
      {"i32", PhysicalType::kInt32, LogicalKind::kSignedInt},
      {"i64", PhysicalType::kInt64, LogicalKind::kSignedInt},
      {"raw_i64", PhysicalType::kInt64, LogicalKind::kNone, true},
      {"d", PhysicalType::kDouble, LogicalKind::kNone, true},
      {"s", PhysicalType::kByteArray, LogicalKind::kString, true},
      {"ts_us", PhysicalType::kInt64, LogicalKind::kTimestampMicros},
      {"ts_ns", PhysicalType::kInt64, LogicalKind::kTimestampNanos, true},
      {"label", PhysicalType::kByteArray, LogicalKind::kString, false, false},
  };
  std::unique_ptr<parquet::TableWriter> w;
  NETTRACE_RETURN_IF_ERROR(parquet::TableWriter::Open(schema, Stamped(options, "types"), sink, &w));
  const size_t n = static_cast<size_t>(rows);
  std::vector<uint8_t> flag(n), flagValid(n), rawValid(n), dValid(n), sValid(n), nsValid(n);
  std::vector<int32_t> i32(n);
  std::vector<int64_t> i64(n), raw(n), us(n), ns(n);
  std::vector<double> d(n);
  std::vector<std::string_view> s(n), label(n);
  std::vector<std::string> labels(n);
  for (size_t i = 0; i < n; ++i) {
    const int64_t k = static_cast<int64_t>(i);
    flagValid[i] = i % 7 != 3;
    flag[i] = i % 3 == 0;
    i32[i] = i == 0 ? std::numeric_limits<int32_t>::min()
             : i == 1 ? std::numeric_limits<int32_t>::max()
                      : static_cast<int32_t>(k * 7919 % 100003 - 50000);
    i64[i] = i == 0 ? std::numeric_limits<int64_t>::min()
             : i == 1 ? std::numeric_limits<int64_t>::max()
                      : k * 1000000007 * (i % 2 ? -1 : 1);
    rawValid[i] = i % 5 != 0;
    raw[i] = k * k;
    dValid[i] = i % 11 != 4;
    d[i] = i == 0 ? std::numeric_limits<double>::quiet_NaN()
           : i == 1 ? -0.0
           : i == 2 ? std::numeric_limits<double>::infinity()
           : i == 3 ? -std::numeric_limits<double>::infinity()
                    : static_cast<double>(k) / 8 - 40;
    sValid[i] = i % 13 != 0;
    s[i] = kStrings[i % 6];
    us[i] = 1700000000000000 + k * 1000001;
    nsValid[i] = i % 4 != 1;
    ns[i] = 1700000000000000000 + k * 999;
    labels[i] = "row " + std::to_string(i);
    label[i] = labels[i];
  }
  NETTRACE_RETURN_IF_ERROR(w->AppendBool(0, flag.data(), flagValid.data(), n));
  NETTRACE_RETURN_IF_ERROR(w->AppendInt32(1, i32.data(), nullptr, n));
  NETTRACE_RETURN_IF_ERROR(w->AppendInt64(2, i64.data(), nullptr, n));
  NETTRACE_RETURN_IF_ERROR(w->AppendInt64(3, raw.data(), rawValid.data(), n));
  NETTRACE_RETURN_IF_ERROR(w->AppendDouble(4, d.data(), dValid.data(), n));
  NETTRACE_RETURN_IF_ERROR(w->AppendStrings(5, s.data(), sValid.data(), n));
  NETTRACE_RETURN_IF_ERROR(w->AppendInt64(6, us.data(), nullptr, n));
  NETTRACE_RETURN_IF_ERROR(w->AppendInt64(7, ns.data(), nsValid.data(), n));
  NETTRACE_RETURN_IF_ERROR(w->AppendStrings(8, label.data(), nullptr, n));
  return w->Finish();
}

Status WriteBigStringsSample(parquet::WriterOptions options, parquet::ByteSink* sink) {
  const parquet::Schema schema = {{"id", PhysicalType::kInt32, LogicalKind::kSignedInt},
                                  {"text", PhysicalType::kByteArray, LogicalKind::kString}};
  std::unique_ptr<parquet::TableWriter> w;
  NETTRACE_RETURN_IF_ERROR(parquet::TableWriter::Open(schema, Stamped(options, "big_strings"), sink, &w));
  const size_t sizes[] = {0, 1, 1 << 20, 3 << 20, 1000, (2 << 20) + 3};
  for (int32_t id = 0; id < 6; ++id) {
    std::string text(sizes[id], '\0');
    for (size_t j = 0; j < text.size(); ++j) text[j] = static_cast<char>('a' + j % 26);
    const std::string_view view = text;
    NETTRACE_RETURN_IF_ERROR(w->AppendInt32(0, &id, nullptr, 1));
    NETTRACE_RETURN_IF_ERROR(w->AppendStrings(1, &view, nullptr, 1));
    NETTRACE_RETURN_IF_ERROR(w->EndBatch());
  }
  return w->Finish();
}

namespace {

const char* const kProviders[] = {"Microsoft-Windows-DotNETRuntime", "Microsoft-DotNETCore-SampleProfiler",
                                  "Microsoft-Windows-DotNETRuntimeRundown", "System.Threading.Tasks.TplEventSource"};

struct Xorshift32 {
  uint32_t x = 123456789;
  uint32_t Next() {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return x;
  }
};

}  // namespace

Status WriteEventsSample(uint64_t rows, parquet::WriterOptions options, parquet::ByteSink* sink,
                         uint64_t* peakBufferBytes) {
  const parquet::Schema schema = {
      {"trace_id", PhysicalType::kByteArray, LogicalKind::kString},
      {"time_ns", PhysicalType::kInt64},
      {"time_utc", PhysicalType::kInt64, LogicalKind::kTimestampMicros},
      {"provider", PhysicalType::kByteArray, LogicalKind::kString},
      {"event_name", PhysicalType::kByteArray, LogicalKind::kString},
      {"event_id", PhysicalType::kInt32},
      {"thread_id", PhysicalType::kInt64},
      {"stack_id", PhysicalType::kInt64, LogicalKind::kNone, true},
      {"payload_json", PhysicalType::kByteArray, LogicalKind::kString, true},
  };
  std::unique_ptr<parquet::TableWriter> w;
  NETTRACE_RETURN_IF_ERROR(parquet::TableWriter::Open(schema, Stamped(options, "events"), sink, &w));
  std::string names[40];
  for (int k = 0; k < 40; ++k) names[k] = "Event/Name" + std::to_string(k);
  const std::string traceId = std::string(16, 'a') + "0123456789abcdef0123456789abcdef0123456789abcdef";
  // Batches no longer than a row group: the writer checks its bounds between batches.
  const size_t batch = static_cast<size_t>(std::min<uint64_t>(65536, options.rowGroupRows));
  std::vector<std::string_view> id(batch, traceId), provider(batch), name(batch), payload(batch);
  std::vector<std::string> payloadText(batch);
  std::vector<int64_t> timeNs(batch), timeUtc(batch), thread(batch), stack(batch);
  std::vector<int32_t> eventId(batch);
  std::vector<uint8_t> stackValid(batch), payloadValid(batch);
  Xorshift32 rng;
  int64_t t = 0;
  for (uint64_t done = 0; done < rows; done += batch) {
    const size_t n = static_cast<size_t>(std::min<uint64_t>(batch, rows - done));
    for (size_t i = 0; i < n; ++i) {
      const uint32_t r = rng.Next();
      t += r & 2047;
      timeNs[i] = t;
      timeUtc[i] = 1700000000000000 + t / 1000;
      const uint32_t k = (r >> 11) % 40;
      name[i] = names[k];
      provider[i] = kProviders[k % 4];
      eventId[i] = static_cast<int32_t>(k + 1);
      thread[i] = 1000 + ((r >> 17) & 63);
      const uint32_t r2 = rng.Next();
      stackValid[i] = r2 % 10 >= 3;
      stack[i] = r2 >> 16;
      payloadValid[i] = (r2 & 1) == 0;
      if (payloadValid[i]) {
        payloadText[i] = "{\"Count\":" + std::to_string(r2 % 1000) + ",\"Reason\":" + std::to_string((r2 >> 10) % 8) +
                         ",\"Name\":\"Item" + std::to_string((r2 >> 14) % 500) + "\"}";
        payload[i] = payloadText[i];
      }
    }
    NETTRACE_RETURN_IF_ERROR(w->AppendStrings(0, id.data(), nullptr, n));
    NETTRACE_RETURN_IF_ERROR(w->AppendInt64(1, timeNs.data(), nullptr, n));
    NETTRACE_RETURN_IF_ERROR(w->AppendInt64(2, timeUtc.data(), nullptr, n));
    NETTRACE_RETURN_IF_ERROR(w->AppendStrings(3, provider.data(), nullptr, n));
    NETTRACE_RETURN_IF_ERROR(w->AppendStrings(4, name.data(), nullptr, n));
    NETTRACE_RETURN_IF_ERROR(w->AppendInt32(5, eventId.data(), nullptr, n));
    NETTRACE_RETURN_IF_ERROR(w->AppendInt64(6, thread.data(), nullptr, n));
    NETTRACE_RETURN_IF_ERROR(w->AppendInt64(7, stack.data(), stackValid.data(), n));
    NETTRACE_RETURN_IF_ERROR(w->AppendStrings(8, payload.data(), payloadValid.data(), n));
    NETTRACE_RETURN_IF_ERROR(w->EndBatch());
  }
  NETTRACE_RETURN_IF_ERROR(w->Finish());
  if (peakBufferBytes) *peakBufferBytes = w->peakBufferBytes();
  return Status::Ok();
}

}  // namespace nettrace::dataset
