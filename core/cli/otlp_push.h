// core/cli — OTLP/HTTP for the native tool: POSTs an OpenTelemetry profiles request
// (export/otlp) to a collector, `Content-Type: application/x-protobuf`, as the OTLP
// specification's OTLP/HTTP binary encoding has it. Plain http:// over POSIX sockets only:
// https needs TLS, which the npm CLI has (its fetch); the native tool says so.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>

#include "base/status.h"

namespace nettrace::cli {

struct HttpTarget {
  std::string host, port = "80", path;  // path starts with '/'
};

// "http://host[:port][/path]" → target. The profiles path (/v1development/profiles) is
// appended to a path that does not end with it already, as OTLP exporters append the
// signal's path to a base endpoint.
Status ParseOtlpEndpoint(const std::string& url, HttpTarget* target);

// POSTs the `size` bytes `body` holds from its current position. On success *statusLine is
// the response's first line (a 2xx); a non-2xx answer is an error naming it and the start of
// its body.
Status PostProtobuf(const HttpTarget& target, std::FILE* body, uint64_t size, std::string* statusLine);

}  // namespace nettrace::cli
