// The sorted tap (model/sorted_tap.h): the CLR analyses get their events in the sorter's
// (timestamp, file order), with their own header and payload bytes, on every corpus trace
// (whose file order is not time order); GC and JIT results stay those computed before the
// tap (golden files written by the file-order version, compared whole); and a writer's
// lying IsSorted marks (late events) leave the results exactly those of the same events
// written in time order.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "analysis/runtime/clr_stats_sink.h"
#include "analysis/runtime/runtime_signals.h"
#include "analysis/views/runtime_views.h"
#include "format/payload_decoder.h"
#include "format/tee_sink.h"
#include "format/trace_reader.h"
#include "model/sorted_tap.h"
#include "model/store_builder.h"
#include "resolve/type_resolver.h"
#include "test_support.h"
#include "unit/write/runtime_trace_support.h"
#include "write/nettrace_writer.h"
#include "write/payload_builder.h"

using namespace nettrace;

namespace {

uint64_t Fnv(std::span<const uint8_t> bytes) {
  uint64_t h = 1469598103934665603ull;
  for (uint8_t b : bytes) h = (h ^ b) * 1099511628211ull;
  return h;
}

// Every event in file order, as the resolver sees it: its timestamp, kind and payload hash.
struct FileEvents : RecordSink {
  explicit FileEvents(const TypeResolver* r) : resolver(r) {}
  struct Seen {
    uint64_t timestamp, payloadHash;
    EventKind kind;
  };
  const TypeResolver* resolver;
  std::vector<Seen> events;
  Status OnEvent(const EventRecord& e) override {
    REQUIRE(resolver->current().ordinal == events.size());
    events.push_back({e.timestamp, Fnv(e.payload), resolver->current().kind});
    return Status::Ok();
  }
};

// A sink that reads every kind an analysis can read, and notes what it is handed. fromHeader:
// the kinds it declares read from the header alone (TimeOrderedSink::ReadsFromHeader).
struct Recorder : TimeOrderedSink {
  explicit Recorder(std::vector<EventKind> header = {}) : fromHeader(std::move(header)) {}
  struct Got {
    uint64_t timestamp, payloadHash;
    uint32_t ordinal;
    EventKind kind;
    bool late;
    uint64_t processId, osThreadId, thread;
    bool headerOnly;
  };
  std::vector<EventKind> fromHeader;
  std::vector<Got> got;
  void OnTraceInfo(const TraceInfo&) override {}
  bool Reads(EventKind k) const override { return k != EventKind::kNone; }
  bool ReadsFromHeader(EventKind k) const override {
    return std::find(fromHeader.begin(), fromHeader.end(), k) != fromHeader.end();
  }
  void OnTimeOrdered(const TimeOrderedEvent& e) override {
    got.push_back({e.record.timestamp, Fnv(e.record.payload), e.ordinal, e.kind, e.late, e.processId, e.osThreadId,
                   e.record.thread, e.headerOnly});
  }
};

// Reader → resolver → (store with the tap, file-order recorder).
struct TapPipeline {
  explicit TapPipeline(std::vector<EventKind> fromHeader = {}) : recorder(std::move(fromHeader)) {}
  Stats stats;
  Recorder recorder;
  SortedTap tap{{&recorder}};
  StoreBuilder store{&stats, &resolver, &tap};
  FileEvents file{&resolver};
  TeeSink tee{&store, &file};
  TypeResolver resolver{&tee, &stats};
  TraceReader reader{&resolver, &stats};

  void Read(const std::vector<uint8_t>& bytes) {
    const Status pushed = reader.Push(bytes.data(), bytes.size());
    INFO(pushed.ToString());
    REQUIRE(pushed.ok());
    REQUIRE(reader.Finish().ok());
    store.Flush();
  }
};

bool Before(const Recorder::Got& a, const Recorder::Got& b) {
  return a.timestamp != b.timestamp ? a.timestamp < b.timestamp : a.ordinal < b.ordinal;
}

}  // namespace

