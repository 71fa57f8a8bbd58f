// tests/fuzz — how read_fuzzer and convert_fuzzer turn a fuzz input into a trace and a
// chunking, and how they feed it. Two input forms:
//
//   * a raw trace (its first bytes are a trace magic DetectTraceType recognises): fed
//     whole, so any .nettrace file (a user's bug report, tests/fuzz/regressions/) runs as
//     it is;
//   * a 2-byte control header, then the trace: chunk size = 1 + uint16 LE (1…65,536
//     bytes), so the fuzzer explores chunk boundaries the way a browser's Blob.slice()
//     or the CLI's fread delivers them (style.md §2).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>

#include "format/trace_type.h"

namespace nettrace::fuzz {

struct FuzzTrace {
  std::span<const uint8_t> bytes;  // the trace itself
  size_t chunk = 0;                // bytes per PushChunk; 0 = whole
};

inline FuzzTrace SplitFuzzInput(const uint8_t* data, size_t size) {
  std::span<const uint8_t> all(data, size);
  const TraceType type = DetectTraceType(all.first(std::min(size, kTraceTypeProbeSize)));
  if (size < 2 || (type != TraceType::kUnknown && type != TraceType::kNeedMoreData)) return {all, 0};
  const size_t chunk = 1 + (static_cast<size_t>(data[0]) | static_cast<size_t>(data[1]) << 8);
  return {all.subspan(2), chunk};
}

// Feeds `t` to anything with PushChunk-like `push(ptr, n) -> Status` and `finish() ->
// Status`, stopping at the first error, which is returned (Ok when both succeed).
template <typename Push, typename Finish>
auto FeedInChunks(const FuzzTrace& t, Push&& push, Finish&& finish) -> decltype(finish()) {
  const size_t chunk = t.chunk == 0 ? std::max<size_t>(t.bytes.size(), 1) : t.chunk;
  for (size_t at = 0; at < t.bytes.size(); at += chunk) {
    auto s = push(t.bytes.data() + at, std::min(chunk, t.bytes.size() - at));
    if (!s.ok()) return s;
  }
  return finish();
}

}  // namespace nettrace::fuzz
