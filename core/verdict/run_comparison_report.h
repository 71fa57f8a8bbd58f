// core/verdict — a many-run comparison (run_comparison.h) as the JSON document `nettrace diff
// --baseline … --compare …` prints (its shape: RunDiffResult in `nettrace schema --json`) and
// as Markdown for a CI job's summary.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "verdict/run_comparison.h"

namespace nettrace::verdict {

struct RunNames {
  std::vector<std::string> baseline, comparison;  // one per trace, as given
};

// At most maxFunctions functions (flagged ones first); the tree whole.
std::string RunComparisonJson(const RunComparison& r, const RunNames& names, size_t maxFunctions);

// Heading, method, the flagged functions (at most maxFunctions) and the runtime totals.
std::string RunComparisonMarkdown(const RunComparison& r, const RunNames& names, size_t maxFunctions);

}  // namespace nettrace::verdict