TEST_CASE("sorted tap: every corpus trace's CLR events come in (timestamp, file order), with their own bytes",
          "[sorted-tap][corpus]") {
  size_t tracesReordered = 0;
  for (const std::string& name : test::CorpusTraces()) {
    INFO(name);
    auto p = std::make_unique<TapPipeline>();
    p->Read(test::ReadFile(test::DataPath(name)));
    const auto& file = p->file.events;
    const auto& got = p->recorder.got;
    // Exactly the events of a kind some analysis reads, each once.
    const size_t wanted = std::count_if(file.begin(), file.end(), [](const auto& s) { return s.kind != EventKind::kNone; });
    REQUIRE(got.size() == wanted);
    bool fileOrderIsTimeOrder = true;
    for (size_t i = 0; i < got.size(); ++i) {
      const Recorder::Got& g = got[i];
      REQUIRE_FALSE(g.late);  // the corpus's writers keep their IsSorted promises
      if (i > 0) REQUIRE(Before(got[i - 1], g));
      if (i > 0 && g.ordinal < got[i - 1].ordinal) fileOrderIsTimeOrder = false;
      REQUIRE(g.ordinal < file.size());
      REQUIRE(file[g.ordinal].timestamp == g.timestamp);
      REQUIRE(file[g.ordinal].kind == g.kind);
      REQUIRE(file[g.ordinal].payloadHash == g.payloadHash);  // the tap's copy, not a reused buffer
    }
    tracesReordered += !fileOrderIsTimeOrder;
    // The tap holds only events pending in the sorter, and frees them all at the end.
    REQUIRE(p->tap.pending() == 0);
    REQUIRE(p->tap.peakPending() <= p->store.sorter().peakPending());
    WARN(name << ": " << got.size() << " tapped events, peak held " << p->tap.peakPending() << " (" << p->tap.peakArenaBytes()
              << " payload bytes), sorter peak " << p->store.sorter().peakPending()
              << (fileOrderIsTimeOrder ? "" : ", file order reordered"));
  }
  // Without the tap the analyses saw file order, which is not time order in these traces.
  REQUIRE(tracesReordered >= 5);
}

// A thread whose own events come out of the sorter in another order than it wrote them (an
// unsorted run, sorted before the merge): the tap finds them by search, and its per-thread
// chain skips them once sent, so each event still comes once, in time order, with its bytes.
TEST_CASE("sorted tap: a thread's events released out of its file order are found and sent once",
          "[sorted-tap]") {
  const std::vector<EventMetadata> meta = {test::RuntimeEventMetadata(1, 10, 2)};  // GC/AllocationTick V2
  auto tick = [](uint32_t amount) {
    PayloadBuilder b;
    b.AppendU32(amount).AppendU32(0).AppendU16(7).AppendU64(amount).AppendU64(0x1234);
    b.AppendNullTerminatedUtf16(std::string_view("T")).AppendU32(0);
    return b.bytes();
  };
  // File order (ordinals 0..4): thread 1 at 30, 10, 20 µs; thread 2 at 15, 25 µs.
  const std::vector<test::RuntimeTraceEvent> events = {
      {1, 1, 30, tick(1)}, {1, 2, 15, tick(2)}, {1, 1, 10, tick(3)}, {1, 2, 25, tick(4)}, {1, 1, 20, tick(5)}};
  auto p = std::make_unique<TapPipeline>();
  p->Read(test::WriteRuntimeEventsTrace(meta, {test::RuntimeThread(1, 100), test::RuntimeThread(2, 200)}, events));
  const auto& got = p->recorder.got;
  REQUIRE(got.size() == 5);
  const uint32_t order[] = {2, 1, 4, 3, 0};  // by time
  for (size_t i = 0; i < 5; ++i) {
    INFO("event " << i);
    CHECK(got[i].ordinal == order[i]);
    CHECK(got[i].payloadHash == p->file.events[order[i]].payloadHash);
    CHECK_FALSE(got[i].late);
  }
  // Thread 1's 10 and 20 µs events came before its first (30 µs): found by the search; the
  // others as their thread's first.
  CHECK(p->tap.foundBySearch() == 2);
  CHECK(p->tap.foundByThread() == 3);
  CHECK(p->tap.pending() == 0);

  SECTION("an event sent by the search is skipped where the chain reaches it") {
    // One thread at 10, 30, 20, 40 µs: 20 (third in its chain) goes by the search while 30
    // waits; after 30 the chain's next is 20, already sent, and 40 is found past it.
    const std::vector<test::RuntimeTraceEvent> one = {
        {1, 1, 10, tick(1)}, {1, 1, 30, tick(2)}, {1, 1, 20, tick(3)}, {1, 1, 40, tick(4)}};
    auto q = std::make_unique<TapPipeline>();
    q->Read(test::WriteRuntimeEventsTrace(meta, {test::RuntimeThread(1, 100)}, one));
    REQUIRE(q->recorder.got.size() == 4);
    const uint32_t byTime[] = {0, 2, 1, 3};
    for (size_t i = 0; i < 4; ++i) CHECK(q->recorder.got[i].ordinal == byTime[i]);
    CHECK(q->tap.foundBySearch() == 1);
    CHECK(q->tap.foundByThread() == 3);
  }
  SECTION("events released one by one (every event IsSorted) start a chain each time") {
    // Each event is sent before the next is held: the held events are dropped each time and
    // numbered on; 20 µs comes late, after 30.
    const std::vector<test::RuntimeTraceEvent> one = {
        {1, 1, 10, tick(1)}, {1, 1, 30, tick(2)}, {1, 1, 20, tick(3)}, {1, 1, 40, tick(4)}};
    test::RuntimeTraceOptions sorted;
    sorted.isSorted = true;
    auto q = std::make_unique<TapPipeline>();
    q->Read(test::WriteRuntimeEventsTrace(meta, {test::RuntimeThread(1, 100)}, one, sorted));
    REQUIRE(q->recorder.got.size() == 4);
    for (size_t i = 0; i < 4; ++i) {
      CHECK(q->recorder.got[i].ordinal == i);
      CHECK(q->recorder.got[i].payloadHash == q->file.events[i].payloadHash);
      CHECK(q->recorder.got[i].late == (i == 2));
    }
    CHECK(q->tap.foundByThread() == 4);
    CHECK(q->tap.foundBySearch() == 0);
  }
}

