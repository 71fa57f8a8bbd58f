// core/dataset — the statistics and view tables (view_tables.h): each view's CSV header
// names, mapped to the dataset's column names and types.
#include "dataset/view_tables.h"

#include <vector>

#include "analysis/model_views.h"
#include "dataset/csv_table.h"

namespace nettrace::dataset {
namespace {

constexpr CsvType S = CsvType::kString, I = CsvType::kInt64, D = CsvType::kDouble, B = CsvType::kBool;

// Times in ms are the views' own (ms from the trace's sync time, 6 decimals).
const std::vector<CsvColumn> kGcs = {
    {"processId", "process_id", I},
    {"number", "gc_number", I},
    {"generation", "generation", I},
    {"type", "type", S},
    {"reason", "reason", S},
    {"isInduced", "is_induced", B},
    {"isComplete", "is_complete", B},
    {"startMs", "start_ms", D},
    {"durationMs", "duration_ms", D},
    {"pauseStartMs", "pause_start_ms", D},
    {"pauseMs", "pause_ms", D},
    {"suspendMs", "suspend_ms", D},
    {"heapSizeBeforeMB", "heap_size_before_mb", D},
    {"allocedSinceLastGCMB", "alloced_since_last_gc_mb", D},
    {"allocRateMBSec", "alloc_rate_mb_per_s", D},
    {"pauseTimePercentageSinceLastGC", "pause_time_percentage_since_last_gc", D},
    {"heapSizeAfterBytes", "heap_size_after_bytes", I},
    {"promotedBytes", "promoted_bytes", I},
    {"gen0AfterBytes", "gen0_after_bytes", I},
    {"gen1AfterBytes", "gen1_after_bytes", I},
    {"gen2AfterBytes", "gen2_after_bytes", I},
    {"lohAfterBytes", "loh_after_bytes", I},
    {"pohAfterBytes", "poh_after_bytes", I},
    {"pinnedObjectCount", "pinned_object_count", I},
};

const std::vector<CsvColumn> kJit = {
    {"processId", "process_id", I}, {"threadId", "thread_id", I},     {"startMs", "start_ms", D},
    {"jitTimeMs", "jit_time_ms", D}, {"ilSize", "il_size", I},         {"nativeSize", "native_size", I},
    {"tier", "tier", S},             {"r2r", "r2r", B},                {"thread", "compilation_thread", S},
    {"versionId", "version_id", I},  {"completed", "completed", B},    {"name", "method", S},
    {"module", "module", S},
};

const std::vector<CsvColumn> kExceptions = {
    {"type", "type", S}, {"throwingMethod", "throwing_method", S}, {"count", "count", I}};

const std::vector<CsvColumn> kContention = {
    {"kind", "kind", S},         {"timeMs", "time_ms", D},       {"thread", "thread_id", I},
    {"durationNs", "duration_ns", I}, {"measured", "measured", B}, {"lockId", "lock_id", S},
    {"objectId", "object_id", S}, {"owner", "owner_thread_id", I},
};

const std::vector<CsvColumn> kActivities = {
    {"index", "activity_index", I}, {"provider", "provider", S}, {"name", "name", S},
    {"id", "activity_id", S},       {"parent", "parent_index", I}, {"depth", "depth", I},
    {"startMs", "start_ms", D},     {"durationMs", "duration_ms", D}, {"startThread", "start_thread_id", I},
    {"stopThread", "stop_thread_id", I},
};

const std::vector<CsvColumn> kCounters = {
    {"provider", "provider", S}, {"name", "name", S},      {"tags", "tags", S},   {"kind", "kind", S},
    {"units", "units", S},       {"timeMs", "time_ms", D}, {"value", "value", D},
};

}  // namespace

Status WriteViewTable(const TraceModel& model, const std::string& table, parquet::WriterOptions options,
                      parquet::ByteSink* sink) {
  constexpr ViewFormat kCsv = ViewFormat::kCsv;
  if (table == "gcs") return WriteCsvTable(GcDocument(model, kCsv), kGcs, std::move(options), sink);
  if (table == "jit") return WriteCsvTable(JitDocument(model, kCsv), kJit, std::move(options), sink);
  if (table == "exceptions") return WriteCsvTable(ExceptionsDocument(model, kCsv), kExceptions, std::move(options), sink);
  if (table == "contention") return WriteCsvTable(ContentionDocument(model, kCsv), kContention, std::move(options), sink);
  if (table == "activities") return WriteCsvTable(ActivitiesDocument(model, kCsv), kActivities, std::move(options), sink);
  if (table == "counters") return WriteCsvTable(CountersDocument(model, kCsv), kCounters, std::move(options), sink);
  return Status::Error(ErrorCode::kInvalidArgument, kNoOffset, "no dataset table '" + table + "'");
}

}  // namespace nettrace::dataset
