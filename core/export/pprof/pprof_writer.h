// core/export/pprof — a ProfileData (export/profile/profile_data.h) as pprof's Profile message
// (github.com/google/pprof proto/profile.proto), uncompressed: the caller gzips it (the native
// CLI with zlib, the JS side with CompressionStream / Node's zlib), as `go tool pprof` and
// Pyroscope read `profile.pb.gz`. Encoded with mapbox protozero.
//
// Every top-level field of Profile is a repeated or scalar field, so the document is written
// item by item — head, samples, mappings, locations, functions, then the string table (a
// decoder reads fields in any order) — with the strings interned up front.
//
// What goes where:
//   sample_type    one ValueType per ProfileSampleType; default_sample_type the first
//   sample         location ids leaf first, one value per type, labels thread_id (num),
//                  thread_name, process_id (num), process_name, activity (strings; the empty
//                  ones left out)
//   mapping        one per module, has_functions set (the names are final: no symbolization)
//   location       one per function (address 0), one line
//   function       name "Namespace.Type.Method", system_name the whole frame, filename the module
//   time_nanos, duration_nanos, period_type/period (the sample profiler's interval), comment
//                  (each type's `nettrace flame` options)
#pragma once

#include <memory>

#include "export/profile/profile_data.h"
#include "export/profile/profile_stream.h"

namespace nettrace {

// The stream reads `profile` (which must outlive it).
std::unique_ptr<ProfileStream> PprofStream(const ProfileData& profile);

}  // namespace nettrace