namespace {

// The session's time-ordered sinks behind its store and tap (trace_session.cc), and a
// file-order counter beside the store: the events of a kind the tap wants, and the
// SuspendEEStarts among them whose Reason (decoded whole, not read in place) is not a GC's.
struct SessionTap {
  Stats stats;
  RuntimeSignals runtime;
  ClrStatsSink clr;
  RuntimeViews views;
  SortedTap tap{{&runtime, &clr, &views}};
  StoreBuilder store{&stats, &resolver, &tap};
  struct Counter : RecordSink {
    explicit Counter(SessionTap* session) : s(session) {}
    SessionTap* s;
    uint64_t wanted = 0, notForGc = 0, stopsOfKnownThreads = 0;
    Status OnEvent(const EventRecord& e) override {
      const EventKind kind = s->resolver.current().kind;
      if (!s->tap.Wants(kind)) return Status::Ok();
      ++wanted;
      if ((kind == EventKind::kGcSuspendEEStop || kind == EventKind::kGcRestartEEStop) && s->resolver.current().threadKnown)
        ++stopsOfKnownThreads;
      if (kind != EventKind::kGcSuspendEEStart) return Status::Ok();
      const DecodedPayload p =
          DecodePayload(s->resolver.MetadataOf(e.metadataId), e.payload, 8, static_cast<int>(s->reader.formatMajor()));
      const PayloadValue* reason = p.Find("Reason");
      if (reason && reason->isInteger() && reason->asUInt() != 1 && reason->asUInt() != 6) ++notForGc;
      return Status::Ok();
    }
  } counter{this};
  TeeSink tee{&store, &counter};
  TypeResolver resolver{&tee, &stats};
  TraceReader reader{&resolver, &stats};

  void Read(const std::string& name) {
    const std::vector<uint8_t> bytes = test::ReadFile(test::DataPath(name));
    REQUIRE(reader.Push(bytes.data(), bytes.size()).ok());
    REQUIRE(reader.Finish().ok());
    store.Flush();
  }
};

}  // namespace

// The session's tap: what it holds at its peak, against the sorter's.
TEST_CASE("sorted tap: the session's analyses hold at most the sorter's pending events", "[sorted-tap][corpus]") {
  for (const std::string& name : test::CorpusTraces()) {
    INFO(name);
    auto s = std::make_unique<SessionTap>();
    s->Read(name);
    REQUIRE(s->tap.pending() == 0);
    REQUIRE(s->tap.peakPending() <= s->store.sorter().peakPending());
    WARN(name << ": the session's tap held at most " << s->tap.peakPending() << " events ("
              << s->tap.peakArenaBytes() << " payload bytes); sorter peak " << s->store.sorter().peakPending()
              << " of " << s->store.store().size() << " events");
  }
}

