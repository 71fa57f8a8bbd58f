// core/base — errors as values. No exceptions anywhere in core/ (they are off under
// Emscripten's default build), so every fallible call returns a Status that names the
// byte offset where the input went wrong, and what was wrong there.
#pragma once

#include <cstdint>
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
  Status() = default;
  static Status Ok() { return Status(); }
  static Status Error(ErrorCode code, uint64_t offset, std::string message) {
    Status s;
    s.code_ = code;
    s.offset_ = offset;
    s.message_ = std::move(message);
    return s;
  }

  bool ok() const { return code_ == ErrorCode::kOk; }
  ErrorCode code() const { return code_; }
  // Absolute file offset of the fault, or kNoOffset when it is not about a position.
  uint64_t offset() const { return offset_; }
  const std::string& message() const { return message_; }
  // "corrupt at offset 4660 (0x1234): <message>"
  std::string ToString() const;

 private:
  ErrorCode code_ = ErrorCode::kOk;
  uint64_t offset_ = kNoOffset;
  std::string message_;
};

#define NETTRACE_RETURN_IF_ERROR(expr)           \
  do {                                           \
    ::nettrace::Status status_macro_ = (expr);   \
    if (!status_macro_.ok()) return status_macro_; \
  } while (0)

}  // namespace nettrace
