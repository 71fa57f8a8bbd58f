#include <cstdio>

#include "analysis/event_query.h"
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
}  // namespace

std::string ExportEventsCsv(const StoreBuilder& model, StackResolver* resolver) {
  const EventStore& store = model.store();
  std::string out = "TimeMs,Provider,Event,ThreadId,Stack\n";
  char buf[64];
  for (size_t row = 0; row < store.size(); ++row) {
    const EventType& type = model.types()[store.type(row)];
    std::snprintf(buf, sizeof buf, "%.3f,", TicksToMs(model.info(), store.timestamp(row)));
    out += buf;
    AppendCsvField(type.metadata.providerName, &out);
    out += ',';
    AppendCsvField(type.name, &out);
    const ThreadEntry& t = model.threads()[store.thread(row)];
    out += ',' + std::to_string(t.osThreadId.value_or(t.key)) + ',';
    std::string stack;
    for (uint32_t f : resolver->stacks().Frames(resolver->Resolve(store.stack(row), store.timestamp(row)))) {
      if (!stack.empty()) stack += ';';
      stack += resolver->frames().name(f);
    }
    AppendCsvField(stack, &out);
    out += '\n';
  }
  return out;
}

}  // namespace nettrace
