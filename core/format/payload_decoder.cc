#include "format/payload_decoder.h"

#include <algorithm>
#include <utility>

#include "format/clr_events.generated.h"
#include "format/payload/clr_enums.h"
#include "format/payload/clr_template.h"
#include "format/payload/metadata_fields.h"
#include "format/provider_family.h"

namespace nettrace {

namespace {

using DateTimeEncoding = PayloadValue::DateTimeEncoding;

// The template for a CLR event, or nullptr. ExceptionThrown version 0 has no fields in the
// manifest, yet runtimes send the version-1 layout under it (TraceEvent decodes both
// with one template): fall back to version 1 when a v0 payload is not empty.
const clr::EventInfo* FindClrTemplate(clr::Provider provider, uint32_t id, uint32_t version, size_t payloadSize) {
  const clr::EventInfo* info = clr::FindEvent(provider, id, version);
  if (info && provider == clr::Provider::kRuntime && id == 80 && info->fieldCount == 0 && payloadSize > 0)
    info = clr::FindEvent(provider, id, 1);
  if (!info || !info->layoutKnown) return nullptr;
  return info;
}

void Finish(DecodedPayload* d, const payload::DecodeState& s, const ByteCursor& c, bool stopped) {
  d->shorterThanTemplate = s.shorter;
  d->stoppedAtError = stopped;
  d->hasErrors = s.hasErrors;
  // After a stop the position of later fields is unknown: nothing counts as trailing.
  // Bytes a RelLoc/DataLoc referenced are used even when they follow the last field.
  size_t used = std::max(c.position(), s.referencedEnd);
  d->trailingBytes = stopped || used >= s.payload.size() ? 0 : static_cast<uint32_t>(s.payload.size() - used);
  d->longerThanTemplate = d->trailingBytes > 0;
  if (s.sawDateTime)
    d->dateTimeEncoding = s.dateTimeWidth == 16 ? DateTimeEncoding::kSystemTime : DateTimeEncoding::kFileTime;
}

DecodedPayload DecodeByMetadata(const EventMetadata& m, std::span<const uint8_t> payload, uint8_t dateTimeWidth) {
  DecodedPayload d;
  d.schema = PayloadSchema::kMetadata;
  payload::DecodeState s(payload);
  s.dateTimeWidth = dateTimeWidth;
  ByteCursor c = s.Whole();
  bool stopped = false;
  payload::DecodeMetadataFields(m.fields, s, c, &d.fields, &stopped);
  Finish(&d, s, c, stopped);
  return d;
}

bool Exact(const DecodedPayload& d) {
  return !d.shorterThanTemplate && !d.longerThanTemplate && !d.hasErrors && !d.stoppedAtError;
}

// A CLR event whose metadata describes its fields (a v6 writer may) still shows TraceEvent's
// enum names: TraceEvent decodes CLR events with its own templates whatever the metadata
// says. Integer fields named like an enum field of the CLR template get its enum.
DecodedPayload WithClrEnums(const EventMetadata& m, size_t payloadSize, DecodedPayload d) {
  clr::Provider provider = ClrProviderOf(m.providerName);
  const clr::EventInfo* info =
      provider == clr::Provider::kNone ? nullptr : FindClrTemplate(provider, m.eventId, m.version, payloadSize);
  if (!info) return d;
  for (PayloadField& f : d.fields) {
    if (!f.value.isInteger()) continue;
    for (uint16_t i = 0; i < info->fieldCount; ++i) {
      const clr::Field& t = info->fields[i];
      if (t.enumType && f.name == t.name) {
        f.enumType = t.enumType;
        break;
      }
    }
  }
  return d;
}

// TplEventSource: TraceEvent decodes its events with hand-written templates, whatever the
// metadata says, and two of them differ from the metadata: TaskWait/Send (id 10) returns
// Behavior as the enum TaskWaitBehavior, and AwaitTaskContinuationScheduled/Send (id 12)
// calls its third field ContinuationId, where the EventSource method's parameter (and so the
// metadata) says ContinueWithTaskId (TplTraceEventParser.cs, AwaitTaskContinuationScheduledArgs).
DecodedPayload WithTplTemplateNames(const EventMetadata& m, DecodedPayload d) {
  if (ClassifyProvider(m.providerName) != KnownProvider::kTpl) return d;
  for (size_t i = 0; i < d.fields.size(); ++i) {
    PayloadField& f = d.fields[i];
    if (m.eventId == 10 && f.name == "Behavior" && f.value.isInteger()) f.enumType = clr::FindEnum("TaskWaitBehavior");
    if (m.eventId == 12 && i == 2 && f.name == "ContinueWithTaskId") f.name = "ContinuationId";
  }
  return d;
}

// `payload` decoded with a CLR manifest template.
DecodedPayload DecodeByTemplate(const clr::EventInfo& info, std::span<const uint8_t> payload, uint32_t pointerSize) {
  DecodedPayload d;
  d.schema = PayloadSchema::kClrTemplate;
  d.clrEvent = &info;
  payload::DecodeState s(payload);
  ByteCursor c = s.Whole();
  payload::ClrDecodeResult r = payload::DecodeClrTemplate(info, pointerSize, s, c, &d.fields);
  d.exceptionMessageOmitted = r.exceptionMessageOmitted;
  Finish(&d, s, c, r.stopped);
  return d;
}

// A GC dynamic event (runtime id 39) whose Name TraceEvent has a template for: Data decoded
// with that template, as TraceEvent shows it (its fields only, not Name, DataSize or
// ClrInstanceID). Anything else is left as decoded.
void DecodeGcDynamicData(DecodedPayload* d, uint32_t pointerSize) {
  const PayloadValue* name = d->Find("Name");
  const PayloadValue* data = d->Find("Data");
  if (!name || !data || name->kind() != PayloadValue::Kind::kString || data->kind() != PayloadValue::Kind::kBytes) return;
  const clr::EventInfo* dynamic = clr::FindGcDynamicEvent(name->text());
  const std::string bytes = data->text();
  // A shorter Data keeps the generic fields, as TraceEvent names the event generically then.
  if (!dynamic || bytes.size() < clr::GcDynamicDataSize(*dynamic)) return;
  DecodedPayload out = DecodeByTemplate(
      *dynamic, std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()), pointerSize);
  // The event's own bytes around Data were decoded (and checked) above.
  out.hasErrors = out.hasErrors || d->hasErrors;
  out.shorterThanTemplate = out.shorterThanTemplate || d->shorterThanTemplate;
  *d = std::move(out);
}

}  // namespace

