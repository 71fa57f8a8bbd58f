// core/export/otlp — a ProfileData (export/profile/profile_data.h) as an OpenTelemetry
// profiles ExportProfilesServiceRequest (opentelemetry-proto v1.11.0,
// opentelemetry/proto/collector/profiles/v1development/profiles_service.proto; docs/exports.md).
// Its two fields have ProfilesData's numbers too, so the same bytes are the file export and
// the body an OTLP/HTTP push POSTs to `/v1development/profiles`. Encoded with mapbox protozero.
//
// Layout (v1.11.0 gives a Profile one sample type):
//   resource_profiles   one per process: Resource {service.name, process.pid,
//                       process.executable.name}, one ScopeProfiles {scope "nettrace-analyzer"}
//                       holding one Profile per sample type: its samples with a value for that
//                       type (stack_index, attribute_indices, values [v]), time_unix_nano,
//                       duration_nano, period_type/period
//   dictionary          mapping/location/function/link/string/attribute/stack tables, each
//                       starting with the zero entry the protos require; attributes thread.id,
//                       thread.name and dotnet.activity
//
// Written a part at a time: nested messages need their length first, so a first pass
// measures each profile, scope, resource and the dictionary (encoding each item once into a
// scratch buffer), and the second writes them; memory is the profile plus one item.
#pragma once

#include <memory>
#include <string>

#include "export/profile/profile_data.h"
#include "export/profile/profile_stream.h"

namespace nettrace {

// The opentelemetry-proto release whose profiles protos the export follows.
inline constexpr const char* kOtlpProtoVersion = "v1.11.0";
// The OTLP/HTTP path a collector takes profiles on.
inline constexpr const char* kOtlpProfilesPath = "/v1development/profiles";

// `scopeVersion`: the exporting tool's version (InstrumentationScope.version). The stream
// reads `profile` (which must outlive it).
std::unique_ptr<ProfileStream> OtlpStream(const ProfileData& profile, const std::string& scopeVersion);

}  // namespace nettrace
