#include "analysis/utc_time.h"

#include "base/civil_time.h"

#include <cstdint>
#include <cstdio>

namespace nettrace {

double SyncUnixMs(const SystemTime& t) {
  int64_t days = DaysFromCivil(t.year, static_cast<unsigned>(t.month), static_cast<unsigned>(t.day));
  return ((days * 24 + t.hour) * 60 + t.minute) * 60000.0 + t.second * 1000.0 + t.millisecond;
}

// ISO 8601 UTC with microseconds, from Unix milliseconds.
std::string IsoUtc(double unixMs) {
  int64_t totalUs = static_cast<int64_t>(unixMs * 1000.0 + (unixMs >= 0 ? 0.5 : -0.5));
  int64_t days = totalUs / 86400000000LL;
  int64_t rem = totalUs % 86400000000LL;
  if (rem < 0) rem += 86400000000LL, --days;
  int64_t y;
  unsigned m, d;
  CivilFromDays(days, &y, &m, &d);
  char buf[48];
  std::snprintf(buf, sizeof buf, "%04lld-%02u-%02uT%02lld:%02lld:%02lld.%06lldZ", static_cast<long long>(y), m, d,
                static_cast<long long>(rem / 3600000000LL), static_cast<long long>(rem / 60000000LL % 60),
                static_cast<long long>(rem / 1000000LL % 60), static_cast<long long>(rem % 1000000LL));
  return buf;
}

}  // namespace nettrace
