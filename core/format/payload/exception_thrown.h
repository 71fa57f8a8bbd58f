// core/format/payload — ExceptionThrown's (runtime event 80, "Exception/Start") type and
// message read in place, as DecodePayload's template decoding gives them. The exception views
// and the summary read these two strings of every throw; decoding the whole payload for them
// (a vector of fields, a heap string each) was most of the work of reading an exception-heavy
// trace.
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "format/records.h"

namespace nettrace {

// *type and *message as TextField(DecodePayload(...), "ExceptionType"/"ExceptionMessage")
// would give them ("" for a field the payload does not have); false when DecodePayload must
// answer: not ExceptionThrown, metadata that describes its own fields, a template whose first
// two fields are not these strings, or a string without its terminator. message may be null
// (the type alone is read).
bool ReadExceptionThrownStrings(const EventMetadata& m, std::span<const uint8_t> payload, uint32_t pointerSize,
                                std::string* type, std::string* message);

}  // namespace nettrace
