// core/export/pprof — a profile document gzipped as it is written, a part at a time (pprof's
// profile.pb.gz). zlib is the system's, linked into the native build only: Emscripten 3.1.6
// has no zlib port offline, so the wasm engine hands the raw protobuf to JS, which gzips it
// (Node's zlib, the browser's CompressionStream). Both decompress to the same bytes.
#pragma once

#include <cstddef>
#include <functional>

#include "base/status.h"
#include "export/profile/profile_stream.h"

namespace nettrace {

// Whether this build has zlib (native builds do where zlib1g-dev is installed).
bool GzipAvailable();

// Pulls every part of `stream` (at most `budget` bytes at a time), deflates them into one gzip
// member (no name, mtime 0: the bytes carry no time) and hands the compressed bytes to
// `write`, which returns false when it cannot take them.
Status GzipProfile(ProfileStream* stream, const std::function<bool(const char* data, size_t size)>& write,
                   size_t budget = size_t{1} << 20);

}  // namespace nettrace
