// core/dataset — reads single values out of the engine's Summary JSON (README "Summary
// JSON") by path, for the `traces` table: the summary is the engine's stable, documented
// account of a trace, so the table follows it rather than the engine's internals.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>

namespace nettrace::dataset {

// The value at `path` (object keys from the root) as its JSON text (a string keeps its
// quotes), or nullopt when a key is missing or the document is malformed before it.
std::optional<std::string_view> JsonAt(std::string_view json, std::initializer_list<std::string_view> path);

// The value at path as an integer (JSON integers only), a decoded string, or a bool; nullopt
// when missing, null, or of another kind.
std::optional<int64_t> JsonInt(std::string_view json, std::initializer_list<std::string_view> path);
std::optional<std::string> JsonString(std::string_view json, std::initializer_list<std::string_view> path);
std::optional<bool> JsonBool(std::string_view json, std::initializer_list<std::string_view> path);

// "YYYY-MM-DDTHH:MM:SS[.ffffff]Z" as microseconds since 1970-01-01 UTC (digits past the
// sixth are dropped); nullopt when it is not that form.
std::optional<int64_t> IsoUtcMicros(std::string_view text);

// An array of {"name": N, "value": V} objects (an event's payload fields, analysis/event_json.h)
// as one object {N: V, …}, the form SQL engines' JSON functions take paths into; nullopt
// when it is not such an array.
std::optional<std::string> NameValueArrayAsObject(std::string_view array);

}  // namespace nettrace::dataset
