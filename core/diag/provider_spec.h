// core/diag — what a user types to choose events: provider specs
// (`name[:keywords[:level[:filter]]]`, dotnet-trace's --providers syntax) and the profiles
// users know from dotnet-trace 10 (its ListProfilesCommandHandler: the same providers,
// keywords, levels, arguments and rundown keywords; tests compare our requests with the
// bytes dotnet-trace 10.0.750501 sends, tests/data/diag/ipc_capture.txt).
#pragma once

#include <string>
#include <vector>

#include "base/status.h"
#include "diag/collect_request.h"

namespace nettrace::diag {

/// One provider spec, as dotnet-trace reads it: keywords in hex (with or without 0x; empty
/// = 0), level a number (above 5 = 5) or a name (critical, error, warning, informational,
/// verbose, logalways; empty = informational), the filter (arguments) kept as written.
Status ParseProviderSpec(const std::string& spec, ProviderConfig* provider);

/// A comma-separated list of specs (a comma inside double quotes belongs to the filter).
Status ParseProviderList(const std::string& list, std::vector<ProviderConfig>* providers);

struct TraceProfile {
  const char* name;
  std::vector<ProviderConfig> providers;
  uint64_t rundownKeyword;      // 0 = the profile does not ask for a custom rundown
  bool dropRundownOnFallback;   // gc-collect: before CollectTracing4, no rundown at all
  const char* description;
};

/// The profiles, in dotnet-trace's order. `cpu-sampling` is in dotnet-trace 10 a
/// collect-linux (kernel perf) profile that no diagnostics-port session can honour; here it
/// names the EventPipe sampler, the same as dotnet-sampled-thread-time.
const std::vector<TraceProfile>& TraceProfiles();

/// Builds a request from --profile (comma-separated names, may be empty) and --providers
/// (may be empty) as dotnet-trace collect does: providers from --providers first, a profile
/// provider only when its name is not there yet (names compared ignoring case); the rundown
/// keyword is the OR of the profiles' (none → the default rundown). Neither given →
/// dotnet-trace's default, dotnet-common + dotnet-sampled-thread-time.
Status BuildCollectRequest(const std::string& profiles, const std::string& providers, CollectRequest* request);

}  // namespace nettrace::diag