// The session's sinks filter SuspendEEStart by its Reason (analysis/runtime/gc_suspension.h) and read
// SuspendEEStop and RestartEEStop from the header alone: the tap holds every event of a kind
// they read except the suspensions not for a GC and the stops and restarts (of a thread the
// resolver knows), which together are most of a sample-heavy trace's (the sampler suspends
// the runtime for each sample).
TEST_CASE("sorted tap: suspensions not for a GC, stops and restarts are not held", "[sorted-tap][corpus]") {
  uint64_t skippedInAll = 0, rebuiltInAll = 0;
  for (const std::string& name : test::CorpusTraces()) {
    INFO(name);
    auto s = std::make_unique<SessionTap>();
    s->Read(name);
    CHECK(s->tap.heldCount() == s->counter.wanted - s->counter.notForGc - s->counter.stopsOfKnownThreads);
    skippedInAll += s->counter.notForGc;
    rebuiltInAll += s->counter.stopsOfKnownThreads;
    if (name == "only_managed_samples.nettrace") {
      CHECK(s->counter.notForGc * 4 > s->counter.wanted);
      CHECK(s->counter.stopsOfKnownThreads * 2 > s->counter.wanted);
    }
  }
  CHECK(skippedInAll > 0);
  CHECK(rebuiltInAll > 0);
}

namespace {
// A sink reading only SuspendEEStart, filtered by a rule (none: every one), that counts the
// times the tap asks it and keeps what `keep` says.
struct RuleSink : TimeOrderedSink {
  RuleSink(TapFilterRule r, bool k) : rule(r), keep(k) {}
  TapFilterRule rule;
  bool keep;
  uint64_t asked = 0, got = 0;
  void OnTraceInfo(const TraceInfo&) override {}
  bool Reads(EventKind k) const override { return k == EventKind::kGcSuspendEEStart; }
  TapFilterRule FilterRule(EventKind) const override { return rule; }
  bool Keeps(const EventRecord&, const ResolvedEvent&) override { return ++asked, keep; }
  void OnTimeOrdered(const TimeOrderedEvent&) override { ++got; }
};

// Reader → resolver → store with the tap over `sinks` (which must be constructed first: the
// tap asks them what they read).
struct SinkPipeline {
  explicit SinkPipeline(std::vector<TimeOrderedSink*> sinks) : tap(std::move(sinks)) {}
  Stats stats;
  SortedTap tap;
  StoreBuilder store{&stats, &resolver, &tap};
  TypeResolver resolver{&store, &stats};
  TraceReader reader{&resolver, &stats};
  void Read(const std::vector<uint8_t>& bytes) {
    REQUIRE(reader.Push(bytes.data(), bytes.size()).ok());
    REQUIRE(reader.Finish().ok());
    store.Flush();
  }
};
}  // namespace

// Sinks that name the same filter rule keep the same events: the tap asks the first of them
// only (the GC statistics and the runtime signals read a suspension's Reason once between
// them), and asks none when some reader takes every event of the kind.
TEST_CASE("sorted tap: of the sinks naming one filter rule, only the first is asked", "[sorted-tap][corpus]") {
  const std::vector<uint8_t> bytes = test::ReadFile(test::DataPath("only_managed_samples.nettrace"));
  RuleSink first(TapFilterRule::kGcSuspensionsOnly, false), second(TapFilterRule::kGcSuspensionsOnly, false);
  {
    SinkPipeline p({&first, &second});
    p.Read(bytes);
    CHECK(first.asked > 1000);  // every SuspendEEStart: the sampler's, one per sample
    CHECK(second.asked == 0);
    CHECK(first.got + second.got == 0);
    CHECK(p.tap.heldCount() == 0);
  }
  RuleSink keeping(TapFilterRule::kGcSuspensionsOnly, true), other(TapFilterRule::kGcSuspensionsOnly, false);
  {
    SinkPipeline p({&keeping, &other});
    p.Read(bytes);
    CHECK(keeping.asked == first.asked);
    CHECK(other.asked == 0);
    CHECK(keeping.got == first.asked);  // kept: both sinks get each one
    CHECK(other.got == first.asked);
  }
  RuleSink filtering(TapFilterRule::kGcSuspensionsOnly, false), everything(TapFilterRule::kNone, false);
  {
    SinkPipeline p({&filtering, &everything});
    p.Read(bytes);
    CHECK(filtering.asked + everything.asked == 0);
    CHECK(everything.got == first.asked);
  }
}

