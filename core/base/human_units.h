// core/base — amounts in the words people read, for the CLI's human text (never for JSON,
// whose fields keep their raw numbers): bytes in B, KB, MB or GB, with decimal multiples
// (1 KB = 1,000 bytes, as dotnet-counters' MB). The page and the npm CLI write the same with
// web/src/ui/units.ts formatBytes.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>

namespace nettrace {

// "999 B", "102.4 KB", "1.9 MB", "2.50 GB".
inline std::string FormatBytes(uint64_t bytes) {
  char text[32];
  const double b = static_cast<double>(bytes);
  if (bytes < 1000) std::snprintf(text, sizeof text, "%llu B", static_cast<unsigned long long>(bytes));
  else if (bytes < 999'950) std::snprintf(text, sizeof text, "%.1f KB", b / 1e3);
  else if (bytes < 999'950'000) std::snprintf(text, sizeof text, "%.1f MB", b / 1e6);
  else std::snprintf(text, sizeof text, "%.2f GB", b / 1e9);
  return text;
}

}  // namespace nettrace
