// core/dataset — the page codecs. The system-library ones compile only where CMake found
// the library (never under Emscripten 3.1.6, which has no zlib/zstd port offline).
#include "dataset/page_codec.h"

#include <utility>

#if defined(NETTRACE_HAVE_ZSTD)
#include <zstd.h>
#endif
#if defined(NETTRACE_HAVE_ZLIB)
#include <zlib.h>
#endif

namespace nettrace::parquet {
namespace {

class CallbackCodec : public PageCodec {
 public:
  CallbackCodec(Codec codec, CompressFunction fn) : codec_(codec), fn_(std::move(fn)) {}
  Codec codec() const override { return codec_; }
  Status Compress(const uint8_t* in, size_t n, std::vector<uint8_t>* out) const override {
    out->clear();
    if (!fn_(in, n, out)) return Status::Error(ErrorCode::kInvalidArgument, kNoOffset, "the page compressor failed");
    return Status::Ok();
  }

 private:
  Codec codec_;
  CompressFunction fn_;
};

#if defined(NETTRACE_HAVE_ZSTD)
// One compression context reused for every page (ZSTD_compressCCtx resets it per call);
// single-threaded, so the output depends only on the input, the level and libzstd's version.
class ZstdCodec : public PageCodec {
 public:
  explicit ZstdCodec(int level) : level_(level), ctx_(ZSTD_createCCtx()) {}
  ~ZstdCodec() override { ZSTD_freeCCtx(ctx_); }
  Codec codec() const override { return Codec::kZstd; }
  Status Compress(const uint8_t* in, size_t n, std::vector<uint8_t>* out) const override {
    out->resize(ZSTD_compressBound(n));
    const size_t written = ZSTD_compressCCtx(ctx_, out->data(), out->size(), in, n, level_);
    if (ZSTD_isError(written)) {
      return Status::Error(ErrorCode::kInvalidArgument, kNoOffset, std::string("zstd: ") + ZSTD_getErrorName(written));
    }
    out->resize(written);
    return Status::Ok();
  }

 private:
  int level_;
  ZSTD_CCtx* ctx_;
};
#endif

#if defined(NETTRACE_HAVE_ZLIB)
// deflate with windowBits 15 + 16: zlib writes a gzip header with no name and mtime 0, so
// the bytes carry no time (Compression.md §GZIP: one member per page).
class GzipCodec : public PageCodec {
 public:
  explicit GzipCodec(int level) : level_(level) {}
  Codec codec() const override { return Codec::kGzip; }
  Status Compress(const uint8_t* in, size_t n, std::vector<uint8_t>* out) const override {
    z_stream z{};
    if (deflateInit2(&z, level_, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
      return Status::Error(ErrorCode::kInvalidArgument, kNoOffset, "zlib: deflateInit2 failed");
    }
    out->resize(deflateBound(&z, static_cast<uLong>(n)));
    z.next_in = const_cast<Bytef*>(in);
    z.avail_in = static_cast<uInt>(n);
    z.next_out = out->data();
    z.avail_out = static_cast<uInt>(out->size());
    const int rc = deflate(&z, Z_FINISH);
    out->resize(z.total_out);
    deflateEnd(&z);
    if (rc != Z_STREAM_END) return Status::Error(ErrorCode::kInvalidArgument, kNoOffset, "zlib: deflate did not finish");
    return Status::Ok();
  }

 private:
  int level_;
};
#endif

}  // namespace

std::unique_ptr<PageCodec> MakeZstdCodec(int level) {
#if defined(NETTRACE_HAVE_ZSTD)
  return std::make_unique<ZstdCodec>(level);
#else
  (void)level;
  return nullptr;
#endif
}

std::unique_ptr<PageCodec> MakeGzipCodec(int level) {
#if defined(NETTRACE_HAVE_ZLIB)
  return std::make_unique<GzipCodec>(level);
#else
  (void)level;
  return nullptr;
#endif
}

std::unique_ptr<PageCodec> MakeCallbackCodec(Codec codec, CompressFunction compress) {
  return std::make_unique<CallbackCodec>(codec, std::move(compress));
}

Status MakeCodecByName(const std::string& name, std::unique_ptr<PageCodec>* codec) {
  codec->reset();
  if (name == "none" || name == "uncompressed") return Status::Ok();
  // Levels: zstd 3 is libzstd's default and Athena's; gzip 6 is zlib's default.
  if (name == "zstd") *codec = MakeZstdCodec(3);
  else if (name == "gzip") *codec = MakeGzipCodec(6);
  else return Status::Error(ErrorCode::kInvalidArgument, kNoOffset, "unknown codec '" + name + "' (zstd, gzip or none)");
  if (!*codec) return Status::Error(ErrorCode::kInvalidArgument, kNoOffset, "this build has no " + name + " library");
  return Status::Ok();
}

}  // namespace nettrace::parquet
