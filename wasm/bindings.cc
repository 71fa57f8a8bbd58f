// wasm/ — the embind surface of the engine facade (core/trace_session.h). Conversions only:
// no parsing, no policy. Every function here is a one-line forward to TraceSession, so that
// replacing embind with extern "C" later is a change to this folder alone.
//
// Bytes cross once: JS copies a chunk into a wasm-heap buffer it allocated with _malloc
// (M.HEAPU8.set) and passes (pointer, length). The pointer is a uintptr_t: embind carries
// it as an unsigned Number, so buffers above 2 GiB round-trip.
#include <emscripten/bind.h>
#include <emscripten/heap.h>
#include <emscripten/val.h>

#include <malloc.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "analysis/stacks/call_tree.h"
#include "api/command_line.h"
#include "api/query_options.h"
#include "analysis/query/event_query.h"
#include "analysis/query/histogram.h"
#include "reread/text_search.h"
#include "base/status.h"
#include "analysis/stacks/flame_graph.h"
#include "convert/convert_session.h"
#include "export/export_stream.h"
#include "export/payload_csv_export.h"
#include "trace_session.h"
#include "verdict/budget_file.h"
#include "write/universal_trace_writer.h"
#include "write/warm_up_trace.h"

namespace {

using emscripten::val;
using nettrace::Status;
using nettrace::TraceSession;

// Status → {ok, code, offset, message}; offset is a Number, or null when the error is not
// about a position (kNoOffset). File offsets stay below 2^53, so a double is exact.
val StatusToJs(const Status& status) {
  val out = val::object();
  out.set("ok", status.ok());
  out.set("code", std::string(nettrace::ErrorCodeName(status.code())));
  if (status.offset() == nettrace::kNoOffset) {
    out.set("offset", val::null());
  } else {
    out.set("offset", static_cast<double>(status.offset()));
  }
  out.set("message", status.message());
  return out;
}

val PushChunk(TraceSession& session, std::uintptr_t data, std::size_t size) {
  return StatusToJs(session.PushChunk(reinterpret_cast<const uint8_t*>(data), size));
}
val Finish(TraceSession& session) { return StatusToJs(session.Finish()); }
// NetPerf v1/v2: the bytes wanted from the end of the file, and their delivery.
double TailWanted(const TraceSession& session) { return static_cast<double>(session.TailWanted()); }
val ProvideTail(TraceSession& session, std::uintptr_t data, std::size_t size, double fileSize) {
  return StatusToJs(session.ProvideTail(reinterpret_cast<const uint8_t*>(data), size, static_cast<uint64_t>(fileSize)));
}
val GetStatus(const TraceSession& session) { return StatusToJs(session.status()); }
std::string SummaryJson(const TraceSession& session) { return session.SummaryJson(); }
std::string TraceEventCounts(const TraceSession& session) { return session.TraceEventCounts(); }
// Any query of the model queries' table (core/api/model_queries.h) by name, its request the
// JS API's object as JSON, `args` its positional arguments after FILE → {ok, code, offset,
// message, text}: the native CLI's output for the same command, without its last newline.
val Query(const TraceSession& session, const std::string& name, const std::string& requestJson, const val& args) {
  std::string text;
  const Status status = session.Query(name, requestJson, emscripten::vecFromJSArray<std::string>(args), &text);
  val out = StatusToJs(status);
  out.set("text", text);
  return out;
}
// Counters as Numbers (exact below 2^53) rather than BigInt: they feed progress bars.
double BytesConsumed(const TraceSession& session) { return static_cast<double>(session.bytesConsumed()); }
double EventCount(const TraceSession& session) { return static_cast<double>(session.eventCount()); }
double DroppedEventCount(const TraceSession& session) { return static_cast<double>(session.droppedEventCount()); }
// A live session's snapshot (TraceSession::Snapshot): {rows, pending}.
emscripten::val Snapshot(TraceSession& session) {
  const nettrace::StoreSnapshot s = session.Snapshot();
  emscripten::val out = emscripten::val::object();
  out.set("rows", static_cast<double>(s.rows));
  out.set("pending", static_cast<double>(s.pending));
  return out;
}

// std::vector → a JS-owned typed array (a copy: views into the heap die when memory grows).
template <typename T>
val CopyToJs(const char* arrayType, const std::vector<T>& v) {
  return val::global(arrayType).new_(emscripten::typed_memory_view(v.size(), v.data()));
}

// A plain JS request object → the engine's request, through the one request parser of the
// query table (core/api/query_options.h): the object as JSON, read as that query's options.
// Absent and null members keep the defaults; a member of the wrong type or an unknown enum
// value is left out (the query runs with the default), as before the table.
nettrace::api::Request ToRequest(const char* queryName, const val& js) {
  nettrace::api::Request request;
  if (js.isUndefined() || js.isNull()) return request;
  const std::string json = val::global("JSON").call<std::string>("stringify", js);
  (void)nettrace::api::ParseJsonRequest(*nettrace::api::FindQuery(queryName), json, &request);
  return request;
}
nettrace::EventQuery ToQuery(const val& js) { return ToRequest("events", js).events; }

// → {total: Number, rows: Uint32Array}
val QueryEvents(const TraceSession& session, const val& query) {
  uint64_t total = 0;
  std::vector<uint32_t> rows = session.QueryEvents(ToQuery(query), &total);
  val out = val::object();
  out.set("total", static_cast<double>(total));
  out.set("rows", CopyToJs("Uint32Array", rows));
  return out;
}

// Uint32Array of rows → Float64Array [offset0, size0, offset1, size1, …] (exact below 2^53).
val BlocksNeeded(const TraceSession& session, const val& rows) {
  std::vector<double> flat;
  for (const nettrace::ByteRange& r : session.BlocksNeeded(emscripten::convertJSArrayToNumberVector<uint32_t>(rows))) {
    flat.push_back(static_cast<double>(r.offset));
    flat.push_back(static_cast<double>(r.size));
  }
  return CopyToJs("Float64Array", flat);
}

void ProvideBlock(TraceSession& session, double offset, std::uintptr_t data, std::size_t size) {
  session.ProvideBlock(static_cast<uint64_t>(offset), reinterpret_cast<const uint8_t*>(data), size);
}

// Method names kept in source: the caller reads them back (no reader here).
void KeepNamesInSource(TraceSession& session) { session.KeepNamesInSource(); }
val NameRangesNeeded(TraceSession& session) {
  std::vector<double> flat;
  for (const nettrace::ByteRange& r : session.NameRangesNeeded()) {
    flat.push_back(static_cast<double>(r.offset));
    flat.push_back(static_cast<double>(r.size));
  }
  return CopyToJs("Float64Array", flat);
}
void ProvideNames(TraceSession& session, double offset, std::uintptr_t data, std::size_t size) {
  session.ProvideNames(static_cast<uint64_t>(offset), reinterpret_cast<const uint8_t*>(data), size);
}
std::string EventJson(const TraceSession& session, uint32_t row) { return session.EventJson(row); }

// → string[]: frame names, leaf first.
val EventStack(const TraceSession& session, uint32_t row) {
  val out = val::array();
  for (const std::string& frame : session.EventStack(row)) out.call<void>("push", frame);
  return out;
}

// → string[]: the same stack's return addresses ("0x…"), leaf first.
val EventStackAddresses(const TraceSession& session, uint32_t row) {
  val out = val::array();
  for (const std::string& address : session.EventStackAddresses(row)) out.call<void>("push", address);
  return out;
}

// One text-search step → {matches: Uint32Array, needPayload: Uint32Array, begin, end, next}.
val ScanText(const TraceSession& session, const val& query, double cursor, double maxRows) {
  nettrace::TextScanStep step = session.ScanText(ToQuery(query), static_cast<uint64_t>(cursor), static_cast<uint64_t>(maxRows));
  val out = val::object();
  out.set("matches", CopyToJs("Uint32Array", step.matches));
  out.set("needPayload", CopyToJs("Uint32Array", step.needPayload));
  out.set("begin", static_cast<double>(step.begin));
  out.set("end", static_cast<double>(step.end));
  out.set("next", static_cast<double>(step.next));
  return out;
}
// Uint32Array of rows (blocks provided) → Uint32Array of those whose payload contains text.
val MatchPayloadText(const TraceSession& session, const val& rows, const std::string& text) {
  return CopyToJs("Uint32Array", session.MatchPayloadText(emscripten::convertJSArrayToNumberVector<uint32_t>(rows), text));
}
double StoreBytesPerEvent(const TraceSession& session) { return session.StoreBytesPerEvent(); }

// A histogram request (the query table's filters, buckets and groupBy)
// → {fromMs, toMs, bucketMs, buckets, total, series: string[], counts: Float64Array}
val BuildHistogram(const TraceSession& session, const val& query) {
  const nettrace::api::Request request = ToRequest("histogram", query);
  nettrace::HistogramQuery hq;
  hq.filter = request.events;
  hq.buckets = static_cast<uint32_t>(std::min<uint64_t>(request.buckets.value_or(100), UINT32_MAX));  // clamped again
  hq.groupBy = request.groupBy;
  nettrace::Histogram h = session.BuildHistogram(hq);
  val out = val::object();
  out.set("fromMs", h.fromMs);
  out.set("toMs", h.toMs);
  out.set("bucketMs", h.bucketMs);
  out.set("buckets", h.buckets);
  out.set("total", static_cast<double>(h.total));
  val series = val::array();
  for (const std::string& name : h.series) series.call<void>("push", name);
  out.set("series", series);
  out.set("counts", CopyToJs("Float64Array", h.counts));
  return out;
}

// The stack selection (StackQuery, analysis/stacks/call_tree.h) of flame / top / sandwich / export / diff.
// A request's stack query, its weight "auto" resolved as every consumer's default is.
nettrace::StackQuery ToStackQuery(const TraceSession& s, const val& js) {
  return s.WithDefaultWeight(ToRequest("flame", js).stack);
}

// The query table as JSON (`nettrace schema --json`).
std::string QuerySchemaJson() { return nettrace::verdict::SchemaJson(); }
// The commands and options sections of --help (native: the native tool's commands only).
std::string CliHelp(bool native) { return nettrace::api::CliHelp(native); }
// A command's argv after the command, through the native CLI's parser (api/command_line.h) →
// {ok, code, offset, message, request: the given options as a JSON object, positional: FILE
// and the other positional arguments, help: --help was given}.
val ParseCliArgs(const std::string& command, const val& args) {
  const nettrace::api::QuerySpec* query = nettrace::api::FindQuery(command);
  nettrace::api::Request request;
  nettrace::api::CommandLine line;
  const Status status =
      query ? nettrace::api::ParseCommandLine(*query, emscripten::vecFromJSArray<std::string>(args), &line, &request)
            : Status::Error(nettrace::ErrorCode::kInvalidArgument, nettrace::kNoOffset, "unknown command '" + command + "'");
  val out = StatusToJs(status);
  out.set("request", nettrace::api::RequestJson(request));
  out.set("positional", val::array(line.positional));
  out.set("help", line.help);
  return out;
}
// `PROGRAM COMMAND --help`, and the usage line an argument error ends with ("" for an unknown command).
std::string CommandHelp(const std::string& command, const std::string& program) {
  const nettrace::api::QuerySpec* query = nettrace::api::FindQuery(command);
  return query ? nettrace::api::CommandHelp(*query, program) : std::string();
}
std::string CommandUsage(const std::string& command, const std::string& program) {
  const nettrace::api::QuerySpec* query = nettrace::api::FindQuery(command);
  return query ? nettrace::api::CommandUsage(*query, program) : std::string();
}
// A JS request object (as JSON) through the wasm bindings' parser → {ok, …, request}: what
// the bindings take from it, for tests and for callers that want errors named.
val ParseRequest(const std::string& command, const std::string& json) {
  const nettrace::api::QuerySpec* query = nettrace::api::FindQuery(command);
  nettrace::api::Request request;
  const Status status = query ? nettrace::api::ParseJsonRequest(*query, json, &request)
                              : Status::Error(nettrace::ErrorCode::kInvalidArgument, nettrace::kNoOffset,
                                              "unknown command '" + command + "'");
  val out = StatusToJs(status);
  out.set("request", nettrace::api::RequestJson(request));
  return out;
}
std::string FlameGraphJson(const TraceSession& s, const val& q) { return s.FlameGraphJson(ToStackQuery(s, q)); }
// The laid-out flame graph as columns: ids as Uint32Array, weights (uint64 in the engine,
// exact below 2^53) as Float64Array, frame names as a string array.
val GraphColumns(const nettrace::FlameGraph& g) {
  auto wide = [](const std::vector<uint64_t>& v) { return std::vector<double>(v.begin(), v.end()); };
  val out = val::object();
  out.set("unit", std::string(nettrace::WeightUnitName(g.unit)));
  out.set("total", static_cast<double>(g.total));
  val names = val::array();
  for (const std::string& n : g.frameNames) names.call<void>("push", n);
  out.set("frameNames", names);
  if (nettrace::HasFrameDetails(g)) {  // as the JSON's frameDetails
    val details = val::array();
    for (const std::string& d : g.frameDetails) details.call<void>("push", d);
    out.set("frameDetails", details);
  }
  out.set("frame", CopyToJs("Uint32Array", g.frame));
  out.set("parent", CopyToJs("Uint32Array", g.parent));
  out.set("depth", CopyToJs("Uint32Array", g.depth));
  out.set("start", CopyToJs("Float64Array", wide(g.start)));
  out.set("end", CopyToJs("Float64Array", wide(g.end)));
  out.set("self", CopyToJs("Float64Array", wide(g.self)));
  out.set("count", CopyToJs("Float64Array", wide(g.count)));
  if (g.stitching) {  // traceevent-thread-time: {state, reason?} as in the JSON
    val st = val::object();
    st.set("state", std::string(g.stitching));
    if (g.stitchingReason) st.set("reason", std::string(g.stitchingReason));
    out.set("asyncStitching", st);
  }
  return out;
}
val FlameGraphColumns(const TraceSession& s, const val& q) { return GraphColumns(s.BuildFlameGraph(ToStackQuery(s, q))); }
// {function, callers, callees}: the sandwich's two layouts, each as FlameGraphColumns.
val SandwichColumns(const TraceSession& s, const val& q, const std::string& f) {
  nettrace::FlameGraph callers, callees;
  s.BuildSandwich(ToStackQuery(s, q), f, &callers, &callees);
  val out = val::object();
  out.set("function", f);
  out.set("callers", GraphColumns(callers));
  out.set("callees", GraphColumns(callees));
  return out;
}
std::string TopFunctionsJson(const TraceSession& s, const val& q, uint32_t n) { return s.TopFunctionsJson(ToStackQuery(s, q), n); }
std::string SandwichJson(const TraceSession& s, const val& q, const std::string& f) { return s.SandwichJson(ToStackQuery(s, q), f); }
// Exports a part at a time (core/export/export_stream.h): each part's bytes cross as a
// JS-owned copy, an empty one at the end. The stream reads the session: JS deletes it first.
val Bytes(const std::string& text) {
  return val::global("Uint8Array").new_(emscripten::typed_memory_view(text.size(), reinterpret_cast<const uint8_t*>(text.data())));
}
val NextPart(nettrace::ExportStream& stream, double budget) {
  std::string part;
  stream.Next(&part, static_cast<size_t>(budget));
  return Bytes(part);
}
std::unique_ptr<nettrace::ExportStream> FoldedStream(const TraceSession& s, const val& q) { return s.FoldedStacksStream(ToStackQuery(s, q)); }
std::unique_ptr<nettrace::ExportStream> SpeedscopeStream(const TraceSession& s, const val& q, const std::string& name) {
  return s.ExportSpeedscopeStream(ToStackQuery(s, q), name);
}
std::unique_ptr<nettrace::ExportStream> SpeedscopeEventedStream(const TraceSession& s, const val& q, const std::string& name) {
  return s.ExportSpeedscopeEventedStream(ToStackQuery(s, q), name);
}
std::unique_ptr<nettrace::ExportStream> EventsCsvStream(const TraceSession& s, bool stackText) { return s.ExportEventsCsvStream(stackText); }
std::unique_ptr<nettrace::ExportStream> StacksCsvStream(const TraceSession& s) { return s.ExportStacksCsvStream(); }
// CSV of one event type with payload columns, a page of rows at a time (the JS API provides
// each page's blocks; TraceSession::PayloadCsv*).
size_t PayloadCsvPageEnd(const TraceSession& s, const val& rows) {
  return s.PayloadCsvPageEnd(emscripten::convertJSArrayToNumberVector<uint32_t>(rows), 0);
}
val PayloadCsvColumns(const TraceSession& s, const val& rows, const val& columns) {
  const std::vector<uint32_t> page = emscripten::convertJSArrayToNumberVector<uint32_t>(rows);
  std::vector<std::string> names = emscripten::vecFromJSArray<std::string>(columns);
  s.PayloadCsvColumns(page, 0, page.size(), &names);
  val out = val::array();
  for (const std::string& n : names) out.call<void>("push", n);
  return out;
}
val PayloadCsvLines(const TraceSession& s, const val& rows, const val& columns) {
  const std::vector<uint32_t> page = emscripten::convertJSArrayToNumberVector<uint32_t>(rows);
  return Bytes(s.PayloadCsvLines(page, 0, page.size(), emscripten::vecFromJSArray<std::string>(columns)));
}
val PayloadCsvHeaderOf(const val& columns) {
  return Bytes(nettrace::PayloadCsvHeader(emscripten::vecFromJSArray<std::string>(columns)));
}
// The Chrome trace with payload args, in pages the JS API drives (TraceSession::ChromeTrace*).
val ChromeTraceBegin(const TraceSession& s) { return Bytes(s.ChromeTraceBegin()); }
uint32_t ChromeTracePageEnd(const TraceSession& s, uint32_t begin) { return s.ChromeTracePageEnd(begin); }
val ChromeTraceEvents(const TraceSession& s, uint32_t begin, uint32_t end) { return Bytes(s.ChromeTraceEvents(begin, end)); }
val ChromeTraceEnd(const TraceSession& s) { return Bytes(s.ChromeTraceEnd()); }

// A/B stack diff of two sessions (or one twice, for two time ranges) with a
// query each; maxFunctions < 0: every function.
std::string StackDiffJson(const TraceSession& a, const val& qa, const TraceSession& b, const val& qb, double maxFunctions) {
  const size_t n = maxFunctions < 0 ? SIZE_MAX : static_cast<size_t>(maxFunctions);
  nettrace::StackQuery queryA = ToRequest("flame", qa).stack, queryB = ToRequest("flame", qb).stack;
  nettrace::ResolveDiffWeights(a, &queryA, b, &queryB);
  return nettrace::StackDiffJson(a, queryA, b, queryB, n);
}
std::string StackDiffFolded(const TraceSession& a, const val& qa, const TraceSession& b, const val& qb) {
  nettrace::StackQuery queryA = ToRequest("flame", qa).stack, queryB = ToRequest("flame", qb).stack;
  nettrace::ResolveDiffWeights(a, &queryA, b, &queryB);
  return nettrace::StackDiffFolded(a, queryA, b, queryB);
}

// The allocator's view of the heap, for leak tests and the memory figures of the benchmark:
// {heapSize: bytes of linear memory, allocated: bytes in use by malloc, free: bytes free in it}.
val HeapStats() {
  struct mallinfo mi = mallinfo();
  val out = val::object();
  out.set("heapSize", static_cast<double>(emscripten_get_heap_size()));
  out.set("allocated", static_cast<double>(static_cast<unsigned>(mi.uordblks)));
  out.set("free", static_cast<double>(static_cast<unsigned>(mi.fordblks)));
  return out;
}

// --- ConvertSession (core/convert/convert_session.h): the same facade `nettrace convert` drives.
nettrace::ConvertSession* NewConvertSession(val fromMs, val toMs) {
  nettrace::V6Converter::Options options;
  if (!fromMs.isUndefined() && !fromMs.isNull()) options.fromMs = fromMs.as<double>();
  if (!toMs.isUndefined() && !toMs.isNull()) options.toMs = toMs.as<double>();
  return new nettrace::ConvertSession(options);
}
val ConvertPushChunk(nettrace::ConvertSession& c, std::uintptr_t data, std::size_t size) {
  return StatusToJs(c.PushChunk(reinterpret_cast<const uint8_t*>(data), size));
}
val ConvertFinish(nettrace::ConvertSession& c) { return StatusToJs(c.Finish()); }
double ConvertTailWanted(const nettrace::ConvertSession& c) { return static_cast<double>(c.TailWanted()); }
val ConvertProvideTail(nettrace::ConvertSession& c, std::uintptr_t data, std::size_t size, double fileSize) {
  return StatusToJs(c.ProvideTail(reinterpret_cast<const uint8_t*>(data), size, static_cast<uint64_t>(fileSize)));
}
val ConvertFlushStatus(const nettrace::ConvertSession& c) { return StatusToJs(c.flushStatus()); }
val ConvertTakeOutput(nettrace::ConvertSession& c) { return CopyToJs("Uint8Array", c.TakeOutput()); }
double ConvertEventsWritten(const nettrace::ConvertSession& c) { return static_cast<double>(c.eventsWritten()); }

// A trace a writer makes in memory, as {status, bytes}.
val WrittenTrace(nettrace::Status (*write)(std::vector<uint8_t>*)) {
  std::vector<uint8_t> bytes;
  val out = val::object();
  out.set("status", StatusToJs(write(&bytes)));
  out.set("bytes", CopyToJs("Uint8Array", bytes));
  return out;
}

// nettrace write-sample-universal.
val WriteSampleUniversal() { return WrittenTrace(&nettrace::WriteSampleUniversalTrace); }

// The small profile an engine worker opens through the JS API ahead of the first trace
// (web/src/engine/engine_warm_up.ts), so that the bindings and the JS reading path a real open
// runs are compiled too, not only the C++ a read in C++ alone would reach.
val WarmUpTrace() { return WrittenTrace(&nettrace::WriteWarmUpTrace); }

}  // namespace

