// core/format — which built-in schema a provider's events belong to, decided from its name
// once, for every stage: the CLR runtime's manifest providers (their payloads decoded by the
// generated CLR table, format/clr_events.generated.h), the SampleProfiler and TPL (whose
// events TraceEvent decodes with hand-written parsers), EventPipe's own provider, or any
// other (an EventSource or TraceLogging provider described by its metadata alone). Names are
// compared ignoring ASCII case, as TraceEvent matches provider names.
#pragma once

#include <string_view>

#include "format/clr_events.generated.h"

namespace nettrace {

enum class KnownProvider : uint8_t {
  kOther,
  kClrRuntime,
  kClrRundown,
  kClrPrivate,
  kClrStress,
  kSampleProfiler,
  kTpl,
  kEventPipe,
};

KnownProvider ClassifyProvider(std::string_view providerName);

// The CLR table's provider of a family: the runtime's four manifest providers and the
// SampleProfiler (the table holds its one event, Thread/Sample); kNone for the rest. The one
// mapping from provider names to the table: payload templates, event kinds and event names
// all look events up through it.
clr::Provider ClrProviderOf(KnownProvider family);
inline clr::Provider ClrProviderOf(std::string_view providerName) { return ClrProviderOf(ClassifyProvider(providerName)); }

// Whether two names are equal ignoring ASCII case (provider names, GC dynamic event names).
bool EqualsIgnoreAsciiCase(std::string_view a, std::string_view b);
// Whether `s` ends with `suffix` ignoring ASCII case, with something before it.
bool EndsWithIgnoreAsciiCase(std::string_view s, std::string_view suffix);

}  // namespace nettrace
