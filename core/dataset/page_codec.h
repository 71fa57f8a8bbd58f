// core/dataset — how a page's bytes are compressed (Compression.md: the page body goes to
// the codec as is, no framing). One interface, three kinds of implementation:
//   - none (UNCOMPRESSED): always available, the wasm build's default;
//   - system libraries linked by the native build (libzstd, zlib from Debian's archive),
//     present only when CMake found them (NETTRACE_HAVE_ZSTD / NETTRACE_HAVE_ZLIB);
//   - a caller-supplied function (the wasm binding hands in Node's zlib.gzipSync), so the
//     engine never carries a compressor's sources.
// docs/parquet-writer.md "Compression" has the measurements behind the default.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "base/status.h"
#include "dataset/parquet_schema.h"

namespace nettrace::parquet {

class PageCodec {
 public:
  virtual ~PageCodec() = default;
  virtual Codec codec() const = 0;
  // Replaces *out with the compressed form of in[0..n). Must be deterministic: the same
  // input gives the same bytes (a re-run rewrites identical files).
  virtual Status Compress(const uint8_t* in, size_t n, std::vector<uint8_t>* out) const = 0;
};

// libzstd at `level` (Zstandard, RFC 8878), or nullptr when this build has no libzstd.
std::unique_ptr<PageCodec> MakeZstdCodec(int level);
// zlib's deflate in a gzip wrapper (RFC 1952; one member per page) at `level`, or nullptr
// when this build has no zlib.
std::unique_ptr<PageCodec> MakeGzipCodec(int level);

// A codec whose work is done by `compress` (returns false on failure), declared as `codec`.
using CompressFunction = std::function<bool(const uint8_t* in, size_t n, std::vector<uint8_t>* out)>;
std::unique_ptr<PageCodec> MakeCallbackCodec(Codec codec, CompressFunction compress);

// "zstd", "gzip", "none" → the codec; an error naming what this build offers otherwise.
// *codec is left null for "none" (the writer then writes UNCOMPRESSED pages).
Status MakeCodecByName(const std::string& name, std::unique_ptr<PageCodec>* codec);

}  // namespace nettrace::parquet
