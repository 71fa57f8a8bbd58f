#include "export/pprof/gzip_stream.h"

#include <string>
#include <vector>

#if defined(NETTRACE_HAVE_ZLIB)
#include <zlib.h>
#endif

namespace nettrace {

namespace {
Status GzipError(const char* what) { return Status::Error(ErrorCode::kInvalidArgument, kNoOffset, what); }
}  // namespace

bool GzipAvailable() {
#if defined(NETTRACE_HAVE_ZLIB)
  return true;
#else
  return false;
#endif
}

#if defined(NETTRACE_HAVE_ZLIB)
Status GzipProfile(ProfileStream* stream, const std::function<bool(const char* data, size_t size)>& write,
                   size_t budget) {
  z_stream z{};
  // windowBits 15 + 16: a gzip header and trailer around the deflate stream.
  if (deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
    return GzipError("zlib: deflateInit2 failed");
  std::string part;
  std::vector<unsigned char> buffer(size_t{1} << 16);
  Status status;
  for (bool more = true; status.ok();) {
    part.clear();
    more = stream->Next(&part, budget);
    z.next_in = reinterpret_cast<Bytef*>(part.data());
    z.avail_in = static_cast<uInt>(part.size());
    const int flush = more ? Z_NO_FLUSH : Z_FINISH;
    int rc = Z_OK;
    do {
      z.next_out = buffer.data();
      z.avail_out = static_cast<uInt>(buffer.size());
      rc = deflate(&z, flush);
      const size_t produced = buffer.size() - z.avail_out;
      if (rc == Z_STREAM_ERROR) status = GzipError("zlib: deflate failed");
      else if (produced && !write(reinterpret_cast<const char*>(buffer.data()), produced))
        status = GzipError("the output refused a write");
    } while (status.ok() && (z.avail_out == 0 || (flush == Z_FINISH && rc != Z_STREAM_END)));
    if (!more) break;
  }
  deflateEnd(&z);
  return status;
}
#else
Status GzipProfile(ProfileStream*, const std::function<bool(const char*, size_t)>&, size_t) {
  return GzipError("this build has no zlib: gzip the raw profile elsewhere");
}
#endif

}  // namespace nettrace
