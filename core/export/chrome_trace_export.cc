#include <set>
#include <vector>

#include "analysis/event_query.h"
#include "base/json_writer.h"
#include "export/exports.h"

namespace nettrace {

namespace {
uint64_t OsThreadId(const StoreBuilder& model, ThreadIndex t) {
  const ThreadEntry& e = model.threads()[t];
  return e.osThreadId.value_or(e.key);
}
}  // namespace

std::string ExportChromeTrace(const StoreBuilder& model, StackResolver* resolver, const std::vector<ChromeSpan>& spans) {
  const EventStore& store = model.store();
  const uint64_t pid = model.info().processId;
  JsonWriter w;
  w.BeginObject();
  w.Key("displayTimeUnit").String("ms");
  w.Key("traceEvents").BeginArray();
  // Metadata events ("ph":"M") name the process and the threads that have names.
  w.BeginObject().Key("ph").String("M").Key("name").String("process_name").Key("pid").UInt(pid);
  w.Key("args").BeginObject().Key("name").String(".NET process " + std::to_string(pid)).EndObject().EndObject();
  for (size_t t = 0; t < model.threads().size(); ++t) {
    const ThreadEntry& e = model.threads()[ThreadIndex(static_cast<uint16_t>(t))];
    if (!e.name) continue;
    w.BeginObject().Key("ph").String("M").Key("name").String("thread_name").Key("pid").UInt(pid);
    w.Key("tid").UInt(e.osThreadId.value_or(e.key));
    w.Key("args").BeginObject().Key("name").String(*e.name).EndObject().EndObject();
  }
  if (!spans.empty()) {
    w.BeginObject().Key("ph").String("M").Key("name").String("thread_name").Key("pid").UInt(pid).Key("tid").UInt(0);
    w.Key("args").BeginObject().Key("name").String("GC").EndObject().EndObject();
  }
  // Durations: complete events, ts and dur in microseconds (to the nanosecond).
  for (const ChromeSpan& span : spans) {
    w.BeginObject().Key("name").String(span.name).Key("cat").String(span.category).Key("ph").String("X");
    w.Key("ts").Fixed(span.startMs * 1000.0, 3).Key("dur").Fixed(span.durMs * 1000.0, 3);
    w.Key("pid").UInt(pid).Key("tid").UInt(span.tid);
    w.Key("args").BeginObject();
    for (const auto& [key, value] : span.args) w.Key(key).String(value);
    w.EndObject().EndObject();
  }
  std::set<uint32_t> usedStacks;
  for (size_t row = 0; row < store.size(); ++row) {
    const EventType& type = model.types()[store.type(row)];
    w.BeginObject();
    w.Key("name").String(type.name);
    w.Key("cat").String(type.metadata.providerName);
    // Thread-scoped instant events; ts in microseconds from the trace's sync time.
    w.Key("ph").String("i").Key("s").String("t");
    w.Key("ts").Fixed(TicksToMs(model.info(), store.timestamp(row)) * 1000.0, 3);
    w.Key("pid").UInt(pid);
    w.Key("tid").UInt(OsThreadId(model, store.thread(row)));
    if (uint32_t cs = resolver->Resolve(store.stack(row), store.timestamp(row))) {
      w.Key("sf").UInt(cs);
      usedStacks.insert(cs);
    }
    w.EndObject();
  }
  w.EndArray();
  // stackFrames: id → {name, parent}; every ancestor of a used stack is listed too.
  std::set<uint32_t> all;
  for (uint32_t s : usedStacks)
    for (; s != 0 && all.insert(s).second; s = resolver->stacks().parent(s)) {
    }
  w.Key("stackFrames").BeginObject();
  for (uint32_t s : all) {
    w.Key(std::to_string(s)).BeginObject();
    w.Key("name").String(resolver->frames().name(resolver->stacks().frame(s)));
    if (uint32_t p = resolver->stacks().parent(s)) w.Key("parent").String(std::to_string(p));
    w.EndObject();
  }
  w.EndObject();
  w.EndObject();
  return w.Take();
}

}  // namespace nettrace
