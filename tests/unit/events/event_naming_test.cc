// ClassifyProvider (format/provider_family.h): each provider the analyses know, as the runtime
// spells it and in any other case (provider names are case-insensitive, as in TraceEvent), and
// names of the same length that are none of them.
#include <catch2/catch.hpp>

#include <cctype>
#include <string>

#include "events/event_naming.h"

using namespace nettrace;

TEST_CASE("ClassifyProvider knows each provider in any case, and nothing else of its length", "[model]") {
  const std::pair<std::string, KnownProvider> known[] = {
      {"Microsoft-Windows-DotNETRuntime", KnownProvider::kClrRuntime},
      {"Microsoft-Windows-DotNETRuntimeRundown", KnownProvider::kClrRundown},
      {"Microsoft-Windows-DotNETRuntimePrivate", KnownProvider::kClrPrivate},
      {"Microsoft-Windows-DotNETRuntimeStress", KnownProvider::kClrStress},
      {"Microsoft-DotNETCore-SampleProfiler", KnownProvider::kSampleProfiler},
      {"System.Threading.Tasks.TplEventSource", KnownProvider::kTpl},
      {"Microsoft-DotNETCore-EventPipe", KnownProvider::kEventPipe},
  };
  for (const auto& [name, provider] : known) {
    INFO(name);
    CHECK(ClassifyProvider(name) == provider);
    std::string lower = name, upper = name;
    for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    CHECK(ClassifyProvider(lower) == provider);
    CHECK(ClassifyProvider(upper) == provider);
    std::string other = name;
    other.back() = other.back() == 'x' ? 'y' : 'x';  // same length, another name
    CHECK(ClassifyProvider(other) == KnownProvider::kOther);
    CHECK(ClassifyProvider(name + "x") == KnownProvider::kOther);
    CHECK(ClassifyProvider(name.substr(1)) == KnownProvider::kOther);
  }
  CHECK(ClassifyProvider("") == KnownProvider::kOther);
  CHECK(ClassifyProvider("MyCompany-MyApp") == KnownProvider::kOther);
}
