#include "format/provider_family.h"

namespace nettrace {

namespace {
// ASCII case folding, as std::tolower in the "C" locale the tools run in, without a
// library call per character: provider names are classified for every metadata record.
constexpr unsigned char AsciiLower(unsigned char c) { return c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c; }
}  // namespace

// b's length is known where it is a literal: a provider name of another length (most of
// them) is told apart without a loop or a strlen.
bool EqualsIgnoreAsciiCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < b.size(); ++i)
    if (AsciiLower(static_cast<unsigned char>(a[i])) != AsciiLower(static_cast<unsigned char>(b[i]))) return false;
  return true;
}

bool EndsWithIgnoreAsciiCase(std::string_view s, std::string_view suffix) {
  return s.size() > suffix.size() && EqualsIgnoreAsciiCase(s.substr(s.size() - suffix.size()), suffix);
}

KnownProvider ClassifyProvider(std::string_view p) {
  struct Known {
    std::string_view name;
    KnownProvider provider;
  };
  static constexpr Known kKnown[] = {
      {"Microsoft-Windows-DotNETRuntime", KnownProvider::kClrRuntime},
      {"Microsoft-Windows-DotNETRuntimeRundown", KnownProvider::kClrRundown},
      {"Microsoft-Windows-DotNETRuntimePrivate", KnownProvider::kClrPrivate},
      {"Microsoft-Windows-DotNETRuntimeStress", KnownProvider::kClrStress},
      {"Microsoft-DotNETCore-SampleProfiler", KnownProvider::kSampleProfiler},
      {"System.Threading.Tasks.TplEventSource", KnownProvider::kTpl},
      {"Microsoft-DotNETCore-EventPipe", KnownProvider::kEventPipe},
  };
  // Names are asked for once per metadata by several stages: the exact spelling (what the
  // runtime writes) is one memcmp; case is folded only when it differs.
  for (const Known& k : kKnown)
    if (p.size() == k.name.size() && (p == k.name || EqualsIgnoreAsciiCase(p, k.name))) return k.provider;
  return KnownProvider::kOther;
}

clr::Provider ClrProviderOf(KnownProvider family) {
  switch (family) {
    case KnownProvider::kClrRuntime: return clr::Provider::kRuntime;
    case KnownProvider::kClrRundown: return clr::Provider::kRundown;
    case KnownProvider::kClrPrivate: return clr::Provider::kPrivate;
    case KnownProvider::kClrStress: return clr::Provider::kStress;
    case KnownProvider::kSampleProfiler: return clr::Provider::kSampleProfiler;
    default: return clr::Provider::kNone;
  }
}

}  // namespace nettrace