TEST_CASE("sorted tap: GC and JIT results equal those of the file-order analyses (golden files)", "[sorted-tap][corpus]") {
  size_t compared = 0;
  for (const std::string& name : test::CorpusTraces()) {
    INFO(name);
    TraceSession session;
    const std::vector<uint8_t> bytes = test::ReadFile(test::DataPath(name));
    REQUIRE(session.PushChunk(bytes.data(), bytes.size()).ok());
    REQUIRE(session.Finish().ok());
    for (const char* view : {"gc", "jit"}) {
      const std::string path = test::DataPath("golden/gc/" + name + "." + view + ".json");
      const std::vector<uint8_t> golden = test::ReadFile(path);
      const std::string got = (std::string(view) == "gc" ? session.GcJson() : session.JitJson()) + "\n";
      if (golden.empty()) {  // no golden file: the trace has no GC (or no jitted method)
        REQUIRE(got == "{\"processes\":[]}\n");
        continue;
      }
      REQUIRE(got == std::string(golden.begin(), golden.end()));
      ++compared;
    }
  }
  REQUIRE(compared == 10);
}

namespace {

// GCSuspendEE_V1: Reason, Count, ClrInstanceID.
std::vector<uint8_t> SuspendForGc() { return PayloadBuilder().AppendU32(1).AppendU32(1).AppendU16(7).bytes(); }
std::vector<uint8_t> RestartEE() { return PayloadBuilder().AppendU16(7).bytes(); }  // GCNoUserData
// GCStart_V2: Count, Depth, Reason, Type, ClrInstanceID, ClientSequenceNumber.
std::vector<uint8_t> GcStart(uint32_t count, uint32_t depth) {
  return PayloadBuilder().AppendU32(count).AppendU32(depth).AppendU32(0).AppendU32(0).AppendU16(7).AppendU64(0).bytes();
}
// GCEnd_V1: Count, Depth, ClrInstanceID.
std::vector<uint8_t> GcEnd(uint32_t count, uint32_t depth) {
  return PayloadBuilder().AppendU32(count).AppendU32(depth).AppendU16(7).bytes();
}
// ThreadPoolWorkerThreadAdjustment/Adjustment: AverageThroughput, NewWorkerThreadCount, Reason,
// ClrInstanceID.
std::vector<uint8_t> PoolAdjustment(uint32_t newCount) {
  return PayloadBuilder().AppendF64(10.5).AppendU32(newCount).AppendU32(6).AppendU16(7).bytes();
}
// ThreadPoolWorkerThread/Start: ActiveWorkerThreadCount, RetiredWorkerThreadCount, ClrInstanceID.
std::vector<uint8_t> PoolWorkerStart(uint32_t active) {
  return PayloadBuilder().AppendU32(active).AppendU32(0).AppendU16(7).bytes();
}

// Two threads' GC, JIT and thread pool events (times in µs from 1 s). Thread 1 suspends and restarts the
// runtime; thread 2 runs the GCs in between. In time order a pause holds each GC.
// lying: each thread's events written one thread after the other, every one marked IsSorted,
// so thread 2's events come after thread 1's later ones were released: late (thread 1's,
// with its suspensions and restarts, when gcThreadFirst). Otherwise the same events in time
// order, none marked.
std::vector<uint8_t> TwoThreadGcTrace(bool lying, bool gcThreadFirst = false) {
  using test::RuntimeEventMetadata;
  const std::vector<EventMetadata> meta = {RuntimeEventMetadata(1, 9, 1),   RuntimeEventMetadata(2, 3, 1),
                                           RuntimeEventMetadata(3, 1, 2),   RuntimeEventMetadata(4, 2, 1),
                                           RuntimeEventMetadata(5, 141, 1), RuntimeEventMetadata(6, 55, 0),
                                           RuntimeEventMetadata(7, 50, 0)};
  using test::JittedMethodLoadPayload;
  std::vector<test::RuntimeTraceEvent> byThread[2] = {
      {{1, 1, 1000, SuspendForGc()}, {5, 1, 1250, JittedMethodLoadPayload(1, 64)}, {6, 1, 1260, PoolAdjustment(4)},
       {7, 1, 1270, PoolWorkerStart(2)}, {2, 1, 1500, RestartEE()}, {1, 1, 3000, SuspendForGc()},
       {2, 1, 3400, RestartEE()}},
      {{3, 2, 1100, GcStart(1, 0)}, {5, 2, 1200, JittedMethodLoadPayload(2, 96)}, {6, 2, 1210, PoolAdjustment(3)},
       {7, 2, 1220, PoolWorkerStart(1)}, {4, 2, 1300, GcEnd(1, 0)}, {3, 2, 3100, GcStart(2, 1)},
       {4, 2, 3300, GcEnd(2, 1)}},
  };
  if (gcThreadFirst) std::swap(byThread[0], byThread[1]);
  std::vector<test::RuntimeTraceEvent> all;
  for (auto& t : byThread) all.insert(all.end(), t.begin(), t.end());
  if (!lying) std::stable_sort(all.begin(), all.end(), [](const auto& a, const auto& b) { return a.us < b.us; });
  return test::WriteRuntimeEventsTrace(meta, {test::RuntimeThread(1, 100), test::RuntimeThread(2, 200)}, all,
                                       {.isSorted = lying});
}

struct Results {
  std::string gc, jit, runtime, summary, threadPool, threadPoolCsv;
};

Results Analyse(const std::vector<uint8_t>& bytes) {
  TraceSession session;
  REQUIRE(session.PushChunk(bytes.data(), bytes.size()).ok());
  REQUIRE(session.Finish().ok());
  Results r{session.GcJson(), session.JitJson(), "", session.SummaryJson(), session.ThreadPoolView(),
            session.ThreadPoolView(true)};
  const size_t from = r.summary.find("\"runtime\":"), to = r.summary.find(",\"stats\":");
  REQUIRE(from != std::string::npos);
  REQUIRE(to > from);
  r.runtime = r.summary.substr(from, to - from);
  return r;
}

}  // namespace

