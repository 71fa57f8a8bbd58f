// core/dataset — the dataset's layout on disk (docs/dataset.md "Layout"): one folder per
// table, hive-partitioned by trace,
//     OUT_DIR/<table>/trace_id=<sha256>/part-0.parquet
// so a directory of many traces reads as one dataset (DuckDB `hive_partitioning`, Spark,
// Trino/Athena, BigQuery external tables). A file is written under a hidden temporary name
// in its partition and renamed over the final one when complete: a crash leaves no half
// file under a name a reader globs. Appending a trace writes only its own partitions; a
// trace whose `traces` file exists is complete (that table is written last) and skipped.
#pragma once

#include <functional>
#include <string>

#include "base/status.h"
#include "dataset/byte_sink.h"

namespace nettrace::dataset {

// "<root>/<table>/trace_id=<traceId>" and the file and temporary names inside it. The
// temporary name starts with '.' (Spark and Hive skip such files) and does not end in
// .parquet (DuckDB's globs skip it).
std::string PartitionDir(const std::string& root, const std::string& table, const std::string& traceId);
std::string PartFile(const std::string& root, const std::string& table, const std::string& traceId);
std::string TempPartFile(const std::string& root, const std::string& table, const std::string& traceId);

class DatasetDirectory {
 public:
  explicit DatasetDirectory(std::string root) : root_(std::move(root)) {}
  const std::string& root() const { return root_; }

  // The trace's `traces` file exists: every table of it was written.
  bool HasTrace(const std::string& traceId) const;

  // Writes <table>'s file for one trace: `write` fills the sink; on success the file is
  // flushed to disk and renamed into place (replacing one a crashed run left); on failure
  // the temporary file is removed and the error returned with the path.
  Status WriteTable(const std::string& table, const std::string& traceId,
                    const std::function<Status(parquet::ByteSink*)>& write) const;

 private:
  std::string root_;
};

}  // namespace nettrace::dataset
