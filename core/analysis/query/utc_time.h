// core/analysis — calendar arithmetic for showing trace times in UTC, without the C
// library's time zone machinery (identical on every platform, wasm included).
#pragma once

#include <optional>
#include <string>

#include "base/json_writer.h"
#include "format/records.h"

namespace nettrace {

// A SYSTEMTIME (the trace's SyncTimeUTC) as Unix milliseconds; NaN when its fields are
// not a date and time of years 1-9999 (a corrupt trace header), which IsoUtc refuses.
double SyncUnixMs(const SystemTime& t);
// ISO 8601 UTC with microseconds, e.g. 2020-05-22T06:11:38.688603Z; nullopt for a time
// that is not finite or outside years 1-9999 (shown as null, never made up).
std::optional<std::string> IsoUtc(double unixMs);
// IsoUtc as a JSON value: the string, or null when out of range.
void WriteUtc(JsonWriter& w, double unixMs);

}  // namespace nettrace
