// core/format — detect the container format in one place, from bytes, never from a file
// name. NetTrace v4/v5 and v6 share the "Nettrace" magic; what follows tells them apart
// (corpus MANIFEST "How the format labels above were assigned"): v4/v5 continue with the
// int32 20 that prefixes "!FastSerialization.1", v6 with Reserved = 0 and the versions.
// NetPerf (≤ v3) has no magic and starts straight with "!FastSerialization.1".
#pragma once

#include <cstdint>
#include <span>

namespace nettrace {

enum class TraceType : uint8_t {
  kNeedMoreData,
  kNetTraceFastSerialization,  // NetTrace v4/v5
  kNetTraceBlocks,             // NetTrace v6 and later majors
  kNetPerf,                    // pre-NetTrace, FastSerialization without the magic
  kUnknown,
};

const char* TraceTypeName(TraceType type);

// Bytes needed to decide: "Nettrace" + 4.
inline constexpr size_t kTraceTypeProbeSize = 12;

// Looks at the first bytes of a file. With fewer than kTraceTypeProbeSize bytes it
// answers kNeedMoreData unless the bytes already rule every format out.
TraceType DetectTraceType(std::span<const uint8_t> firstBytes);

}  // namespace nettrace
