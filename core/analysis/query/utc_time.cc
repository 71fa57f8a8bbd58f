#include "analysis/query/utc_time.h"

#include "base/civil_time.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>

namespace nettrace {

namespace {
// Years 1-9999, the range of .NET's DateTime (and of a four-digit ISO year): Unix ms of
// 0001-01-01T00:00:00Z and of 10000-01-01T00:00:00Z.
constexpr double kMinUnixMs = -62135596800000.0;
constexpr double kEndUnixMs = 253402300800000.0;
}  // namespace

double SyncUnixMs(const SystemTime& t) {
  const bool valid = t.year >= 1 && t.year <= 9999 && t.month >= 1 && t.month <= 12 && t.day >= 1 &&
                     static_cast<unsigned>(t.day) <= DaysInMonth(t.year, static_cast<unsigned>(t.month)) && t.hour >= 0 && t.hour < 24 &&
                     t.minute >= 0 && t.minute < 60 && t.second >= 0 && t.second < 60 && t.millisecond >= 0 &&
                     t.millisecond < 1000;
  if (!valid) return std::numeric_limits<double>::quiet_NaN();
  int64_t days = DaysFromCivil(t.year, static_cast<unsigned>(t.month), static_cast<unsigned>(t.day));
  return ((days * 24 + t.hour) * 60 + t.minute) * 60000.0 + t.second * 1000.0 + t.millisecond;
}

// Checked before any conversion to an integer: casting a double outside int64's range is
// undefined behaviour, and a corrupt trace can put its times anywhere.
std::optional<std::string> IsoUtc(double unixMs) {
  if (!std::isfinite(unixMs) || unixMs < kMinUnixMs || unixMs >= kEndUnixMs) return std::nullopt;
  int64_t totalUs = static_cast<int64_t>(std::floor(unixMs * 1000.0 + 0.5));
  int64_t days = totalUs / 86400000000LL;
  int64_t rem = totalUs % 86400000000LL;
  if (rem < 0) rem += 86400000000LL, --days;
  int64_t y;
  unsigned m, d;
  CivilFromDays(days, &y, &m, &d);
  if (y > 9999) return std::nullopt;  // the last half microsecond of 9999 rounds up
  char buf[48];
  std::snprintf(buf, sizeof buf, "%04lld-%02u-%02uT%02lld:%02lld:%02lld.%06lldZ", static_cast<long long>(y), m, d,
                static_cast<long long>(rem / 3600000000LL), static_cast<long long>(rem / 60000000LL % 60),
                static_cast<long long>(rem / 1000000LL % 60), static_cast<long long>(rem % 1000000LL));
  return std::string(buf);
}

void WriteUtc(JsonWriter& w, double unixMs) {
  if (std::optional<std::string> iso = IsoUtc(unixMs)) w.String(*iso);
  else w.Null();
}

}  // namespace nettrace
