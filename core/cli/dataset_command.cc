// The dataset commands (dataset_command.h). A trace's id is the SHA-256 of its bytes,
// computed in a first pass, so a trace already in the dataset is skipped before it is read.
// Each trace prints one JSON line on stdout: {"file","traceId","written":[tables]} or
// {"file","traceId","skipped":"present"}.
#include "cli/dataset_command.h"

#include <sys/resource.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "base/json_writer.h"
#include "cli/diff_command.h"
#include "dataset/dataset_directory.h"
#include "dataset/page_codec.h"
#include "dataset/sample_tables.h"
#include "dataset/sha256.h"
#include "dataset/trace_tables.h"
#include "dataset/traces_table.h"
#include "trace_session.h"

namespace nettrace_cli {
namespace {

constexpr size_t kChunkSize = 1 << 20;

struct FileHash {
  std::string hex;
  int64_t bytes = 0;
};

bool HashFile(const char* path, FileHash* out) {
  std::FILE* f = std::fopen(path, "rb");
  if (!f) {
    std::fprintf(stderr, "nettrace: cannot open %s: %s\n", path, std::strerror(errno));
    return false;
  }
  nettrace::Sha256 h;
  std::vector<uint8_t> buffer(kChunkSize);
  size_t n;
  while ((n = std::fread(buffer.data(), 1, buffer.size(), f)) > 0) {
    h.Update(buffer.data(), n);
    out->bytes += static_cast<int64_t>(n);
  }
  const bool failed = std::ferror(f);
  std::fclose(f);
  if (failed) {
    std::fprintf(stderr, "nettrace: read error on %s\n", path);
    return false;
  }
  out->hex = h.Hex();
  return true;
}

std::string BaseName(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// --codec NAME (default zstd) and the positional arguments after argv[1].
bool ParseArgs(int argc, char** argv, std::vector<std::string>* positional, std::string* codec,
               std::vector<std::pair<std::string, uint64_t>>* numbers) {
  for (int i = 2; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--codec" && i + 1 < argc) {
      *codec = argv[++i];
    } else if (a.rfind("--", 0) == 0 && i + 1 < argc && numbers) {
      char* end = nullptr;
      const unsigned long long v = std::strtoull(argv[i + 1], &end, 10);
      if (*end != '\0') return false;
      numbers->push_back({a.substr(2), v});
      ++i;
    } else if (a.rfind("--", 0) == 0) {
      return false;
    } else {
      positional->push_back(a);
    }
  }
  return true;
}

long MaxRssBytes() {
  struct rusage u {};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_maxrss * 1024;
}

}  // namespace

int RunDataset(int argc, char** argv) {
  std::vector<std::string> args;
  std::string codecName = "zstd";
  if (!ParseArgs(argc, argv, &args, &codecName, nullptr) || args.size() < 2) {
    std::fprintf(stderr, "usage: nettrace dataset OUT_DIR TRACE... [--codec zstd|gzip|none]\n");
    return 2;
  }
  std::unique_ptr<nettrace::parquet::PageCodec> codec;
  if (nettrace::Status st = nettrace::parquet::MakeCodecByName(codecName, &codec); !st.ok()) {
    std::fprintf(stderr, "nettrace: %s\n", st.message().c_str());
    return 2;
  }
  const nettrace::dataset::DatasetDirectory dir(args[0]);
  int exitCode = 0;
  for (size_t i = 1; i < args.size(); ++i) {
    const char* path = args[i].c_str();
    FileHash hash;
    if (!HashFile(path, &hash)) {
      exitCode = 1;
      continue;
    }
    nettrace::JsonWriter line;
    line.BeginObject();
    line.Key("file").String(args[i]);
    line.Key("traceId").String(hash.hex);
    if (dir.HasTrace(hash.hex)) {
      line.Key("skipped").String("present");
    } else {
      nettrace::TraceSession session;
      if (!LoadTrace(path, kChunkSize, &session)) {
        exitCode = 1;
        continue;
      }
      // A file that is no trace at all gets no row (a damaged trace does, with its error).
      if (session.status().code() == nettrace::ErrorCode::kBadMagic) {
        std::fprintf(stderr, "nettrace: %s is not a trace; not added\n", path);
        exitCode = 1;
        continue;
      }
      nettrace::parquet::WriterOptions options;
      options.codec = codec.get();
      line.Key("written").BeginArray();
      // Payloads are re-read from the file a page of event blocks at a time.
      std::FILE* blocks = std::fopen(path, "rb");
      nettrace::dataset::TraceTables tables(session.stackModel(), [blocks](uint64_t offset, uint64_t size, std::vector<uint8_t>* out) {
        out->resize(size);
        return blocks && fseeko(blocks, static_cast<off_t>(offset), SEEK_SET) == 0 &&
               std::fread(out->data(), 1, size, blocks) == size;
      });
      nettrace::Status st;
      for (const char* table : nettrace::dataset::kTraceTables) {
        st = dir.WriteTable(table, hash.hex, [&](nettrace::parquet::ByteSink* sink) { return tables.Write(table, options, sink); });
        if (!st.ok()) break;
        line.String(table);
      }
      if (blocks) std::fclose(blocks);
      // The traces table last: its file marks the trace complete (dataset_directory.h).
      const std::vector<nettrace::dataset::TraceRow> rows = {
          nettrace::dataset::TraceRowFromSummary(session.SummaryJson(), hash.hex, BaseName(args[i]), hash.bytes)};
      if (st.ok()) {
        st = dir.WriteTable("traces", hash.hex, [&](nettrace::parquet::ByteSink* sink) {
          return nettrace::dataset::WriteTracesTable(rows, options, sink);
        });
      }
      if (!st.ok()) {
        std::fprintf(stderr, "nettrace: %s\n", st.message().c_str());
        return 1;
      }
      line.String("traces").EndArray();
    }
    line.EndObject();
    std::printf("%s\n", line.Take().c_str());
  }
  return exitCode;
}

int RunParquetSample(int argc, char** argv) {
  std::vector<std::string> args;
  std::string codecName = "none";
  std::vector<std::pair<std::string, uint64_t>> numbers;
  if (!ParseArgs(argc, argv, &args, &codecName, &numbers) || args.size() != 1) {
    std::fprintf(stderr, "usage: nettrace parquet-sample OUT_DIR [--rows N] [--row-group-rows N] [--codec zstd|gzip|none]\n");
    return 2;
  }
  uint64_t rows = 100000;
  nettrace::parquet::WriterOptions options;
  for (const auto& [name, value] : numbers) {
    if (name == "rows") rows = value;
    else if (name == "row-group-rows") options.rowGroupRows = value;
    else return std::fprintf(stderr, "nettrace: unknown option --%s\n", name.c_str()), 2;
  }
  std::unique_ptr<nettrace::parquet::PageCodec> codec;
  if (nettrace::Status st = nettrace::parquet::MakeCodecByName(codecName, &codec); !st.ok()) {
    std::fprintf(stderr, "nettrace: %s\n", st.message().c_str());
    return 2;
  }
  options.codec = codec.get();
  nettrace::JsonWriter out;
  out.BeginObject();
  const auto write = [&](const char* name, auto&& fill) {
    const std::string path = args[0] + "/" + name;
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (!f) return std::fprintf(stderr, "nettrace: cannot create %s\n", path.c_str()), false;
    nettrace::parquet::FileSink sink(f, path);
    const nettrace::Status st = fill(&sink);
    if (std::fclose(f) != 0 || !st.ok()) return std::fprintf(stderr, "nettrace: %s: %s\n", path.c_str(), st.message().c_str()), false;
    out.Key(name).UInt(sink.position());
    return true;
  };
  using nettrace::parquet::ByteSink;
  uint64_t peak = 0;
  if (!write("types.parquet", [&](ByteSink* s) { return nettrace::dataset::WriteTypesSample(1000, options, s); }) ||
      !write("empty.parquet", [&](ByteSink* s) { return nettrace::dataset::WriteTypesSample(0, options, s); }) ||
      !write("big_strings.parquet", [&](ByteSink* s) { return nettrace::dataset::WriteBigStringsSample(options, s); }) ||
      !write("events.parquet", [&](ByteSink* s) { return nettrace::dataset::WriteEventsSample(rows, options, s, &peak); })) {
    return 1;
  }
  out.Key("eventsPeakBufferBytes").UInt(peak);
  out.Key("maxRssBytes").UInt(static_cast<uint64_t>(MaxRssBytes()));
  out.EndObject();
  std::printf("%s\n", out.Take().c_str());
  return 0;
}

}  // namespace nettrace_cli
