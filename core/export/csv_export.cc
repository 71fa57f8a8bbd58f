#include <algorithm>
#include <cstdio>
#include <vector>

#include "analysis/event_query.h"
#include "events/trace_clock.h"
#include "export/exports.h"

namespace nettrace {

namespace {
// RFC 4180: quote a field holding a comma, quote or line break; double inner quotes.
void AppendCsvField(const std::string& s, std::string* out) {
  if (s.find_first_of(",\"\r\n") == std::string::npos) {
    *out += s;
    return;
  }
  *out += '"';
  for (char c : s) {
    if (c == '"') *out += '"';
    *out += c;
  }
  *out += '"';
}


// The call stack of each event, in store order (0: no stack).
std::vector<uint32_t> EventCallStacks(const TraceModel& model, StackResolver* resolver) {
  const EventStore& store = model.store();
  std::vector<uint32_t> out(store.size());
  EventStore::RowCursor cursor(store);
  for (size_t row = 0; row < store.size(); ++row) out[row] = resolver->Resolve(store.stack(row), cursor.timestamp(row));
  return out;
}

// Frame names root first, ';' between them (the folded-stack convention).
std::string StackText(const StackResolver& resolver, uint32_t stack) {
  std::string text;
  for (uint32_t f : resolver.stacks().Frames(stack)) {
    if (!text.empty()) text += ';';
    text += resolver.frames().name(f);
  }
  return text;
}

}  // namespace

std::string ExportEventsCsv(const TraceModel& model, StackResolver* resolver, bool stackText) {
  const EventStore& store = model.store();
  const std::vector<uint32_t> stacks = EventCallStacks(model, resolver);
  std::string out = stackText ? "TimeMs,Provider,Event,ThreadId,StackId,Stack\n" : "TimeMs,Provider,Event,ThreadId,StackId\n";
  char buf[64];
  EventStore::RowCursor cursor(store);
  for (size_t row = 0; row < store.size(); ++row) {
    const EventType& type = model.types()[store.type(row)];
    std::snprintf(buf, sizeof buf, "%.3f,", TicksToMs(model.info(), cursor.timestamp(row)));
    out += buf;
    AppendCsvField(type.metadata.providerName, &out);
    out += ',';
    AppendCsvField(type.name, &out);
    const ThreadEntry& t = model.threads()[store.thread(row)];
    out += ',' + std::to_string(t.osThreadId.value_or(t.key)) + ',';
    if (stacks[row] != 0) out += std::to_string(stacks[row]);
    if (stackText) {
      out += ',';
      AppendCsvField(StackText(*resolver, stacks[row]), &out);
    }
    out += '\n';
  }
  return out;
}

std::string ExportStacksCsv(const TraceModel& model, StackResolver* resolver) {
  std::vector<uint32_t> used = EventCallStacks(model, resolver);
  std::sort(used.begin(), used.end());
  used.erase(std::unique(used.begin(), used.end()), used.end());
  std::string out = "StackId,Depth,Stack\n";
  for (uint32_t stack : used) {
    if (stack == 0) continue;
    out += std::to_string(stack) + ',' + std::to_string(resolver->stacks().Frames(stack).size()) + ',';
    AppendCsvField(StackText(*resolver, stack), &out);
    out += '\n';
  }
  return out;
}

}  // namespace nettrace
