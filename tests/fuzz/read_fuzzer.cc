// tests/fuzz — read_fuzzer: the whole engine facade (core/trace_session.h) on hostile
// bytes, called the way the CLI (core/cli/nettrace_tool.cc) and the wasm bindings
// (wasm/bindings.cc) call it: push the trace in chunks (fuzz_input.h), finish, then every
// query — summary, counts, event pages with header/payload detail and stacks, free-text
// search (the native loop and the JS API's step protocol), histograms, flame graph / top /
// folded / sandwich, and the speedscope, Chrome trace and CSV exports.
//
// Beyond "no crash under ASan/UBSan" it asserts what callers rely on: errors name a byte
// offset, every JSON output is valid JSON, event rows are in time order, pages and search
// results hold valid ascending rows, the two search protocols agree, and flame graph
// layouts keep their invariants (analysis/flame_graph.h). Work per input is bounded: a
// few pages, one search text per protocol, two stack queries.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "analysis/call_tree.h"
#include "analysis/event_query.h"
#include "analysis/flame_graph.h"
#include "analysis/histogram.h"
#include "reread/text_search.h"
#include "model/store_builder.h"
#include "trace_session.h"
#include "fuzz_check.h"
#include "fuzz_input.h"
#include "json_check.h"

namespace nettrace::fuzz {
namespace {

// A small deterministic per-input value that picks query variants (FNV-1a).
uint64_t Knob(std::span<const uint8_t> bytes) {
  uint64_t h = 1469598103934665603ull;
  for (uint8_t b : bytes) h = (h ^ b) * 1099511628211ull;
  return h;
}

void CheckJson(const std::string& json, const char* what) {
  FUZZ_CHECK(IsValidJson(json), std::string(what) + " is not valid JSON: " + json.substr(0, 400));
}

void CheckRows(const TraceSession& s, const std::vector<uint32_t>& rows, const char* what) {
  const size_t n = s.model().store().size();
  for (size_t i = 0; i < rows.size(); ++i) {
    FUZZ_CHECK(rows[i] < n, std::string(what) + ": row out of range");
    FUZZ_CHECK(i == 0 || rows[i - 1] < rows[i], std::string(what) + ": rows not strictly ascending");
  }
}

// The event table's store must be in time order once the read is over (the sorter and
// the late-event merge, model/event_store.h).
void CheckTimeOrder(const TraceSession& s) {
  const EventStore& store = s.model().store();
  for (size_t i = 1; i < store.size(); ++i)
    FUZZ_CHECK(store.timestamp(i - 1) <= store.timestamp(i), "store row " + std::to_string(i) + " is earlier than row " +
                                                                 std::to_string(i - 1));
}

// The CLI's `events` step: ask which blocks the rows need, read them from the file and
// hand them back; `shift` != 0 hands back the wrong bytes (a file changed under us).
void ProvideBlocks(TraceSession& s, std::span<const uint8_t> file, const std::vector<uint32_t>& rows, size_t shift) {
  for (const ByteRange& r : s.BlocksNeeded(rows)) {
    FUZZ_CHECK(r.offset <= file.size() && r.size <= file.size() - r.offset, "BlocksNeeded names bytes past the end");
    if (r.offset + r.size + shift > file.size()) continue;
    s.ProvideBlock(r.offset, file.data() + r.offset + shift, r.size);
  }
}

void EventPages(TraceSession& s, std::span<const uint8_t> file, uint64_t knob) {
  const size_t n = s.model().store().size();
  EventQuery first;
  first.limit = 40;
  uint64_t total = 0;
  std::vector<uint32_t> rows = s.QueryEvents(first, &total);
  FUZZ_CHECK(total == n && rows.size() == std::min<size_t>(n, 40), "the unfiltered query misses events");
  CheckRows(s, rows, "first page");
  ProvideBlocks(s, file, rows, 0);
  for (uint32_t row : rows) {
    CheckJson(s.EventJson(row), "EventJson");
    s.EventStack(row);
  }
  if (n == 0) return;
  // A filtered page at the end of the table (the app's End key), on the last row's
  // provider, name, thread and time, its blocks provided with the wrong bytes half the time.
  const EventType& type = s.model().types()[s.model().store().type(n - 1)];
  const ThreadEntry& thread = s.model().threads()[s.model().store().thread(n - 1)];
  EventQuery last;
  if (knob & 1) last.provider = type.metadata.providerName;
  if (knob & 2) last.name = type.name;
  if ((knob & 4) && thread.osThreadId) last.thread = *thread.osThreadId;
  if (knob & 8) last.fromMs = TicksToMs(s.model().info(), s.model().store().timestamp(0)) + 0.5;
  if (knob & 16) last.toMs = TicksToMs(s.model().info(), s.model().store().timestamp(n - 1));
  s.QueryEvents(last, &total);
  last.offset = total > 10 ? total - 10 : 0;
  rows = s.QueryEvents(last, nullptr);
  CheckRows(s, rows, "last page");
  ProvideBlocks(s, file, rows, (knob & 32) ? 1 : 0);
  for (uint32_t row : rows) CheckJson(s.EventJson(row), "EventJson (last page)");
  FUZZ_CHECK(s.EventJson(static_cast<uint32_t>(n)) == "null", "EventJson past the end");
  FUZZ_CHECK(s.EventStack(static_cast<uint32_t>(n)).empty(), "EventStack past the end");
}

// Free text: the native loop (SearchText, big steps) and the JS API's protocol (ScanText
// in small steps, blocks provided, MatchPayloadText) must find the same rows.
void TextSearch(TraceSession& s, std::span<const uint8_t> file, const std::string& text) {
  EventQuery q;
  q.text = text;
  std::vector<uint32_t> native;
  Status st = s.SearchText(
      q,
      [&](uint64_t offset, uint64_t size, std::vector<uint8_t>* out) {
        if (offset > file.size() || size > file.size() - offset) return false;
        out->assign(file.begin() + static_cast<ptrdiff_t>(offset), file.begin() + static_cast<ptrdiff_t>(offset + size));
        return true;
      },
      &native);
  if (!st.ok()) return;  // a block the file does not hold: the CLI reports it too
  CheckRows(s, native, "SearchText");
  std::vector<uint32_t> stepped;
  for (uint64_t cursor = 0;;) {
    TextScanStep step = s.ScanText(q, cursor, 7);
    ProvideBlocks(s, file, step.needPayload, 0);
    std::vector<uint32_t> more = s.MatchPayloadText(step.needPayload, text);
    stepped.insert(stepped.end(), step.matches.begin(), step.matches.end());
    stepped.insert(stepped.end(), more.begin(), more.end());
    FUZZ_CHECK(step.next > cursor || step.next >= step.end, "ScanText makes no progress");
    if (step.next >= step.end) break;
    cursor = step.next;
  }
  std::sort(stepped.begin(), stepped.end());
  FUZZ_CHECK(stepped == native, "ScanText steps and SearchText disagree on '" + text + "'");
}

void Histograms(const TraceSession& s, uint64_t knob) {
  HistogramQuery hq;
  hq.buckets = static_cast<uint32_t>(knob % 300);
  hq.groupBy = static_cast<HistogramGroup>((knob >> 9) % 3);
  Histogram h = s.BuildHistogram(hq);
  FUZZ_CHECK(h.counts.size() == h.series.size() * h.buckets, "histogram counts are not series × buckets");
  double sum = 0;
  for (double c : h.counts) sum += c;
  FUZZ_CHECK(sum == static_cast<double>(h.total), "histogram total is not the sum of its buckets");
  FUZZ_CHECK(h.total <= s.model().store().size(), "histogram counts more events than there are");
}

// analysis/flame_graph.h's invariants, for every layout the views draw.
void CheckFlameGraph(const FlameGraph& g) {
  const size_t n = g.size();
  FUZZ_CHECK(g.parent.size() == n && g.depth.size() == n && g.start.size() == n && g.end.size() == n &&
                 g.self.size() == n && g.count.size() == n,
             "flame graph columns differ in length");
  if (n == 0) return;
  FUZZ_CHECK(g.depth[0] == 0 && g.start[0] == 0 && g.end[0] == g.total, "flame graph root is not [0, total)");
  for (size_t i = 0; i < n; ++i) {
    FUZZ_CHECK(g.frame[i] < g.frameNames.size(), "flame graph frame index out of range");
    FUZZ_CHECK(g.start[i] <= g.end[i] && g.self[i] <= g.end[i] - g.start[i], "flame graph node wider than itself");
    if (i == 0) continue;
    const uint32_t p = g.parent[i];
    FUZZ_CHECK(p < i, "flame graph parent after its child");
    FUZZ_CHECK(g.depth[i] == g.depth[p] + 1, "flame graph child not one row below its parent");
    FUZZ_CHECK(g.start[p] <= g.start[i] && g.end[i] <= g.end[p], "flame graph child outside its parent");
  }
}

void StackViews(const TraceSession& s, const StackQuery& q) {
  CheckJson(s.FlameGraphJson(q), "FlameGraphJson");
  FlameGraph g = s.BuildFlameGraph(q);
  CheckFlameGraph(g);
  s.FoldedStacks(q);
  CheckJson(s.TopFunctionsJson(q, 10), "TopFunctionsJson");
  // The sandwich of a frame the graph shows (the heaviest child of the root), or of a name
  // no trace has.
  const std::string fn = g.size() > 1 ? g.frameNames[g.frame[1]] : "no such frame";
  CheckJson(s.SandwichJson(q, fn), "SandwichJson");
  FlameGraph callers, callees;
  s.BuildSandwich(q, fn, &callers, &callees);
  CheckFlameGraph(callers);
  CheckFlameGraph(callees);
  CheckJson(s.ExportSpeedscope(q, "fuzz \xE2\x9C\x93"), "ExportSpeedscope");
}

void Stacks(const TraceSession& s, uint64_t knob) {
  StackViews(s, StackQuery{});  // the CLI's default: sample-profiler samples
  const size_t n = s.model().store().size();
  if (n == 0) return;
  // The second query is on the type of some event, with options the knob picks.
  const uint32_t row = static_cast<uint32_t>((knob >> 16) % n);
  StackQuery q;
  q.event = s.model().types()[s.model().store().type(row)].name;
  q.inverted = knob & (1 << 24);
  q.groupByThread = knob & (1 << 25);
  q.groupByProcess = knob & (1 << 26);
  q.weight = static_cast<WeightKind>((knob >> 27) % 7);  // kAuto … kWaitTime
  // Exception/Start throws of one type (the event views' narrowing): a type the trace may have.
  if (knob & (1ull << 35)) q.exceptionType = "System.InvalidOperationException";
  if (knob & (1 << 30)) q.fromMs = TicksToMs(s.model().info(), s.model().store().timestamp(row));
  if (knob & (1ull << 31)) q.toMs = TicksToMs(s.model().info(), s.model().store().timestamp(n - 1));
  // The CLI's --thread / --process / --provider filters, on the chosen event's own values.
  const ThreadEntry& thread = s.model().threads()[s.model().store().thread(row)];
  if ((knob & (1ull << 32)) && thread.osThreadId) q.thread = *thread.osThreadId;
  if ((knob & (1ull << 33)) && thread.processId) q.process = *thread.processId;
  if (knob & (1ull << 34)) q.provider = s.model().types()[s.model().store().type(row)].metadata.providerName;
  StackViews(s, q);
}

}  // namespace
}  // namespace nettrace::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace nettrace;
  using namespace nettrace::fuzz;
  const FuzzTrace t = SplitFuzzInput(data, size);
  const uint64_t knob = Knob(t.bytes);
  TraceSession s;
  // Half the inputs leave method names in the file, read back (from the input's bytes, as
  // the native tool reads its file) when stacks are first asked for.
  if (knob & (uint64_t{1} << 36)) {
    s.KeepNamesInSource([&t](uint64_t offset, uint64_t n, std::vector<uint8_t>* out) {
      if (offset > t.bytes.size() || n > t.bytes.size() - offset) return false;
      out->assign(t.bytes.begin() + static_cast<ptrdiff_t>(offset), t.bytes.begin() + static_cast<ptrdiff_t>(offset + n));
      return true;
    });
  }
  const Status st = FeedInChunks(
      t, [&](const uint8_t* p, size_t n) { return s.PushChunk(p, n); }, [&] { return s.Finish(); });
  FUZZ_CHECK(ErrorProblem(st, t.bytes.size()).empty(), ErrorProblem(st, t.bytes.size()));
  FUZZ_CHECK(s.bytesConsumed() <= t.bytes.size(), "consumed more bytes than were pushed");
  CheckTimeOrder(s);

  CheckJson(s.SummaryJson(), "SummaryJson");
  s.TraceEventCounts();
  s.StoreBytesPerEvent();
  EventPages(s, t.bytes, knob);
  TextSearch(s, t.bytes, (knob & 64) ? "1" : "e");
  Histograms(s, knob);
  Stacks(s, knob);
  CheckJson(s.ExportChromeTrace(), "ExportChromeTrace");
  s.ExportEventsCsv();
  // The event views (issue 14): JSON that parses, CSV that is produced.
  CheckJson(s.ExceptionsView(), "ExceptionsView");
  CheckJson(s.ContentionView(), "ContentionView");
  CheckJson(s.ActivitiesView(), "ActivitiesView");
  CheckJson(s.CountersView(), "CountersView");
  s.ExceptionsView(true), s.ContentionView(true), s.ActivitiesView(true), s.CountersView(true);
  // GC and JIT statistics (issue 14).
  CheckJson(s.GcJson(), "GcJson");
  CheckJson(s.JitJson(), "JitJson");
  s.GcCsv(), s.JitCsv();
  return 0;
}
