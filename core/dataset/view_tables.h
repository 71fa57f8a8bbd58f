// core/dataset — the tables of the engine's statistics and event views: `gcs` (one row per
// GC, TraceEvent's TraceGC), `jit` (one row per jitted method), `exceptions` (throws per
// type and throwing method), `contention` (one row per wait), `activities` (one row per
// Start/Stop pair), `counters` (one row per counter sample). Each is the view's own CSV,
// written from the model, with typed, snake_case columns, so the dataset holds exactly what
// `nettrace gc`, `jit`, … show (docs/dataset.md).
#pragma once

#include <string>

#include "base/status.h"
#include "dataset/byte_sink.h"
#include "dataset/table_writer.h"
#include "model/trace_model.h"

namespace nettrace::dataset {

// `table` is one of the six names above; options as Stamped() made them.
Status WriteViewTable(const TraceModel& model, const std::string& table, parquet::WriterOptions options,
                      parquet::ByteSink* sink);

}  // namespace nettrace::dataset
