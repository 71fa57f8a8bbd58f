// Every CLR event name the reader gives equals TraceEvent 4.0.0's: the CLR name probe
// (write/clr_name_probe.h) read through the whole pipeline, event by event, against what
// TraceEvent named the same events (tests/data/clr-names/traceevent-clr-names.txt, written by
// scripts/oracle.sh). Covers the table's every (provider, id, version), the ids it does not know
// (TraceEvent's EventID(N)), GC dynamic events by Name and DataSize, and the SampleProfiler.
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "analysis/query/event_query.h"
#include "test_support.h"
#include "trace_session.h"
#include "write/clr_name_probe.h"

using namespace nettrace;

namespace {

struct TraceEventName {
  std::string probe;  // provider, id, version, Name:DataSize as in the file
  std::string name;
};

std::vector<TraceEventName> ReadTraceEventNames() {
  std::ifstream in(test::DataPath("clr-names/traceevent-clr-names.txt"));
  std::vector<TraceEventName> out;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    const size_t tab = line.rfind('\t');
    out.push_back({line.substr(0, tab), line.substr(tab + 1)});
  }
  return out;
}

// The "name" member of an event's JSON (EventJson), unescaped enough for event names.
std::string NameOf(const std::string& json) {
  const std::string key = "\"name\":\"";
  const size_t at = json.find(key);
  if (at == std::string::npos) return "<none>";
  return json.substr(at + key.size(), json.find('"', at + key.size()) - at - key.size());
}

}  // namespace

TEST_CASE("every CLR event name equals TraceEvent's on the name probe", "[clr]") {
  const std::vector<TraceEventName> expected = ReadTraceEventNames();
  // The probe asks the same questions TraceEvent answered (the file is out of date otherwise:
  // scripts/oracle.sh --update rewrites it).
  std::string list = ClrNameProbeList();
  std::vector<std::string> probes;
  for (std::istringstream lines(list); std::getline(lines, list);) probes.push_back(list);
  REQUIRE(expected.size() == probes.size());
  for (size_t i = 0; i < probes.size(); ++i) REQUIRE(expected[i].probe == probes[i]);

  std::vector<uint8_t> bytes;
  REQUIRE(WriteClrNameProbeTrace(&bytes).ok());
  TraceSession session;
  REQUIRE(session.PushChunk(bytes.data(), bytes.size()).ok());
  REQUIRE(session.Finish().ok());
  EventQuery all;
  all.limit = probes.size() + 1;
  uint64_t total = 0;
  const std::vector<uint32_t> rows = session.QueryEvents(all, &total);
  REQUIRE(rows.size() == expected.size());
  size_t differing = 0;
  for (size_t i = 0; i < rows.size(); ++i) {
    const std::string ours = NameOf(session.EventJson(rows[i]));
    if (ours == expected[i].name) continue;
    ++differing;
    UNSCOPED_INFO(expected[i].probe << ": ours " << ours << ", TraceEvent " << expected[i].name);
  }
  CHECK(differing == 0);
}