TEST_CASE("sorted tap: late events leave GC, JIT, thread pool and runtime results those of the time-ordered file",
          "[sorted-tap]") {
  const Results honest = Analyse(TwoThreadGcTrace(false));
  const Results lying = Analyse(TwoThreadGcTrace(true));
  // The lying file did deliver late events (the sorter counts them), the honest one none.
  REQUIRE(honest.summary.find("isSortedHintViolations") == std::string::npos);
  REQUIRE(lying.summary.find("\"name\":\"isSortedHintViolations\",\"value\":7") != std::string::npos);
  // The time-ordered results: both GCs inside a pause, the methods in time order.
  REQUIRE(honest.gc.find("\"number\":1") != std::string::npos);
  REQUIRE(honest.gc.find("\"number\":2") != std::string::npos);
  // Pauses are the GC statistics' (complete GCs only: these have no HeapStats), compared below.
  REQUIRE(honest.runtime.find("\"generation\":0,\"count\":1,") != std::string::npos);
  REQUIRE(honest.jit.find("\"nativeSize\":96") < honest.jit.find("\"nativeSize\":64"));
  REQUIRE(honest.threadPoolCsv.find(",3,10.5") < honest.threadPoolCsv.find(",4,10.5"));
  REQUIRE(honest.threadPool.find("\"active\":1") < honest.threadPool.find("\"active\":2"));
  CHECK(lying.gc == honest.gc);
  CHECK(lying.jit == honest.jit);
  CHECK(lying.runtime == honest.runtime);
  CHECK(lying.threadPool == honest.threadPool);
  CHECK(lying.threadPoolCsv == honest.threadPoolCsv);
  // The same when the late events are the suspending thread's (its stops and restarts are
  // rebuilt from the sorted item, not copied).
  const Results lyingGcFirst = Analyse(TwoThreadGcTrace(true, true));
  REQUIRE(lyingGcFirst.summary.find("\"name\":\"isSortedHintViolations\",\"value\":") != std::string::npos);
  CHECK(lyingGcFirst.gc == honest.gc);
  CHECK(lyingGcFirst.jit == honest.jit);
  CHECK(lyingGcFirst.runtime == honest.runtime);
  CHECK(lyingGcFirst.threadPool == honest.threadPool);
}

