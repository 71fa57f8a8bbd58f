// core/dataset — where a Parquet file's bytes go, in order, once: a file on disk (native
// CLI), a growing buffer (tests, the wasm build handing bytes to JS), or any callback. The
// writer never seeks back, so a sink can be a pipe or a JS stream.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "base/status.h"

namespace nettrace::parquet {

class ByteSink {
 public:
  virtual ~ByteSink() = default;
  virtual Status Write(const uint8_t* data, size_t size) = 0;
  // Bytes written so far: the file offset of the next byte (page and footer offsets).
  uint64_t position() const { return position_; }

 protected:
  uint64_t position_ = 0;
};

class MemorySink : public ByteSink {
 public:
  Status Write(const uint8_t* data, size_t size) override {
    bytes_.insert(bytes_.end(), data, data + size);
    position_ += size;
    return Status::Ok();
  }
  const std::vector<uint8_t>& bytes() const { return bytes_; }
  std::vector<uint8_t> Take() { return std::move(bytes_); }

 private:
  std::vector<uint8_t> bytes_;
};

// Hands each write to a function (the wasm binding: a JS callback that appends to a file).
class CallbackSink : public ByteSink {
 public:
  using Fn = std::function<bool(const uint8_t* data, size_t size)>;
  explicit CallbackSink(Fn fn) : fn_(std::move(fn)) {}
  Status Write(const uint8_t* data, size_t size) override {
    if (!fn_(data, size)) return Status::Error(ErrorCode::kInvalidArgument, position_, "the output refused a write");
    position_ += size;
    return Status::Ok();
  }

 private:
  Fn fn_;
};

// A stdio file opened by the caller; errors name the path.
class FileSink : public ByteSink {
 public:
  FileSink(std::FILE* file, std::string path) : file_(file), path_(std::move(path)) {}
  Status Write(const uint8_t* data, size_t size) override;

 private:
  std::FILE* file_;
  std::string path_;
};

}  // namespace nettrace::parquet
