// core/analysis — the two forms the event views (runtime_views.h) are written in, and the
// small helpers they share.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace nettrace {

enum class ViewFormat : uint8_t { kJson, kCsv };

// One CSV field (RFC 4180): quoted when it holds a comma, quote or line break.
inline void AppendCsvField(std::string_view s, std::string* out) {
  if (s.find_first_of(",\"\r\n") == std::string_view::npos) {
    out->append(s);
    return;
  }
  out->push_back('"');
  for (char c : s) {
    if (c == '"') out->push_back('"');
    out->push_back(c);
  }
  out->push_back('"');
}

// `s` cut to at most `maxBytes` bytes at a UTF-8 character boundary: kept strings (messages,
// quantile lists) stay bounded whatever a hostile payload holds.
inline std::string Clip(const std::string& s, size_t maxBytes) {
  if (s.size() <= maxBytes) return s;
  size_t end = maxBytes;
  while (end > 0 && (static_cast<unsigned char>(s[end]) & 0xC0) == 0x80) --end;  // not inside a character
  return s.substr(0, end);
}

// Nearest-rank percentile (the smallest value with at least p of the values at or below
// it) of values sorted ascending; 0 for none. No interpolation: every percentile shown is
// a duration that really occurred.
inline uint64_t NearestRank(const std::vector<uint64_t>& sorted, double p) {
  if (sorted.empty()) return 0;
  size_t rank = static_cast<size_t>(p * static_cast<double>(sorted.size()) + 0.999999999);
  rank = std::clamp<size_t>(rank, 1, sorted.size());
  return sorted[rank - 1];
}

}  // namespace nettrace
