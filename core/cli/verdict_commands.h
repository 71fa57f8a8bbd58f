// The commands a CI job runs over many traces (core/verdict): `nettrace check TRACE… --budget
// FILE [--baseline FILE…]` (budgets; exit 0 all pass, 1 any fails, 2 bad input) and `nettrace
// diff --baseline A1 A2 … --compare B1 B2 …` (the many-run comparison). Traces are read one at
// a time: each is measured, then freed.
#pragma once

#include <string>
#include <vector>

#include "api/query_options.h"

namespace nettrace_cli {

int RunCheck(const nettrace::api::Request& request, const std::vector<std::string>& traces);
int RunDiffRuns(const nettrace::api::Request& request);

}  // namespace nettrace_cli
