#include "cli/profile_export.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

#include "api/profile_request.h"
#include "cli/otlp_push.h"
#include "export/otlp/otlp_writer.h"
#include "export/pprof/gzip_stream.h"
#include "export/pprof/pprof_writer.h"
#include "export/profile/profile_builder.h"

namespace nettrace_cli {

namespace {

using nettrace::Status;

int Failed(const std::string& message) {
  std::fprintf(stderr, "nettrace: %s\n", message.c_str());
  return 1;
}

// Every part of `stream` into `f`; the bytes written in *size.
bool WriteParts(nettrace::ProfileStream* stream, std::FILE* f, uint64_t* size) {
  std::string part;
  *size = 0;
  for (;;) {
    part.clear();
    if (!stream->Next(&part, size_t{1} << 20)) return true;
    if (std::fwrite(part.data(), 1, part.size(), f) != part.size()) return false;
    *size += part.size();
  }
}

int WritePprof(const nettrace::ProfileData& profile, const char* outPath) {
  std::FILE* out = std::fopen(outPath, "wb");
  if (!out) return Failed(std::string("cannot create ") + outPath + ": " + std::strerror(errno));
  uint64_t written = 0;
  const std::unique_ptr<nettrace::ProfileStream> stream = nettrace::PprofStream(profile);
  const Status st = nettrace::GzipProfile(stream.get(), [&](const char* data, size_t n) {
    written += n;
    return std::fwrite(data, 1, n, out) == n;
  });
  const bool closed = std::fclose(out) == 0;
  if (!st.ok() || !closed) {
    std::remove(outPath);
    return Failed(std::string("cannot write ") + outPath + ": " + (st.ok() ? std::strerror(errno) : st.message()));
  }
  std::fprintf(stderr, "nettrace: wrote %s (%llu bytes, pprof)\n", outPath, static_cast<unsigned long long>(written));
  return 0;
}

int WriteOtlp(const nettrace::ProfileData& profile, const char* outPath, const std::string& endpoint) {
  nettrace::cli::HttpTarget target;
  if (!endpoint.empty()) {
    if (const Status st = nettrace::cli::ParseOtlpEndpoint(endpoint, &target); !st.ok()) return Failed(st.message());
  }
  std::FILE* f = outPath ? std::fopen(outPath, endpoint.empty() ? "wb" : "w+b") : std::tmpfile();
  if (!f) return Failed(std::string("cannot create ") + (outPath ? outPath : "a temporary file") + ": " + std::strerror(errno));
  uint64_t size = 0;
  const std::unique_ptr<nettrace::ProfileStream> stream = nettrace::OtlpStream(profile, "");
  if (!WriteParts(stream.get(), f, &size) || std::fflush(f) != 0) {
    std::fclose(f);
    if (outPath) std::remove(outPath);
    return Failed(std::string("cannot write ") + (outPath ? outPath : "a temporary file") + ": " + std::strerror(errno));
  }
  if (outPath) std::fprintf(stderr, "nettrace: wrote %s (%llu bytes, OTLP profiles)\n", outPath, static_cast<unsigned long long>(size));
  int code = 0;
  if (!endpoint.empty()) {
    std::rewind(f);
    std::string statusLine;
    const Status st = nettrace::cli::PostProtobuf(target, f, size, &statusLine);
    if (st.ok()) {
      std::fprintf(stderr, "nettrace: pushed %llu bytes to http://%s:%s%s: %s\n", static_cast<unsigned long long>(size),
                   target.host.c_str(), target.port.c_str(), target.path.c_str(), statusLine.c_str());
    } else {
      code = Failed(st.message());
    }
  }
  std::fclose(f);
  return code;
}

}  // namespace

bool IsProfileFormat(const std::string& format) { return format == "pprof" || format == "otlp"; }

int ExportProfile(const nettrace::TraceSession& session, const nettrace::api::Request& request, const char* outPath) {
  nettrace::ProfileData profile;
  if (const Status st = session.BuildProfile(nettrace::api::ProfileRequestOf(request), &profile); !st.ok()) return Failed(st.message());
  if (request.format == "pprof") return WritePprof(profile, outPath);
  return WriteOtlp(profile, outPath, request.otlpEndpoint);
}

}  // namespace nettrace_cli
