#include "analysis/utc_time.h"

#include <cstdint>
#include <cstdio>

namespace nettrace {

namespace {

// Days from 1970-01-01 to y-m-d (proleptic Gregorian; Howard Hinnant's algorithm).
int64_t DaysFromCivil(int64_t y, unsigned m, unsigned d) {
  y -= m <= 2;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const unsigned yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<int64_t>(doe) - 719468;
}

void CivilFromDays(int64_t z, int64_t* y, unsigned* m, unsigned* d) {
  z += 719468;
  const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const unsigned doe = static_cast<unsigned>(z - era * 146097);
  const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const unsigned mp = (5 * doy + 2) / 153;
  *d = doy - (153 * mp + 2) / 5 + 1;
  *m = mp < 10 ? mp + 3 : mp - 9;
  *y = static_cast<int64_t>(yoe) + era * 400 + (*m <= 2);
}

// Sync time as Unix milliseconds.
}  // namespace

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