// A v6 thread that changes under pending events (nothing is released before the end: no
// IsSorted mark, no sequence point): index 1 suspends and restarts the runtime for a GC, is
// removed and redefined as another OS thread of another process, which does the same earlier.
// (An index never defined is a fatal reference error, so a rebuilt event's thread is always
// in the table: only a full table leaves an event's thread unknown, and such events are held.)
std::vector<uint8_t> RedefinedThreadsTrace() {
  NetTraceV6Writer w;
  TraceInfo info;
  info.syncTimeUtc = {2025, 3, 1, 6, 7, 8, 9, 0};
  info.tickFrequency = 1000000, info.pointerSize = 8, info.processId = 42;
  REQUIRE(w.WriteTraceBlock(info).ok());
  REQUIRE(w.WriteMetadataBlock(std::vector<EventMetadata>{test::RuntimeEventMetadata(1, 9, 1),
                                                          test::RuntimeEventMetadata(2, 3, 1),
                                                          test::RuntimeEventMetadata(3, 8, 1)})  // 8: SuspendEEStop
              .ok());
  ThreadInfo first, second;
  first.index = 1, first.osThreadId = 100, first.osProcessId = 42;
  second.index = 1, second.osThreadId = 300, second.osProcessId = 43;
  uint32_t seq = 0;
  // The records' payloads point into these until they are written.
  const std::vector<uint8_t> suspend = SuspendForGc(), restart = RestartEE();
  auto events = [&](uint32_t thread, uint64_t us) {
    std::vector<EventRecord> v;
    const std::pair<uint32_t, const std::vector<uint8_t>*> kinds[] = {{1, &suspend}, {3, &restart}, {2, &restart}};
    for (const auto& [metadata, payload] : kinds) {
      EventRecord e;
      e.metadataId = metadata, e.thread = e.captureThread = thread, e.sequenceNumber = ++seq;
      e.timestamp = 1000000 + us++;
      e.payload = *payload;
      v.push_back(e);
    }
    return v;
  };
  REQUIRE(w.WriteThreadBlock(std::vector<ThreadInfo>{first}).ok());
  REQUIRE(w.WriteEvents(events(1, 100), /*compressed=*/true).ok());
  REQUIRE(w.WriteRemoveThreadBlock(std::vector<ThreadSequence>{{1, seq}}).ok());
  REQUIRE(w.WriteThreadBlock(std::vector<ThreadInfo>{second}).ok());
  REQUIRE(w.WriteEvents(events(1, 50), /*compressed=*/true).ok());  // earlier: released first
  REQUIRE(w.WriteEndOfStream().ok());
  return w.TakeBytes();
}

namespace {
// Every corpus trace (v4/v5 threads, v6 thread blocks), then the written v6 traces whose stops
// and restarts test the tap's edge cases: the two-thread GC honest and lying (late events,
// the suspending thread's among them), and a thread index redefined under pending events.
std::vector<std::pair<std::string, std::vector<uint8_t>>> StopAndRestartTraces() {
  std::vector<std::pair<std::string, std::vector<uint8_t>>> traces;
  for (const std::string& name : test::CorpusTraces()) traces.emplace_back(name, test::ReadFile(test::DataPath(name)));
  traces.emplace_back("two-thread GC, in time order", TwoThreadGcTrace(false));
  traces.emplace_back("two-thread GC, lying IsSorted", TwoThreadGcTrace(true));
  traces.emplace_back("two-thread GC, lying IsSorted, GC thread first", TwoThreadGcTrace(true, true));
  traces.emplace_back("a v6 thread index redefined under pending events", RedefinedThreadsTrace());
  return traces;
}
}  // namespace

// A kind every reader reads from the header (ReadsFromHeader) is not copied but rebuilt from
// the sorted item and the thread table when it passes: the reader gets, event for event, what
// it got from the held copy, in the same order, with the same late flags; on every corpus trace
// (v4/v5 threads, v6 thread blocks) and on the two-thread v6 trace, honest and lying.
TEST_CASE("sorted tap: events rebuilt from the sorted item are those it would have held", "[sorted-tap][corpus]") {
  const std::vector<EventKind> stops = {EventKind::kGcSuspendEEStop, EventKind::kGcRestartEEStop};
  const auto traces = StopAndRestartTraces();
  uint64_t rebuiltInAll = 0, lateRebuilt = 0;
  for (const auto& [name, bytes] : traces) {
    INFO(name);
    auto held = std::make_unique<TapPipeline>();
    auto rebuilt = std::make_unique<TapPipeline>(stops);
    held->Read(bytes);
    rebuilt->Read(bytes);
    const auto& a = held->recorder.got;
    const auto& b = rebuilt->recorder.got;
    REQUIRE(a.size() == b.size());
    uint64_t rebuiltHere = 0;
    for (size_t i = 0; i < a.size(); ++i) {
      INFO("event " << i << " of " << a.size());
      REQUIRE_FALSE(a[i].headerOnly);
      REQUIRE(b[i].ordinal == a[i].ordinal);
      REQUIRE(b[i].kind == a[i].kind);
      REQUIRE(b[i].timestamp == a[i].timestamp);
      REQUIRE(b[i].late == a[i].late);
      REQUIRE(b[i].processId == a[i].processId);
      REQUIRE(b[i].osThreadId == a[i].osThreadId);
      REQUIRE(b[i].thread == a[i].thread);
      const bool stop = a[i].kind == EventKind::kGcSuspendEEStop || a[i].kind == EventKind::kGcRestartEEStop;
      if (!b[i].headerOnly) {
        REQUIRE(b[i].payloadHash == a[i].payloadHash);
      } else {
        REQUIRE(stop);
        ++rebuiltHere;
        lateRebuilt += b[i].late;
      }
    }
    CHECK(rebuilt->tap.heldCount() + rebuiltHere == held->tap.heldCount());
    rebuiltInAll += rebuiltHere;
    if (name.rfind("a v6 thread index", 0) == 0) {  // each definition's stop and restart
      std::vector<std::pair<uint64_t, uint64_t>> threads;
      for (const Recorder::Got& g : b)
        if (g.headerOnly) threads.emplace_back(g.processId, g.osThreadId);
      CHECK(threads == std::vector<std::pair<uint64_t, uint64_t>>{{43, 300}, {43, 300}, {42, 100}, {42, 100}});
      CHECK(b.size() == 6);
    }
  }
  CHECK(rebuiltInAll > 40000);  // only_managed_samples alone has 14,846
  CHECK(lateRebuilt > 0);       // the restarts of the trace whose GC thread comes first
}

