#include "base/status.h"

#include <cstdio>

namespace nettrace {

const char* ErrorCodeName(ErrorCode code) {
  switch (code) {
    case ErrorCode::kOk: return "ok";
    case ErrorCode::kTruncated: return "truncated";
    case ErrorCode::kBadMagic: return "bad-magic";
    case ErrorCode::kUnsupportedVersion: return "unsupported-version";
    case ErrorCode::kUnsupportedFormat: return "unsupported-format";
    case ErrorCode::kCorrupt: return "corrupt";
    case ErrorCode::kBadReference: return "bad-reference";
    case ErrorCode::kLimitExceeded: return "limit-exceeded";
    case ErrorCode::kInvalidArgument: return "invalid-argument";
  }
  return "unknown";
}

const std::string& Status::message() const {
  static const std::string kNone;
  return detail_ ? detail_->message : kNone;
}

std::string Status::ToString() const {
  if (ok()) return "ok";
  std::string out = ErrorCodeName(code());
  if (const uint64_t offset_ = offset(); offset_ != kNoOffset) {
    char buf[64];
    std::snprintf(buf, sizeof buf, " at offset %llu (0x%llx)", static_cast<unsigned long long>(offset_),
                  static_cast<unsigned long long>(offset_));
    out += buf;
  }
  out += ": ";
  out += message();
  return out;
}

}  // namespace nettrace
