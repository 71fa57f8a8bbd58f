#include "cli/text_export.h"

#include <cerrno>
#include <cstring>
#include <memory>
#include <vector>

#include "export/export_stream.h"

namespace nettrace_cli {

namespace {

using nettrace::Status;
using nettrace::TraceSession;

constexpr size_t kPartBytes = size_t{1} << 20;

// Counts what reaches the file; a short write ends the export.
struct Sink {
  std::FILE* f;
  unsigned long long written = 0;
  bool Put(const std::string& part) {
    written += part.size();
    return std::fwrite(part.data(), 1, part.size(), f) == part.size();
  }
};

bool WriteStream(nettrace::ExportStream* stream, Sink* sink) {
  std::string part;
  for (;;) {
    part.clear();
    if (!stream->Next(&part, kPartBytes)) return true;
    if (!sink->Put(part)) return false;
  }
}

// The Chrome trace with payload args, written a part at a time as the engine re-reads the
// blocks (TraceSession::ExportChromeTraceWithArgs), then the newline the CLI's outputs end with.
Status WriteChrome(TraceSession& session, const TraceSession::BlockReader& read, Sink* sink, bool* written) {
  *written = true;
  const Status read_status =
      session.ExportChromeTraceWithArgs(read, [&](const std::string& part) { return *written = sink->Put(part); });
  *written = *written && sink->Put("\n");
  return read_status;
}

std::unique_ptr<nettrace::ExportStream> StreamOf(const TraceSession& session, const TextExport& what) {
  if (what.format == "speedscope" && what.speedscopeSampled) return session.ExportSpeedscopeStream(what.query, what.name);
  if (what.format == "speedscope") return session.ExportSpeedscopeEventedStream(what.query, what.name);
  if (what.format == "stacks-csv") return session.ExportStacksCsvStream();
  return session.ExportEventsCsvStream(what.stackText);
}

}  // namespace

int ExportText(TraceSession& session, const TextExport& what, const TraceSession::BlockReader& read, const char* outPath) {
  std::FILE* f = std::fopen(outPath, "wb");
  if (!f) {
    std::fprintf(stderr, "nettrace: cannot create %s: %s\n", outPath, std::strerror(errno));
    return 1;
  }
  Sink sink{f};
  bool written = true;
  Status read_status = Status::Ok();
  if (what.format == "chrome") {
    read_status = WriteChrome(session, read, &sink, &written);
  } else {
    const std::unique_ptr<nettrace::ExportStream> stream = StreamOf(session, what);
    // Speedscope is one JSON document: the newline the whole-string export ended with.
    written = WriteStream(stream.get(), &sink) && (what.format != "speedscope" || sink.Put("\n"));
  }
  const bool closed = std::fclose(f) == 0;
  if (!read_status.ok() || !written || !closed) {
    std::remove(outPath);
    if (!read_status.ok()) std::fprintf(stderr, "nettrace: %s: %s\n", what.tracePath.c_str(), read_status.ToString().c_str());
    else std::fprintf(stderr, "nettrace: cannot write %s: %s\n", outPath, std::strerror(errno));
    return 1;
  }
  std::fprintf(stderr, "nettrace: wrote %s (%llu bytes)\n", outPath, sink.written);
  return 0;
}

}  // namespace nettrace_cli
