// `nettrace dataset OUT_DIR TRACE…`: adds traces to a Parquet dataset (docs/dataset.md);
// `nettrace parquet-sample OUT_DIR`: the writer's sample tables (core/dataset/sample_tables.h),
// for the Parquet reader tests and the writer's measurements (docs/parquet-writer.md).
#pragma once

namespace nettrace_cli {

// argv[1] is "dataset" / "parquet-sample". Return the process exit code.
int RunDataset(int argc, char** argv);
int RunParquetSample(int argc, char** argv);

}  // namespace nettrace_cli
