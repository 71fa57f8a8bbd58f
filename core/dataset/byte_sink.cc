// core/dataset — the file sink (the others are inline).
#include "dataset/byte_sink.h"

#include <cerrno>
#include <cstring>

namespace nettrace::parquet {

Status FileSink::Write(const uint8_t* data, size_t size) {
  if (size > 0 && std::fwrite(data, 1, size, file_) != size) {
    return Status::Error(ErrorCode::kInvalidArgument, position_, "cannot write " + path_ + ": " + std::strerror(errno));
  }
  position_ += size;
  return Status::Ok();
}

}  // namespace nettrace::parquet
