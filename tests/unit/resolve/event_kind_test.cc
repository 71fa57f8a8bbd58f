// The resolver's (provider, id) → kind table against the generated CLR table: each id must
// be the event TraceEvent names so, or a wrong id would silently change what the analyses read.
#include <catch2/catch.hpp>
#include <string>

#include "format/clr_events.generated.h"
#include "resolve/event_kind.h"

namespace nettrace {

TEST_CASE("each event kind's id is the generated table's event of that name", "[resolve]") {
  size_t count = 0;
  const EventKindEntry* entries = AllEventKinds(&count);
  REQUIRE(count == 61);
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

}  // namespace nettrace
