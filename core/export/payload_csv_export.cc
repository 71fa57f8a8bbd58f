#include "export/payload_csv_export.h"

#include <algorithm>
#include <cstdio>

#include "analysis/query/event_query.h"
#include "analysis/views/view_format.h"
#include "events/trace_clock.h"
#include "format/payload_decoder.h"

namespace nettrace {

namespace {
DecodedPayload Decode(const TraceModel& model, std::span<const uint8_t> payload, uint32_t storeRow, uint32_t formatMajor) {
  const EventType& type = model.types()[model.store().type(storeRow)];
  const uint32_t pointerSize = model.info().pointerSize ? model.info().pointerSize : 8;
  return DecodePayload(type.metadata, payload, pointerSize, static_cast<int>(formatMajor));
}
// The payload as (column, cell) pairs: a struct field spreads into one column per member,
// named "Field.Member" (an unnamed field adds no prefix); other values as ToString shows them.
void Flatten(const std::vector<PayloadField>& fields, const std::string& prefix,
             std::vector<std::pair<std::string, std::string>>* out) {
  for (const PayloadField& f : fields) {
    const std::string name = prefix.empty() ? f.name : f.name.empty() ? prefix : prefix + '.' + f.name;
    if (f.value.kind() == PayloadValue::Kind::kObject) Flatten(f.value.fields(), name, out);
    else out->emplace_back(name, f.value.ToString());
  }
}

}  // namespace

std::vector<std::pair<std::string, std::string>> PayloadCells(const TraceModel& model, std::span<const uint8_t> payload,
                                                              uint32_t storeRow, uint32_t formatMajor) {
  std::vector<std::pair<std::string, std::string>> cells;
  Flatten(Decode(model, payload, storeRow, formatMajor).fields, "", &cells);
  return cells;
}

void AddPayloadColumns(const TraceModel& model, std::span<const uint8_t> payload, uint32_t storeRow, uint32_t formatMajor,
                       std::vector<std::string>* columns) {
  for (const auto& [name, cell] : PayloadCells(model, payload, storeRow, formatMajor))
    if (std::find(columns->begin(), columns->end(), name) == columns->end()) columns->push_back(name);
}

std::string PayloadCsvHeader(const std::vector<std::string>& columns) {
  std::string out = "TimeMs,Provider,Event,ThreadId,StackId";
  for (const std::string& c : columns) out += ',', AppendCsvField(c, &out);
  return out + '\n';
}

std::string PayloadCsvLine(const TraceModel& model, const EventDetail* detail, uint32_t storeRow,
                           uint32_t formatMajor, uint32_t stackId, const std::vector<std::string>& columns) {
  const EventStore& store = model.store();
  const EventType& type = model.types()[store.type(storeRow)];
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.3f,", TicksToMs(model.info(), store.timestamp(storeRow)));
  std::string out = buf;
  AppendCsvField(type.metadata.providerName, &out);
  out += ',';
  AppendCsvField(type.name, &out);
  const ThreadEntry& t = model.threads()[store.thread(storeRow)];
  out += ',' + std::to_string(t.osThreadId.value_or(t.key)) + ',';
  if (stackId != 0) out += std::to_string(stackId);
  std::vector<std::string> cells(columns.size());
  if (detail) {
    // A name that repeats in one payload fills its column once (the first occurrence).
    std::vector<bool> filled(columns.size());
    for (auto& [name, cell] : PayloadCells(model, detail->payload, storeRow, formatMajor)) {
      const size_t c = static_cast<size_t>(std::find(columns.begin(), columns.end(), name) - columns.begin());
      if (c < columns.size() && !filled[c]) cells[c] = std::move(cell), filled[c] = true;
    }
  }
  for (const std::string& cell : cells) out += ',', AppendCsvField(cell, &out);
  return out + '\n';
}

}  // namespace nettrace
