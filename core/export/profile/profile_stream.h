// core/export/profile — a profile document written a part at a time: the caller asks for the
// next part, writes it where it goes (a file, a gzip stream, a JS stream) and asks again, so
// memory holds one part and the profile, never the whole document. The contract is the one
// every export stream keeps (Next appends whole items until it has appended `budget` bytes).
#pragma once

#include <cstddef>
#include <string>

namespace nettrace {

class ProfileStream {
 public:
  virtual ~ProfileStream() = default;
  // Appends the next part to *out (whole items, at least `budget` bytes unless the document
  // ends first). @returns false, appending nothing, once the document is complete.
  virtual bool Next(std::string* out, size_t budget) = 0;
};

// The whole document at once (tests, small profiles).
inline std::string DrainProfile(ProfileStream* stream) {
  std::string out;
  while (stream->Next(&out, size_t{1} << 20)) {
  }
  return out;
}

}  // namespace nettrace