EMSCRIPTEN_BINDINGS(nettrace) {
  emscripten::class_<nettrace::ConvertSession>("ConvertSession")
      .constructor(&NewConvertSession, emscripten::allow_raw_pointers())
      .function("pushChunk", &ConvertPushChunk)
      .function("tailWanted", &ConvertTailWanted)
      .function("provideTail", &ConvertProvideTail)
      .function("finish", &ConvertFinish)
      .function("flushStatus", &ConvertFlushStatus)
      .function("takeOutput", &ConvertTakeOutput)
      .function("eventsWritten", &ConvertEventsWritten);
  emscripten::function("writeSampleUniversal", &WriteSampleUniversal);
  emscripten::function("warmUpTrace", &WarmUpTrace);
  emscripten::class_<nettrace::ExportStream>("ExportStream").function("next", &NextPart);
  emscripten::class_<TraceSession>("TraceSession")
      .constructor<>()
      .function("pushChunk", &PushChunk)
      .function("tailWanted", &TailWanted)
      .function("provideTail", &ProvideTail)
      .function("finish", &Finish)
      .function("status", &GetStatus)
      .function("summaryJson", &SummaryJson)
      .function("traceEventCounts", &TraceEventCounts)
      .function("bytesConsumed", &BytesConsumed)
      .function("eventCount", &EventCount)
      .function("droppedEventCount", &DroppedEventCount)
      .function("snapshot", &Snapshot)
      .function("queryEvents", &QueryEvents)
      .function("blocksNeeded", &BlocksNeeded)
      .function("provideBlock", &ProvideBlock)
      .function("keepNamesInSource", &KeepNamesInSource)
      .function("nameRangesNeeded", &NameRangesNeeded)
      .function("provideNames", &ProvideNames)
      .function("eventJson", &EventJson)
      .function("eventStack", &EventStack)
      .function("eventStackAddresses", &EventStackAddresses)
      .function("scanText", &ScanText)
      .function("matchPayloadText", &MatchPayloadText)
      .function("histogram", &BuildHistogram)
      .function("storeBytesPerEvent", &StoreBytesPerEvent)
      .function("flameGraphJson", &FlameGraphJson)
      .function("flameGraph", &FlameGraphColumns)
      .function("foldedStream", &FoldedStream)
      .function("topFunctionsJson", &TopFunctionsJson)
      .function("sandwichJson", &SandwichJson)
      .function("sandwich", &SandwichColumns)
      .function("speedscopeStream", &SpeedscopeStream)
      .function("speedscopeEventedStream", &SpeedscopeEventedStream)
      .function("eventsCsvStream", &EventsCsvStream)
      .function("stacksCsvStream", &StacksCsvStream)
      .function("payloadCsvPageEnd", &PayloadCsvPageEnd)
      .function("payloadCsvColumns", &PayloadCsvColumns)
      .function("payloadCsvLines", &PayloadCsvLines)
      .function("chromeTraceBegin", &ChromeTraceBegin)
      .function("chromeTracePageEnd", &ChromeTracePageEnd)
      .function("chromeTraceEvents", &ChromeTraceEvents)
      .function("chromeTraceEnd", &ChromeTraceEnd)
      .function("query", &Query);
  emscripten::function("heapStats", &HeapStats);
  emscripten::function("payloadCsvHeader", &PayloadCsvHeaderOf);
  emscripten::function("stackDiffJson", &StackDiffJson);
  emscripten::function("stackDiffFolded", &StackDiffFolded);
  emscripten::function("querySchemaJson", &QuerySchemaJson);
  emscripten::function("parseCliArgs", &ParseCliArgs);
  emscripten::function("cliHelp", &CliHelp);
  emscripten::function("commandHelp", &CommandHelp);
  emscripten::function("commandUsage", &CommandUsage);
  emscripten::function("parseRequest", &ParseRequest);
}
