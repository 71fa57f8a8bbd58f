// What an event is — Start, Stop or neither, an activity or not, what it is called and what
// its pair measures — decided once (events/start_stop.h, events/event_kind.h) and asked by
// every consumer: the event names (EventDisplayName), the event kinds the resolver hands the
// activities view and the symbol collector (EventKindOf), the type table's kind the async
// stitcher reads (EventTypeTable), and the activity's name (StartStopStem). Each case of the
// rule is listed once with every consumer's answer, then a written trace shows the activities
// view and the stitcher's type table agreeing on it end to end.
#include <catch2/catch.hpp>
#include <optional>
#include <string>

#include "events/event_kind.h"
#include "events/event_naming.h"
#include "events/start_stop.h"
#include "resolve/event_type_table.h"
#include "trace_session.h"
#include "unit/analysis/analysis_test_support.h"
#include "unit/stacks/mini_json.h"
#include "unit/stacks/stacks_test_support.h"
#include "write/nettrace_writer.h"

namespace nettrace {
namespace {

struct Case {
  const char* what;
  const char* provider;
  uint32_t eventId;
  const char* eventName;
  std::optional<uint8_t> opcode;          // the metadata's
  std::optional<uint8_t> override;        // a v6 label list's
  StartStop role;                         // StartStopOf
  EventKind kind;                         // EventKindOf and the type table's kind
  const char* displayName;                // EventDisplayName
  const char* stem;                       // StartStopStem(displayName): what a pair measures
};

const char* kSource = "My-Source";
const char* kRuntime = "Microsoft-Windows-DotNETRuntime";
const char* kTpl = "System.Threading.Tasks.TplEventSource";
const char* kMetrics = "System.Diagnostics.Metrics";

const Case kCases[] = {
    // The opcode the metadata states (v5's opcode tag, v6's OpCode).
    {"explicit Start opcode", kSource, 1, "Request", 1, {}, StartStop::kStart, EventKind::kActivityStart, "Request/Start", "Request"},
    {"explicit Stop opcode", kSource, 2, "Request", 2, {}, StartStop::kStop, EventKind::kActivityStop, "Request/Stop", "Request"},
    {"explicit opcode with its suffix", kSource, 1, "RequestStart", 1, {}, StartStop::kStart, EventKind::kActivityStart, "Request/Start", "Request"},
    {"explicit Info opcode decides", kSource, 3, "RequestStart", 0, {}, StartStop::kNeither, EventKind::kNone, "RequestStart", "Request"},
    {"explicit Send opcode", kSource, 4, "RequestStart", 9, {}, StartStop::kNeither, EventKind::kNone, "RequestStart/Send", "RequestStart/Send"},
    // No opcode (v4 metadata): the name's suffix, in any case, after a stem.
    {"name suffix Start", kSource, 1, "RequestStart", {}, {}, StartStop::kStart, EventKind::kActivityStart, "Request/Start", "Request"},
    {"name suffix Stop", kSource, 2, "RequestStop", {}, {}, StartStop::kStop, EventKind::kActivityStop, "Request/Stop", "Request"},
    {"name suffix START", kSource, 1, "RequestSTART", {}, {}, StartStop::kStart, EventKind::kActivityStart, "Request/Start", "Request"},
    {"name suffix stop", kSource, 2, "Requeststop", {}, {}, StartStop::kStop, EventKind::kActivityStop, "Request/Stop", "Request"},
    {"a name that is only Start", kSource, 5, "Start", {}, {}, StartStop::kNeither, EventKind::kNone, "Start", "Start"},
    {"a name that is only Stop", kSource, 6, "Stop", {}, {}, StartStop::kNeither, EventKind::kNone, "Stop", "Stop"},
    {"no suffix", kSource, 7, "Heartbeat", {}, {}, StartStop::kNeither, EventKind::kNone, "Heartbeat", "Heartbeat"},
    // A v6 label list's opcode override, whatever the metadata or the name says.
    {"override to Start", kSource, 7, "Fetch", {}, 1, StartStop::kStart, EventKind::kActivityStart, "Fetch/Start", "Fetch"},
    {"override to Info", kSource, 1, "FetchStart", {}, 0, StartStop::kNeither, EventKind::kNone, "FetchStart", "Fetch"},
    {"override to Stop over a Start opcode", kSource, 1, "Fetch", 1, 2, StartStop::kStop, EventKind::kActivityStop, "Fetch/Stop", "Fetch"},
    // EventCounters and Metrics' values: the counters view's. Metrics' Collection/Start and /Stop
    // are start-stop activities, as TraceEvent's StartStopActivityComputer pairs them.
    {"EventCounters", "System.Runtime", 1, "EventCounters", 0, {}, StartStop::kNeither, EventKind::kEventCounters, "EventCounters", "EventCounters"},
    {"Metrics value", kMetrics, 8, "CounterRateValuePublished", 0, {}, StartStop::kNeither, EventKind::kMetricValuePublished, "CounterRateValuePublished", "CounterRateValuePublished"},
    {"Metrics collection start", kMetrics, 3, "CollectionStart", 1, {}, StartStop::kStart, EventKind::kActivityStart, "Collection/Start", "Collection"},
    // TPL's task events: the async stitcher's own, named by TraceEvent's TPL parser.
    {"TPL TaskExecute/Start", kTpl, 8, "TaskStarted", 1, {}, StartStop::kStart, EventKind::kNone, "TaskExecute/Start", "TaskExecute"},
    {"TPL TaskWait/Stop", kTpl, 11, "TaskWaitEnd", 2, {}, StartStop::kStop, EventKind::kNone, "TaskWait/Stop", "TaskWait"},
    // The runtime's exception handling: named and kinded by the CLR table; their v4/v5
    // metadata carries no name or opcode, so they are neither Start nor Stop as activities.
    {"runtime exception thrown", kRuntime, 80, "", {}, {}, StartStop::kNeither, EventKind::kExceptionThrown, "Exception/Start", "Exception"},
    {"runtime catch start", kRuntime, 250, "", {}, {}, StartStop::kNeither, EventKind::kExceptionCatchStart, "ExceptionCatch/Start", "ExceptionCatch"},
    {"runtime exception stop", kRuntime, 256, "", {}, {}, StartStop::kNeither, EventKind::kExceptionStop, "Exception/Stop", "Exception"},
    {"runtime event with a Start opcode", kRuntime, 9999, "WorkStart", 1, {}, StartStop::kStart, EventKind::kNone, "Work/Start", "Work"},
};

EventMetadata MetadataOf(const Case& c) {
  EventMetadata m;
  m.providerName = c.provider, m.eventId = c.eventId, m.eventName = c.eventName, m.opcode = c.opcode;
  m.version = 1, m.hasVersion = true;
  return m;
}

}  // namespace

TEST_CASE("every consumer of the Start/Stop rule gives each case the rule's answer", "[events]") {
  EventTypeTable types;
  for (const Case& c : kCases) {
    INFO(c.what);
    const EventMetadata m = MetadataOf(c);
    LabelOverrides overrides;
    overrides.opcode = c.override;
    CHECK(StartStopOf(m, c.override) == c.role);
    CHECK(EventKindOf(m, c.override) == c.kind);
    CHECK(EventDisplayName(m, overrides) == c.displayName);
    CHECK(std::string(StartStopStem(c.displayName)) == c.stem);
    // The type table (what the stitcher and the views index) keeps the same kind and name.
    const std::optional<EventTypeIndex> t = types.Intern(m, overrides);
    REQUIRE(t);
    CHECK(types[*t].kind == c.kind);
    CHECK(types[*t].name == c.displayName);
  }
}

TEST_CASE("the opcode implied by a name needs a stem and ignores case", "[events]") {
  CHECK(ImpliedOpcode("ScenarioStart") == kOpcodeStart);
  CHECK(ImpliedOpcode("scenariostop") == kOpcodeStop);
  CHECK(ImpliedOpcode("Start") == 0);
  CHECK(ImpliedOpcode("Restarted") == 0);
  CHECK(ImpliedOpcode("") == 0);
  CHECK(StartStopStem("Scenario/Start") == "Scenario");
  CHECK(StartStopStem("Scenario/stop") == "Scenario");
  CHECK(StartStopStem("/Start") == "/");  // "Start" after the stem "/"
}

namespace {

// A v6 trace of one EventSource: pairs named in each way the rule reads, each pair under its
// own activity id, one made a Start by a label list's opcode override.
std::vector<uint8_t> WriteStartStops() {
  NetTraceV6Writer w;
  TraceInfo info;
  info.syncTimeUtc = {2025, 3, 1, 6, 7, 8, 9, 0};
  info.tickFrequency = 1000000;
  info.pointerSize = 8;
  info.processId = 42;
  REQUIRE(w.WriteTraceBlock(info).ok());
  auto meta = [](uint32_t id, const char* name, std::optional<uint8_t> opcode) {
    EventMetadata m;
    m.id = id, m.providerName = "My-Source", m.eventId = id, m.eventName = name, m.opcode = opcode;
    return m;
  };
  std::vector<EventMetadata> metas = {meta(1, "LoginSTART", {}), meta(2, "LoginSTOP", {}), meta(3, "Start", {}),
                                      meta(4, "Stop", {}), meta(5, "Fetch", {}), meta(6, "FetchDone", 2),
                                      meta(7, "QueryStart", 0), meta(8, "QueryStop", 0)};
  REQUIRE(w.WriteMetadataBlock(metas).ok());
  ThreadInfo t;
  t.index = 1, t.osThreadId = 100, t.osProcessId = 42;
  const std::vector<ThreadInfo> threads = {t};
  REQUIRE(w.WriteThreadBlock(threads).ok());
  // An EventSource activity path of process 42 ("/#42/tag/"): the activities view follows only
  // those (TraceEvent's StartStopActivityComputer), the type table's kinds do not look.
  auto guid = [](uint8_t tag) {
    Guid g;
    g.bytes[0] = static_cast<uint8_t>(tag << 4);
    const uint32_t check = (static_cast<uint32_t>(g.bytes[0]) + 0x599D99ADu) ^ 42u;
    for (int i = 0; i < 4; ++i) g.bytes[12 + i] = static_cast<uint8_t>(check >> (8 * i));
    return g;
  };
  auto ids = [](const Guid& a) {
    LabelList l;
    Label x;
    x.kind = LabelKind::kActivityId, x.guid = a;
    l.labels.push_back(x);
    return l;
  };
  LabelList overrideStart = ids(guid(3));
  Label op;
  op.kind = LabelKind::kOpCode, op.number = 1;
  overrideStart.labels.push_back(op);
  const std::vector<LabelList> lists = {ids(guid(1)), ids(guid(2)), overrideStart, ids(guid(3)), ids(guid(4))};
  REQUIRE(w.WriteLabelListBlock(1, lists).ok());
  std::vector<EventRecord> events;
  uint32_t seq = 0;
  auto add = [&](uint32_t metadata, uint64_t us, uint32_t labels) {
    EventRecord e;
    e.metadataId = metadata, e.timestamp = 1000000 + us, e.thread = 1, e.captureThread = 1;
    e.sequenceNumber = ++seq, e.labelListId = labels;
    events.push_back(e);
  };
  add(1, 100, 1), add(2, 200, 1);  // LoginSTART/LoginSTOP: a pair by name, in capitals
  add(3, 300, 2), add(4, 400, 2);  // Start/Stop alone: no pair
  add(5, 500, 3), add(6, 600, 4);  // Fetch made a Start by its label list, FetchDone a Stop by opcode
  add(7, 700, 5), add(8, 800, 5);  // QueryStart/QueryStop stated Info: no pair
  REQUIRE(w.WriteEventBlock(events, /*compressed=*/true).ok());
  REQUIRE(w.WriteEndOfStream().ok());
  return w.TakeBytes();
}

}  // namespace

TEST_CASE("the activities view and the stitcher's type table read the rule alike", "[events]") {
  const std::vector<uint8_t> bytes = WriteStartStops();
  auto session = test::LoadSession(bytes, bytes.size());
  test::Json view;
  REQUIRE(test::ParseJson(session->ActivitiesView(), &view));
  std::vector<std::string> names;
  for (const test::Json& a : view["activities"].array) names.push_back(a["name"].string);
  CHECK(names == std::vector<std::string>{"Login", "Fetch"});
  // The type table the stitcher reads: the same Starts and Stops, the override included.
  const TraceModel& m = session->model();
  std::vector<std::string> starts, stops;
  for (size_t i = 0; i < m.types().size(); ++i) {
    const EventType& t = m.types()[EventTypeIndex(static_cast<uint16_t>(i))];
    if (t.kind == EventKind::kActivityStart) starts.push_back(t.name);
    if (t.kind == EventKind::kActivityStop) stops.push_back(t.name);
  }
  CHECK(starts == std::vector<std::string>{"Login/Start", "Fetch/Start"});
  CHECK(stops == std::vector<std::string>{"Login/Stop", "FetchDone/Stop"});
}

}  // namespace nettrace
