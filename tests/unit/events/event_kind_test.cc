// The resolver's (provider, id) → kind table against the generated CLR table: each id must
// be the event TraceEvent names so, or a wrong id would silently change what the analyses read.
#include <catch2/catch.hpp>
#include <optional>
#include <string>

#include "events/event_kind.h"
#include "format/clr_events.generated.h"

namespace nettrace {

TEST_CASE("each event kind's id is the generated table's event of that name", "[resolve]") {
  size_t count = 0;
  const EventKindEntry* entries = AllEventKinds(&count);
  REQUIRE(count == 64);
  for (size_t i = 0; i < count; ++i) {
    const EventKindEntry& e = entries[i];
    INFO("entry " << i << " id " << e.eventId);
    CHECK(EventKindOf(e.provider, e.eventId) == e.kind);  // sorted, so the search finds it
    const clr::EventInfo* info = clr::FindEvent(e.provider, e.eventId, 0);
    if (e.traceEventName == nullptr) {
      CHECK(info == nullptr);
    } else {
      REQUIRE(info != nullptr);
      CHECK(std::string(info->name) == e.traceEventName);
    }
  }
  CHECK(EventKindOf(clr::Provider::kRuntime, 5) == EventKind::kNone);
  CHECK(EventKindOf(clr::Provider::kNone, 1) == EventKind::kNone);
}

TEST_CASE("event kinds of metadata follow the provider name in any case", "[resolve]") {
  EventMetadata m;
  m.providerName = "microsoft-windows-dotnetruntimerundown";
  m.eventId = 144;
  CHECK(EventKindOf(m) == EventKind::kRundownMethodDCEndVerbose);
  m.providerName = "MyEventSource";
  CHECK(EventKindOf(m) == EventKind::kNone);
}

TEST_CASE("event kinds of other providers follow EventSource's conventions", "[resolve]") {
  auto kind = [](const char* provider, const char* name, std::optional<uint8_t> opcode, uint32_t id = 7) {
    EventMetadata m;
    m.providerName = provider, m.eventName = name, m.opcode = opcode, m.eventId = id;
    return EventKindOf(m);
  };
  // Start/Stop: the opcode where the metadata has one (v5, v6), else the name's suffix (v4).
  CHECK(kind("Demo-Source", "RequestStart", std::nullopt) == EventKind::kActivityStart);
  CHECK(kind("Demo-Source", "RequestStop", std::nullopt) == EventKind::kActivityStop);
  CHECK(kind("Demo-Source", "Request", 1) == EventKind::kActivityStart);
  CHECK(kind("Demo-Source", "Request", 2) == EventKind::kActivityStop);
  CHECK(kind("Demo-Source", "RequestStart", 0) == EventKind::kNone);  // the opcode decides
  CHECK(kind("Demo-Source", "Start", std::nullopt) == EventKind::kNone);  // a suffix of nothing
  // Not for the runtime's own providers or TPL (their Start/Stop are no activities).
  CHECK(kind("Microsoft-Windows-DotNETRuntime", "WorkStart", 1, 9999) == EventKind::kNone);
  CHECK(kind("System.Threading.Tasks.TplEventSource", "TaskWaitBegin", 1) == EventKind::kNone);
  CHECK(kind("System.Runtime", "EventCounters", 0) == EventKind::kEventCounters);
  CHECK(kind("System.Diagnostics.Metrics", "CounterRateValuePublished", 0) == EventKind::kMetricValuePublished);
  CHECK(kind("System.Diagnostics.Metrics", "BeginInstrumentReporting", 0) == EventKind::kNone);
  // Metrics' Collection/Start and /Stop are EventSource start-stop events like any other's
  // (TraceEvent pairs them into activities).
  CHECK(kind("System.Diagnostics.Metrics", "Collection", 1) == EventKind::kActivityStart);
  CHECK(kind("System.Diagnostics.Metrics", "CollectionStop", std::nullopt) == EventKind::kActivityStop);
  // The private runtime's multicore-JIT event is a CLR table kind (JitStats reads it).
  CHECK(kind("Microsoft-Windows-DotNETRuntimePrivate", "", std::nullopt, 201) == EventKind::kPrivateMulticoreJit);
}

TEST_CASE("Universal events (Linux profilers) are kinds of the resolver too", "[resolve][universal]") {
  auto kind = [](const char* provider, const char* name, uint32_t id) {
    EventMetadata m;
    m.providerName = provider, m.eventName = name, m.eventId = id;
    return EventKindOf(m);
  };
  // Universal.System by name, or by the ids TraceEvent registers when names are left out.
  CHECK(kind("Universal.System", "ExistingProcess", 9) == EventKind::kUniversalExistingProcess);
  CHECK(kind("universal.system", "ProcessCreate", 9) == EventKind::kUniversalProcessCreate);
  CHECK(kind("Universal.System", "", 2) == EventKind::kUniversalProcessExit);
  CHECK(kind("Universal.System", "", 3) == EventKind::kUniversalMapping);
  CHECK(kind("Universal.System", "ProcessSymbol", 0) == EventKind::kUniversalSymbol);
  CHECK(kind("Universal.System", "", 5) == EventKind::kUniversalMappingMetadata);
  CHECK(kind("Universal.System", "", 6) == EventKind::kNone);
  // Universal.Events by their sampling source; ids are the trace's own.
  CHECK(kind("UNIVERSAL.EVENTS", "cpu", 1) == EventKind::kUniversalCpu);
  CHECK(kind("Universal.Events", "cswitch", 0) == EventKind::kUniversalCswitch);
  CHECK(kind("Universal.Events", "page-faults", 2) == EventKind::kUniversalOtherSample);
  CHECK(kind("Universal.Eventsx", "cpu", 1) == EventKind::kNone);
  CHECK(IsUniversalKind(EventKind::kUniversalOtherSample));
  CHECK(!IsUniversalKind(EventKind::kActivityStop));
}

}  // namespace nettrace
