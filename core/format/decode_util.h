// core/format — small helpers shared by the block decoders: turning a failed cursor read
// into an error that names the offset and the structure that did not fit.
#pragma once

#include <string>

#include "base/status.h"
#include "io/byte_cursor.h"

namespace nettrace {

// A structure inside a complete block that claims more bytes than the block holds.
inline Status Overrun(const ByteCursor& c, const std::string& what) {
  return Status::Error(ErrorCode::kCorrupt, c.fileOffset(), what + " runs past the end of its block");
}

inline Status CorruptAt(uint64_t offset, const std::string& what) {
  return Status::Error(ErrorCode::kCorrupt, offset, what);
}

}  // namespace nettrace
