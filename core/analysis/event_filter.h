// core/analysis — the pieces every query over the store shares (event table, call trees,
// histograms): which types a provider/name selects, which threads an OS thread id
// selects, and which rows a time range covers (two binary searches: rows are in time
// order).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/trace_model.h"

namespace nettrace {


// provider: case-insensitive exact match, name: exact display name; empty matches any.
bool TypeMatches(const EventType& type, const std::string& provider, const std::string& name);

// Per ThreadIndex: does it match this OS thread id (all match when none is given)?
std::vector<bool> ThreadMask(const TraceModel& model, std::optional<uint64_t> osThreadId);

struct RowRange {
  size_t begin = 0, end = 0;
};
// Rows with fromMs <= time <= toMs (ms from the trace's sync time; open ends when absent).
RowRange RowsInTime(const TraceModel& model, std::optional<double> fromMs, std::optional<double> toMs);

}  // namespace nettrace
