#include "format/trace_type.h"

#include <algorithm>
#include <cstring>

namespace nettrace {

namespace {
constexpr uint8_t kMagic[] = {'N', 'e', 't', 't', 'r', 'a', 'c', 'e'};
// NetPerf: int32 20 then "!FastSerialization.1" at offset 0.
constexpr uint8_t kNetPerfStart[] = {20, 0, 0, 0, '!', 'F', 'a', 's', 't', 'S', 'e', 'r'};

bool PrefixMatches(std::span<const uint8_t> bytes, const uint8_t* pattern, size_t n) {
  size_t m = std::min(bytes.size(), n);
  // An empty span may have a null data(): memcmp must not see it, even for 0 bytes.
  return m == 0 || std::memcmp(bytes.data(), pattern, m) == 0;
}
}  // namespace

const char* TraceTypeName(TraceType type) {
  switch (type) {
    case TraceType::kNeedMoreData: return "need-more-data";
    case TraceType::kNetTraceFastSerialization: return "NetTrace (FastSerialization, v4/v5)";
    case TraceType::kNetTraceBlocks: return "NetTrace (blocks, v6+)";
    case TraceType::kNetPerf: return "NetPerf";
    case TraceType::kUnknown: return "unknown";
  }
  return "unknown";
}

TraceType DetectTraceType(std::span<const uint8_t> b) {
  bool magicSoFar = PrefixMatches(b, kMagic, sizeof kMagic);
  bool netPerfSoFar = PrefixMatches(b, kNetPerfStart, sizeof kNetPerfStart);
  if (!magicSoFar && !netPerfSoFar) return TraceType::kUnknown;
  if (b.size() < kTraceTypeProbeSize) return TraceType::kNeedMoreData;
  if (netPerfSoFar) return TraceType::kNetPerf;
  uint32_t next;
  std::memcpy(&next, b.data() + 8, 4);
  // v4/v5: length of "!FastSerialization.1"; v6+: Reserved, always 0.
  if (next == 20) return TraceType::kNetTraceFastSerialization;
  if (next == 0) return TraceType::kNetTraceBlocks;
  return TraceType::kUnknown;
}

}  // namespace nettrace
