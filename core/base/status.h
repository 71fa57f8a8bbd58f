// core/base — errors as values. No exceptions anywhere in core/ (they are off under
// Emscripten's default build), so every fallible call returns a Status that names the
// byte offset where the input went wrong, and what was wrong there.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>

namespace nettrace {

enum class ErrorCode : uint8_t {
  kOk = 0,
  kTruncated,           // the input ended inside a structure
  kBadMagic,            // not a trace this reader understands
  kUnsupportedVersion,  // a version newer than we read (NetTrace major > 6)
  kUnsupportedFormat,   // a known but unsupported format (none at present; kept for API stability)
  kCorrupt,             // a value that cannot be right (sizes, tags, lengths)
  kBadReference,        // an id that refers to nothing (thread, metadata, stack)
  kLimitExceeded,       // a size beyond what we accept (hostile input protection)
  kInvalidArgument,     // misuse of an API by the caller, not a file problem
};

const char* ErrorCodeName(ErrorCode code);

inline constexpr uint64_t kNoOffset = ~uint64_t{0};

class [[nodiscard]] Status {
 public:
  // An ok Status is one null pointer: every event passes several up the pipeline, so
  // making, checking and dropping one must cost next to nothing; an error's code, offset
  // and message live on the heap (errors are rare).
  Status() = default;
  Status(const Status& o) : detail_(o.detail_ ? std::make_unique<Detail>(*o.detail_) : nullptr) {}
  Status& operator=(const Status& o) {
    if (this != &o) detail_ = o.detail_ ? std::make_unique<Detail>(*o.detail_) : nullptr;
    return *this;
  }
  Status(Status&&) noexcept = default;
  Status& operator=(Status&&) noexcept = default;
  static Status Ok() { return Status(); }
  static Status Error(ErrorCode code, uint64_t offset, std::string message) {
    Status s;
    s.detail_ = std::make_unique<Detail>(Detail{code, offset, std::move(message)});
    return s;
  }

  bool ok() const { return detail_ == nullptr; }
  ErrorCode code() const { return detail_ ? detail_->code : ErrorCode::kOk; }
  // Absolute file offset of the fault, or kNoOffset when it is not about a position.
  uint64_t offset() const { return detail_ ? detail_->offset : kNoOffset; }
  const std::string& message() const;  // empty when ok
  // "corrupt at offset 4660 (0x1234): <message>"
  std::string ToString() const;

 private:
  struct Detail {
    ErrorCode code;
    uint64_t offset;
    std::string message;
  };
  std::unique_ptr<Detail> detail_;
};

#define NETTRACE_RETURN_IF_ERROR(expr)           \
  do {                                           \
    ::nettrace::Status status_macro_ = (expr);   \
    if (!status_macro_.ok()) return status_macro_; \
  } while (0)

}  // namespace nettrace
