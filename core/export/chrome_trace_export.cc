// The Chrome trace (Trace Event Format, JSON object form), written in pieces so that the
// events' payload fields can come as `args` a page of rows at a time (their blocks re-read
// by the caller): Head (metadata and the durations), Events (instant events, in store
// order, pages in order), Tail (stackFrames of the stacks the events used).
#include <set>
#include <vector>

#include "analysis/event_query.h"
#include "base/json_writer.h"
#include "events/trace_clock.h"
#include "export/exports.h"

namespace nettrace {

namespace {
uint64_t OsThreadId(const TraceModel& model, ThreadIndex t) {
  const ThreadEntry& e = model.threads()[t];
  return e.osThreadId.value_or(e.key);
}
}  // namespace

ChromeTraceWriter::ChromeTraceWriter(const TraceModel& model, const SymbolCollector& symbols)
    : model_(model), resolver_(model, symbols) {}

void ChromeTraceWriter::Item(const std::string& json, std::string* out) {
  if (!first_) *out += ',';
  first_ = false;
  *out += json;
}

std::string ChromeTraceWriter::Head(const std::vector<ChromeSpan>& spans) {
  const uint64_t pid = model_.info().processId;
  std::string out = "{\"displayTimeUnit\":\"ms\",\"traceEvents\":[";
  // Metadata events ("ph":"M") name the process and the threads that have names.
  JsonWriter p;
  p.BeginObject().Key("ph").String("M").Key("name").String("process_name").Key("pid").UInt(pid);
  p.Key("args").BeginObject().Key("name").String(".NET process " + std::to_string(pid)).EndObject().EndObject();
  Item(p.Take(), &out);
  for (size_t t = 0; t < model_.threads().size(); ++t) {
    const ThreadEntry& e = model_.threads()[ThreadIndex(static_cast<uint16_t>(t))];
    if (!e.name) continue;
    JsonWriter w;
    w.BeginObject().Key("ph").String("M").Key("name").String("thread_name").Key("pid").UInt(pid);
    w.Key("tid").UInt(e.osThreadId.value_or(e.key));
    w.Key("args").BeginObject().Key("name").String(*e.name).EndObject().EndObject();
    Item(w.Take(), &out);
  }
  if (!spans.empty()) {
    JsonWriter w;
    w.BeginObject().Key("ph").String("M").Key("name").String("thread_name").Key("pid").UInt(pid).Key("tid").UInt(0);
    w.Key("args").BeginObject().Key("name").String("GC").EndObject().EndObject();
    Item(w.Take(), &out);
  }
  // Durations: complete events, ts and dur in microseconds (to the nanosecond).
  for (const ChromeSpan& span : spans) {
    JsonWriter w;
    w.BeginObject().Key("name").String(span.name).Key("cat").String(span.category).Key("ph").String("X");
    w.Key("ts").Fixed(span.startMs * 1000.0, 3).Key("dur").Fixed(span.durMs * 1000.0, 3);
    w.Key("pid").UInt(pid).Key("tid").UInt(span.tid);
    w.Key("args").BeginObject();
    for (const auto& [key, value] : span.args) w.Key(key).String(value);
    w.EndObject().EndObject();
    Item(w.Take(), &out);
  }
  return out;
}

std::string ChromeTraceWriter::Events(uint32_t begin, uint32_t end, const ArgsOf& args) {
  const EventStore& store = model_.store();
  const uint64_t pid = model_.info().processId;
  std::string out;
  for (uint32_t row = begin; row < end && row < store.size(); ++row) {
    const EventType& type = model_.types()[store.type(row)];
    JsonWriter w;
    w.BeginObject();
    w.Key("name").String(type.name);
    w.Key("cat").String(type.metadata.providerName);
    // Thread-scoped instant events; ts in microseconds from the trace's sync time.
    w.Key("ph").String("i").Key("s").String("t");
    w.Key("ts").Fixed(TicksToMs(model_.info(), store.timestamp(row)) * 1000.0, 3);
    w.Key("pid").UInt(pid);
    w.Key("tid").UInt(OsThreadId(model_, store.thread(row)));
    if (uint32_t cs = resolver_.Resolve(store.stack(row), store.timestamp(row))) {
      w.Key("sf").UInt(cs);
      usedStacks_.insert(cs);
    }
    if (args) {
      const std::vector<std::pair<std::string, std::string>> fields = args(row);
      if (!fields.empty()) {
        w.Key("args").BeginObject();
        for (const auto& [key, value] : fields) w.Key(key).String(value);
        w.EndObject();
      }
    }
    w.EndObject();
    Item(w.Take(), &out);
  }
  return out;
}

std::string ChromeTraceWriter::Tail() {
  // stackFrames: id → {name, parent}; every ancestor of a used stack is listed too.
  std::set<uint32_t> all;
  for (uint32_t s : usedStacks_)
    for (; s != 0 && all.insert(s).second; s = resolver_.stacks().parent(s)) {
    }
  JsonWriter w;
  w.BeginObject();
  for (uint32_t s : all) {
    w.Key(std::to_string(s)).BeginObject();
    w.Key("name").String(resolver_.frames().name(resolver_.stacks().frame(s)));
    if (uint32_t p = resolver_.stacks().parent(s)) w.Key("parent").String(std::to_string(p));
    w.EndObject();
  }
  w.EndObject();
  return "],\"stackFrames\":" + w.Take() + "}";
}

std::string ExportChromeTrace(const TraceModel& model, const SymbolCollector& symbols,
                              const std::vector<ChromeSpan>& spans) {
  ChromeTraceWriter writer(model, symbols);
  std::string out = writer.Head(spans);
  out += writer.Events(0, static_cast<uint32_t>(model.store().size()), nullptr);
  return out + writer.Tail();
}

}  // namespace nettrace
