// Helpers of the [analysis] tests that read event details: provide the blocks of rows from
// the file's bytes, and every event of a query as parsed JSON (the independent path the
// summary's runtime signals and the text search are checked against).
#pragma once

#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "analysis/query/event_query.h"
#include "trace_session.h"
#include "unit/stacks/mini_json.h"

namespace nettrace {
// runtime_signals_test.cc: a v6 trace with known GC pauses, exceptions ("xyzzy" only in one
// exception message), allocation ticks and contentions; threads "Main thread" (100) and
// "Sampler" (200).
std::vector<uint8_t> WriteRuntimeTrace();
}  // namespace nettrace

namespace nettrace::test {

inline void ProvideRows(TraceSession& s, const std::vector<uint8_t>& file, const std::vector<uint32_t>& rows) {
  for (const ByteRange& r : s.BlocksNeeded(rows)) {
    REQUIRE(r.offset + r.size <= file.size());
    s.ProvideBlock(r.offset, file.data() + r.offset, r.size);
  }
}

// Every event matching `q` (offset/limit ignored) as parsed EventJson, with details.
inline std::vector<Json> EventsOf(TraceSession& s, const std::vector<uint8_t>& file, EventQuery q) {
  q.offset = 0, q.limit = UINT64_MAX;
  const std::vector<uint32_t> rows = s.QueryEvents(q, nullptr);
  std::vector<Json> out;
  // In slices: the session's block cache is bounded.
  for (size_t i = 0; i < rows.size(); i += 256) {
    std::vector<uint32_t> slice(rows.begin() + i, rows.begin() + std::min(rows.size(), i + 256));
    ProvideRows(s, file, slice);
    for (uint32_t row : slice) {
      Json j;
      REQUIRE(ParseJson(s.EventJson(row), &j));
      REQUIRE(j["detail"].boolean);
      out.push_back(std::move(j));
    }
  }
  return out;
}

// A top-level payload field of a parsed event, or nullptr.
inline const Json* Field(const Json& event, const std::string& name) {
  for (const Json& f : event["payload"]["fields"].array)
    if (f["name"].string == name) return &f["value"];
  return nullptr;
}

}  // namespace nettrace::test