const char* PayloadSchemaName(PayloadSchema schema) {
  switch (schema) {
    case PayloadSchema::kNone: return "none";
    case PayloadSchema::kMetadata: return "metadata";
    case PayloadSchema::kClrTemplate: return "clr";
  }
  return "none";
}

const PayloadValue* DecodedPayload::Find(std::string_view name) const {
  for (const auto& f : fields)
    if (f.name == name) return &f.value;
  return nullptr;
}

void DecodedPayload::ToJson(JsonWriter& w) const {
  w.BeginObject();
  w.Key("schema").String(PayloadSchemaName(schema));
  if (clrEvent) {
    // The manifest template used: its version may differ from the event's (the nearest).
    w.Key("template").String(clrEvent->symbol);
    w.Key("templateVersion").UInt(clrEvent->version);
  }
  // An array of {name, value}: payload field names may repeat, and order matters.
  w.Key("fields").BeginArray();
  for (const auto& f : fields) {
    w.BeginObject().Key("name").String(f.name).Key("value");
    f.value.ToJson(w);
    // The enum member name(s) TraceEvent shows; "value" stays the number.
    if (f.enumType && f.value.isInteger()) w.Key("display").String(clr::FormatEnumField(*f.enumType, f.value));
    w.EndObject();
  }
  w.EndArray();
  w.Key("shorterThanTemplate").Bool(shorterThanTemplate);
  w.Key("trailingBytes").UInt(trailingBytes);
  w.Key("hasErrors").Bool(hasErrors);
  w.Key("stoppedAtError").Bool(stoppedAtError);
  if (dateTimeEncoding != DateTimeEncoding::kNone)
    w.Key("dateTime").String(dateTimeEncoding == DateTimeEncoding::kSystemTime ? "systemtime" : "filetime");
  if (exceptionMessageOmitted) w.Key("exceptionMessageOmitted").Bool(true);
  w.EndObject();
}

DecodedPayload DecodePayload(const EventMetadata& metadata, std::span<const uint8_t> payload, uint32_t pointerSize,
                             int formatMajor) {
  if (!metadata.fields.empty()) {
    // DateTime: v4/v5 payloads carry an 8-byte FILETIME (what EventSource writes). The v6
    // spec says a 16-byte SYSTEMTIME, but runtimes and TraceEvent use FILETIME in v6 too
    // (format-pitfalls.md §9). So FILETIME first; in v6, if the payload does not fit that
    // exactly, try SYSTEMTIME and keep it only if it fits exactly.
    DecodedPayload first = DecodeByMetadata(metadata, payload, 8);
    if (formatMajor < 6 || Exact(first) || !payload::ContainsDateTime(metadata.fields))
      return WithTplTemplateNames(metadata, WithClrEnums(metadata, payload.size(), std::move(first)));
    DecodedPayload second = DecodeByMetadata(metadata, payload, 16);
    return WithTplTemplateNames(
        metadata, WithClrEnums(metadata, payload.size(), Exact(second) ? std::move(second) : std::move(first)));
  }

  clr::Provider provider = ClrProviderOf(metadata.providerName);
  const clr::EventInfo* info =
      provider == clr::Provider::kNone
          ? nullptr
          : FindClrTemplate(provider, metadata.eventId, metadata.version, payload.size());
  if (!info) {
    // No schema: nothing decoded, every byte undecoded.
    DecodedPayload d;
    d.trailingBytes = static_cast<uint32_t>(payload.size());
    return d;
  }
  DecodedPayload d = DecodeByTemplate(*info, payload, pointerSize);
  if (provider == clr::Provider::kRuntime && metadata.eventId == clr::kGcDynamicEventId) DecodeGcDynamicData(&d, pointerSize);
  // SYSTEMTIME/FILETIME kinds in templates are explicit; report what was seen.
  d.dateTimeEncoding = DateTimeEncoding::kNone;
  for (const auto& f : d.fields)
    if (f.value.kind() == PayloadValue::Kind::kDateTime) d.dateTimeEncoding = f.value.dateTimeEncoding();
  return d;
}

}  // namespace nettrace
