#include "analysis/query/event_json.h"

#include "analysis/query/event_query.h"
#include "analysis/query/utc_time.h"
#include "base/json_writer.h"
#include "events/trace_clock.h"
#include "format/payload_decoder.h"

namespace nettrace {

namespace {

void WriteLabels(JsonWriter& w, const LabelList& list) {
  w.Key("labels").BeginObject();
  for (const Label& l : list.labels) {
    switch (l.kind) {
      case LabelKind::kActivityId: w.Key("activityId").String(l.guid.ToString()); break;
      case LabelKind::kRelatedActivityId: w.Key("relatedActivityId").String(l.guid.ToString()); break;
      case LabelKind::kTraceId: {
        static const char* hex = "0123456789abcdef";
        std::string s;
        for (uint8_t b : l.guid.bytes) s += hex[b >> 4], s += hex[b & 15];
        w.Key("traceId").String(s);
        break;
      }
      case LabelKind::kSpanId: {
        char buf[24];
        std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(l.number));
        w.Key("spanId").String(buf);
        break;
      }
      case LabelKind::kStringKeyValue: w.Key(l.key).String(l.value); break;
      case LabelKind::kIntKeyValue: w.Key(l.key).Int(l.intValue); break;
      case LabelKind::kOpCode: w.Key("opcode").UInt(l.number); break;
      case LabelKind::kKeywords: w.Key("keywords").UInt(l.number); break;
      case LabelKind::kLevel: w.Key("level").UInt(l.number); break;
      case LabelKind::kVersion: w.Key("version").UInt(l.number); break;
    }
  }
  w.EndObject();
}

}  // namespace

std::string EventJson(const TraceModel& model, uint32_t storeRow, const EventDetail* detail, uint32_t formatMajor) {
  const EventStore& store = model.store();
  const TraceInfo& info = model.info();
  const EventType& type = model.types()[store.type(storeRow)];
  const ThreadEntry& thread = model.threads()[store.thread(storeRow)];
  const uint64_t ts = store.timestamp(storeRow);
  const double ms = TicksToMs(info, ts);

  JsonWriter w;
  w.BeginObject();
  w.Key("index").UInt(storeRow);
  w.Key("timestamp").UInt(ts);
  w.Key("timeMs").Fixed(ms, 6);
  w.Key("utc");
  WriteUtc(w, SyncUnixMs(info.syncTimeUtc) + ms);
  w.Key("provider").String(type.metadata.providerName);
  w.Key("name").String(type.name);
  w.Key("eventId").UInt(type.metadata.eventId);
  w.Key("version").UInt(type.metadata.version);
  w.Key("threadId");
  if (thread.osThreadId) w.UInt(*thread.osThreadId);
  else w.Null();
  w.Key("processId");
  if (thread.processId) w.UInt(*thread.processId);
  else w.Null();
  if (thread.name) w.Key("threadName").String(*thread.name);
  w.Key("stack").UInt(store.stack(storeRow).value);
  WriteLabels(w, model.labels().Get(store.labels(storeRow)));
  w.Key("detail").Bool(detail != nullptr);
  if (detail) {
    // Runtimes from .NET 5 on write 0xFFFFFFFF: the processor was not recorded.
    w.Key("processor");
    if (detail->processorNumber == 0xFFFFFFFFu) w.Null();
    else w.UInt(detail->processorNumber);
    w.Key("sequenceNumber").UInt(detail->sequenceNumber);
    w.Key("payloadOffset").UInt(detail->payloadOffset);
    w.Key("payloadSize").UInt(detail->payload.size());
    w.Key("payload");
    DecodePayload(type.metadata, detail->payload, info.pointerSize, static_cast<int>(formatMajor)).ToJson(w);
  }
  w.EndObject();
  return w.Take();
}

}  // namespace nettrace
