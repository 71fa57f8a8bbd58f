// core/dataset — the `traces` table: one row per trace (docs/dataset.md "traces"), its
// fields read from the engine's Summary JSON. Written last for a trace, so its file is
// the mark that every other table of that trace is complete (dataset_directory.h).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "dataset/byte_sink.h"
#include "dataset/parquet_schema.h"
#include "dataset/table_writer.h"

namespace nettrace::dataset {

// The dataset's schema version, in every file's key/value metadata; bumped when a column
// changes meaning or type (docs/dataset.md "Versioning").
inline constexpr const char* kSchemaVersion = "1";
// parquet.thrift created_by: "<application> version <version>"; the npm package's version
// (tests/node/dataset_parquet.test.mjs checks they agree).
inline constexpr const char* kCreatedBy = "nettrace-analyzer version 0.1.0";

// traceId names the row's partition (traces/trace_id=<id>/) and is not a column of the file:
// engines read it from the path, and BigQuery refuses a column that is also a hive
// partition key (docs/dataset.md "Layout").
struct TraceRow {
  std::string traceId;   // SHA-256 of the file, lower-case hex
  std::string fileName;  // the file's name without its directory
  int64_t fileBytes = 0;
  std::string format;  // Summary format.container, e.g. "NetTrace FastSerialization"
  int32_t formatMajor = 0, formatMinor = 0;
  bool complete = false;  // read to its end without an error
  // The reading error, when there was one (Summary "error": code, offset, message).
  std::optional<std::string> errorCode, errorMessage;
  std::optional<int64_t> errorOffset;
  std::optional<int64_t> processId;
  std::optional<int32_t> pointerSize, processors;
  std::optional<int64_t> syncTimeUtcUs;  // the trace header's clock sync time
  std::optional<int64_t> startUtcUs, endUtcUs, durationNs;  // first to last event
  int64_t eventCount = 0, droppedEvents = 0, bytesRead = 0;
  // Not in the summary: from the trace's events (TraceTables::AddTraceFacts).
  std::optional<std::string> runtimeVersion;  // TraceEvent's TraceLoadedDotNetRuntime.RuntimeVersion
  std::optional<std::string> processName;     // TraceEvent's process name of the command line
  std::optional<std::string> commandLine;
};

parquet::Schema TracesSchema();

// The row of one trace from its summary (TraceSession::SummaryJson()).
TraceRow TraceRowFromSummary(std::string_view summaryJson, std::string traceId, std::string fileName, int64_t fileBytes);

// Writes rows as one Parquet file (options.createdBy and key/values are filled in here).
Status WriteTracesTable(const std::vector<TraceRow>& rows, parquet::WriterOptions options, parquet::ByteSink* sink);

}  // namespace nettrace::dataset