namespace {

// Forwards everything to a sink but hides its HeaderGate: the tap then rebuilds and sends
// it every stop and restart, as it did before the gates.
struct Ungated : TimeOrderedSink {
  explicit Ungated(TimeOrderedSink* s) : sink(s) {}
  TimeOrderedSink* sink;
  void OnTraceInfo(const TraceInfo& info) override { sink->OnTraceInfo(info); }
  void OnMetadataKind(EventKind k) override { sink->OnMetadataKind(k); }
  bool Reads(EventKind k) const override { return sink->Reads(k); }
  TapFilterRule FilterRule(EventKind k) const override { return sink->FilterRule(k); }
  bool Keeps(const EventRecord& e, const ResolvedEvent& r) override { return sink->Keeps(e, r); }
  bool ReadsFromHeader(EventKind k) const override { return sink->ReadsFromHeader(k); }
  void OnTimeOrdered(const TimeOrderedEvent& e) override { sink->OnTimeOrdered(e); }
};

// The GC statistics and the runtime signals behind the tap, with their gates or without.
struct GatePipeline {
  explicit GatePipeline(bool gated)
      : pipeline(gated ? std::vector<TimeOrderedSink*>{&runtime, &clr}
                       : std::vector<TimeOrderedSink*>{&runtimeUngated, &clrUngated}) {}
  RuntimeSignals runtime;
  ClrStatsSink clr;
  Ungated runtimeUngated{&runtime}, clrUngated{&clr};
  SinkPipeline pipeline;

  const SortedTap& tap() const { return pipeline.tap; }
  std::string RuntimeJson() const {
    JsonWriter w;
    w.BeginObject();
    runtime.WriteJson(w, &clr.gc());
    w.EndObject();
    return w.Take();
  }
};

}  // namespace

// A stop or restart read from the header changes the GC statistics or the runtime signals
// only while some thread's GC suspension is open (or, for the statistics, once their marks
// are full): outside those times the tap drops it unbuilt, and every result stays what the
// sinks computed when they got them all, late events included.
TEST_CASE("sorted tap: stops and restarts no open gate wants are dropped, results unchanged", "[sorted-tap][corpus]") {
  const auto traces = StopAndRestartTraces();
  uint64_t gatedInAll = 0, sentInAll = 0;
  for (const auto& [name, bytes] : traces) {
    INFO(name);
    auto gated = std::make_unique<GatePipeline>(true);
    auto all = std::make_unique<GatePipeline>(false);
    gated->pipeline.Read(bytes);
    all->pipeline.Read(bytes);
    CHECK(all->tap().gatedCount() == 0);
    CHECK(gated->tap().gatedCount() + gated->tap().rebuiltCount() == all->tap().rebuiltCount());
    CHECK(gated->clr.gc().ToJson() == all->clr.gc().ToJson());
    CHECK(gated->clr.gc().ToCsv() == all->clr.gc().ToCsv());
    CHECK(gated->clr.gc().marksDropped() == all->clr.gc().marksDropped());
    CHECK(gated->clr.jit().ToJson() == all->clr.jit().ToJson());
    CHECK(gated->RuntimeJson() == all->RuntimeJson());
    if (name == "only_managed_samples.nettrace") CHECK(gated->tap().gatedCount() * 10 > all->tap().rebuiltCount() * 9);
    gatedInAll += gated->tap().gatedCount();
    sentInAll += gated->tap().rebuiltCount();
  }
  CHECK(gatedInAll > 40000);
  CHECK(sentInAll > 0);  // the GCs' own stops and restarts still come
}
