// core/base — proleptic Gregorian calendar arithmetic (Howard Hinnant's days_from_civil /
// civil_from_days), shared by everything that prints trace times as UTC. No C library
// time zone machinery: identical results natively and in wasm.
#pragma once

#include <cstdint>

namespace nettrace {

// Days since 1970-01-01 of y-m-d (month 1-12).
int64_t DaysFromCivil(int64_t y, unsigned m, unsigned d);
// The date of a day count since 1970-01-01.
void CivilFromDays(int64_t days, int64_t* y, unsigned* m, unsigned* d);
bool IsLeapYear(int64_t y);
unsigned DaysInMonth(int64_t y, unsigned m);

}  // namespace nettrace
