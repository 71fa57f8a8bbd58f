// core/analysis — calendar arithmetic for showing trace times in UTC, without the C
// library's time zone machinery (identical on every platform, wasm included).
#pragma once

#include <string>

#include "format/records.h"

namespace nettrace {

// A SYSTEMTIME (the trace's SyncTimeUTC) as Unix milliseconds.
double SyncUnixMs(const SystemTime& t);
// ISO 8601 UTC with microseconds, e.g. 2020-05-22T06:11:38.688603Z.
std::string IsoUtc(double unixMs);

}  // namespace nettrace
