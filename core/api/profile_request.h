// core/api — a profile export's request (export/profile/sample_types.h ProfileRequest) from the
// parsed options, the one rule the native CLI and the wasm bindings share: `--event` and
// `--weight` narrow the profile's sample types only when given (weight auto: not given).
#pragma once

#include "api/query_options.h"
#include "export/profile/sample_types.h"

namespace nettrace::api {

ProfileRequest ProfileRequestOf(const Request& request);

}  // namespace nettrace::api
